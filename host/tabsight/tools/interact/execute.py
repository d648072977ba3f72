"""interact's execute: a page script and raw CDP steps, whose screenshots come back as images."""

from __future__ import annotations

import base64
import logging
import time
from pathlib import Path

from ... import config
from ...paths import make_folders, write_private
from ...progress import phase
from ...session.state import Session
from ..modes import Meaning, Mode, OneOf
from ..response import Response
from .params import InteractParams

log = logging.getLogger("tabsight.interact")


async def execute(session: Session, params: InteractParams, response: Response) -> None:
    """Runs the script and steps; every Page.captureScreenshot result becomes an attached image, its data in
    the text replaced by a reference, and (with TABSIGHT_SCREENSHOT_DIR) a file."""
    client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
    started = int(time.time() * 1000)
    steps = [step.model_dump() for step in params.cdp or []]
    running = (["the script"] if params.script else []) + ([f"{len(steps)} CDP step(s)"] if steps else [])
    with phase("running " + " and ".join(running)):
        result = await client.execute(tab_id, params.script, steps, params.timeout_ms, max_chars=session.answer_chars)
    for step, outcome in zip(steps, result.get("cdp", [])):
        data = (outcome.get("result") or {}).get("data")
        if step["method"] != "Page.captureScreenshot" or not isinstance(data, str):
            continue
        fmt = step["params"].get("format", "png")
        raw = base64.b64decode(data)
        number = response.attach_image(raw, f"image/{fmt}")
        outcome["result"]["data"] = f"<image {number}, attached below>"
        response.remember_screenshot(raw)
        _dump(raw, f"{session.id}-{started}-{number}.{'jpg' if fmt == 'jpeg' else fmt}")
    response.result = {"action": "execute", "tab_id": tab_id, **result}


def _dump(data: bytes, name: str) -> None:
    """Best effort: a screenshot for whoever set TABSIGHT_SCREENSHOT_DIR (an eval harness, say). A picture of a
    logged-in page, which redaction cannot mask: the file is 0600, in folders made 0700."""
    folder = config.current()[config.TABSIGHT_SCREENSHOT_DIR]
    if not folder:
        return
    try:
        write_private(make_folders(Path(folder)) / name, data)
    except OSError as exc:
        log.warning("could not write %s to TABSIGHT_SCREENSHOT_DIR: %s", name, exc)


MODES = (
    Mode(
        "execute",
        "a page script and/or CDP steps.",
        execute,
        detail="The script is awaited and its JSON result returned; the CDP steps run in order; "
        "Page.captureScreenshot results come back as images.",
        acts=True,
        needs=(OneOf(("script", "cdp"), both=True),),
        fields={
            "script": Meaning("page JavaScript, awaited.", "An expression, or statements with return."),
            "cdp": Meaning("", "CDP calls, each {method, params}, run in order."),
            "timeout_ms": Meaning("per step.", "Each step's bound, in ms; many clients give up on a call at 60 s."),
            "tab_id": "",
        },
    ),
)
