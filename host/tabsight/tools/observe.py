"""observe: look at the browser: the page's state, an annotated screenshot, the
tabs, the page's telemetry (errors, logs, network, vitals) and pending alerts.

Every answer but what=alerts ends with the session's pending alerts, if
any, as an ``_alerts`` block (drained there): the passive channel every MCP
client sees.
"""

from __future__ import annotations

import io
from typing import Literal

from pydantic import Field, model_validator

from ..browser.client import BrowserClient
from ..session.state import Session
from .base import Params, Tool
from .response import Response

#: the screenshot under the marks is taken at this JPEG quality; the drawn result is sent at ANNOTATED_QUALITY
CAPTURE_QUALITY = 90
ANNOTATED_QUALITY = 80


TELEMETRY = ("errors", "logs", "network", "vitals")


class ObserveParams(Params):
    what: Literal["page", "tabs", "errors", "logs", "network", "vitals", "alerts"] = Field(
        description="page: url, title, viewport, device pixel ratio, readyState, headings, forms and the "
        "interactive-element count of the tracked tab. tabs: the connected browsers and their tabs, "
        "and which tab is tracked. errors: console errors, uncaught exceptions, unhandled rejections. logs: "
        "console errors and warnings. network: failed and 4xx/5xx requests. vitals: LCP, CLS, INP, FCP, TTFB "
        "per page load. alerts: the pending alerts (drained)."
    )
    tab_id: int | None = Field(default=None, description="Look at this tab instead of the tracked one.")
    since: int = Field(
        default=0, ge=0, description="errors/logs/network/vitals: only what came after this cursor (from a previous answer)."
    )
    limit: int = Field(default=20, ge=1, le=200, description="errors/logs/network/vitals: at most this many, newest.")
    url: str | None = Field(
        default=None, min_length=1, max_length=2048, description="errors/logs/network/vitals: URL contains this."
    )
    annotate_screenshot: bool = Field(
        default=False,
        description="what=page: a screenshot with a numbered box on every element of the viewport, plus a map "
        "from each number to selector, role, name, text, bounds and interactionHint. interact({label:N}) acts on N.",
    )
    annotation_target: Literal["interactive", "all_visible", "custom"] = Field(
        default="interactive",
        description="interactive: controls, links and ARIA widgets; all_visible: visible elements with text or a "
        "role; custom: the elements annotation_selector matches.",
    )
    annotation_selector: str | None = Field(
        default=None, min_length=1, max_length=1024, description="CSS selector, with annotation_target=custom."
    )
    max_annotations: int = Field(default=50, ge=1, le=100, description="At most this many marks, in reading order.")

    @model_validator(mode="after")
    def _annotation_arguments(self) -> ObserveParams:
        if (self.annotation_target == "custom") != (self.annotation_selector is not None):
            raise ValueError(
                "annotation_selector is needed with annotation_target 'custom', and only then"
            )
        return self


async def observe(session: Session, params: ObserveParams, response: Response) -> None:
    if params.what == "alerts":
        block = session.inbox.drain() or {"_alerts": []}
        response.result = {"alerts": block["_alerts"]}
        if "_alerts_dropped" in block:
            response.result["dropped"] = block["_alerts_dropped"]
        return
    response.include_alerts()
    if params.what == "tabs":
        response.result = await session.browsers.list_tabs()
        return
    client, tab_id = await session.browsers.tab(params.tab_id)
    if params.what in TELEMETRY:
        found = await client.telemetry(tab_id, params.what, params.since, params.limit, params.url)
        response.result = {"what": params.what, "tab_id": tab_id, **found}
    elif params.annotate_screenshot:
        await _annotate(session, client, tab_id, params, response)
    else:
        response.result = {"tab_id": tab_id, **await client.page_info(tab_id)}


async def _annotate(session: Session, client: BrowserClient, tab_id: int, params: ObserveParams, response: Response) -> None:
    found = await client.find_elements(tab_id, params.annotation_target, params.annotation_selector, params.max_annotations)
    shot = await client.capture(tab_id, "jpeg", CAPTURE_QUALITY)
    page = found["page"]
    annotations = [{"label": n, **element} for n, element in enumerate(found["elements"], 1)]
    from .. import annotate  # here, not at the top: numpy costs every front ~11 MB, and most never annotate

    picture, _badges = annotate.draw(shot.image, annotations, page["viewport"]["width"])
    out = io.BytesIO()
    # 4:4:4: chroma subsampling would wash the thin coloured boxes out
    picture.save(out, "JPEG", quality=ANNOTATED_QUALITY, subsampling=0)
    session.labels.remember(client, tab_id, page, [item["selector"] for item in annotations], found["annotation"])
    response.remember_screenshot(shot.image)
    response.add_image(out.getvalue(), "image/jpeg")
    response.result = {
        "page": {key: page[key] for key in ("url", "title", "viewport")} | {"readyState": page["ready_state"]},
        "annotations": annotations,
        "total_found": found["total_found"],
    }


TOOL = Tool(
    name="observe",
    description="Look at the browser: the tracked page's state (what=page; with annotate_screenshot, a screenshot "
    "whose interactive elements carry numbers that interact({label}) accepts), the open tabs (what=tabs), the "
    "page's errors, logs, failed requests and Web Vitals (pass the answer's cursor as since for only what is new), "
    "or pending alerts. Pending alerts also ride on every answer as _alerts.",
    params=ObserveParams,
    handler=observe,
    read_only=True,
)
