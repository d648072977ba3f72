"""interact's navigation and history: navigate, back, forward, reload, open_tab, close_tab, and wait_for."""

from __future__ import annotations

from ...progress import phase
from ...session.state import Session
from ..modes import Meaning, Mode, OneOf
from ..response import Response
from .params import InteractParams

#: how long a load is waited for, and wait_for's wait, when the call does not say (ms)
LOAD_TIMEOUT = 30_000
WAIT_FOR_TIMEOUT = 5_000


def _load_timeout(params: InteractParams) -> None:
    if params.timeout is not None and params.timeout < 1000:
        raise ValueError(f"'timeout' is {params.timeout}; allowed range for {params.action}: 1000 to 120000")


async def navigate(session: Session, params: InteractParams, response: Response) -> None:
    assert params.url is not None  # the row needs it
    client, tab_id = await session.browsers.tab(params.tab_id)
    timeout = params.timeout or LOAD_TIMEOUT
    with phase(f"waiting for {params.url} to load", bound=timeout / 1000):
        result = await client.navigate(tab_id, params.url, timeout)
    response.result = {"action": "navigate", "tab_id": tab_id, **result}


async def history(session: Session, params: InteractParams, response: Response) -> None:
    client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
    timeout = params.timeout or LOAD_TIMEOUT
    with phase(
        f"waiting for the tab to {'reload' if params.action == 'reload' else 'go ' + params.action}",
        bound=timeout / 1000,
    ):
        result = await client.history(tab_id, params.action, timeout)
    response.result = {"action": params.action, "tab_id": tab_id, **result}


async def open_tab(session: Session, params: InteractParams, response: Response) -> None:
    timeout = params.timeout or LOAD_TIMEOUT
    with phase(
        f"waiting for {params.url} to load in a new tab" if params.url else "opening a tab", bound=timeout / 1000
    ):
        result = await session.browsers.open_tab(params.url, timeout)
    await _tracked_after(session, "open_tab", result, response)


async def close_tab(session: Session, params: InteractParams, response: Response) -> None:
    await _tracked_after(session, "close_tab", await session.browsers.close_tab(params.tab_id), response)


async def _tracked_after(session: Session, action: str, result: dict, response: Response) -> None:
    """The answer of open_tab and close_tab, which says which tab the session tracks afterwards."""
    client, tracked = await session.browsers.tab()
    now = (
        result
        if result.get("tab_id") == tracked
        else next((tab for tab in (await client.tabs())["tabs"] if tab["id"] == tracked), {})
    )
    response.result = {
        "action": action,
        **result,
        "tracked": {"tab_id": tracked, "url": now.get("url"), "title": now.get("title")},
    }


async def wait_for(session: Session, params: InteractParams, response: Response) -> None:
    client, tab_id = await session.browsers.tab(params.tab_id)
    timeout = params.timeout if params.timeout is not None else WAIT_FOR_TIMEOUT
    awaited = f"{params.selector} to be visible" if params.selector else f"the text {params.text!r}"
    with phase(f"waiting for {awaited}", bound=timeout / 1000):
        result = await client.wait_for(tab_id, params.selector, params.text, timeout)
    response.result = {"action": "wait_for", "tab_id": tab_id, **result}


_HISTORY: dict[str, str | Meaning] = {"timeout": Meaning("", "At least 1000, default 30000."), "tab_id": ""}
MODES = (
    Mode(
        "navigate",
        "load url and wait for it.",
        navigate,
        acts=True,
        rule=_load_timeout,
        needs=("url",),
        fields={"url": Meaning("", "Where to."), **_HISTORY},
    ),
    Mode(
        "back",
        "in history, waited for.",
        history,
        acts=True,
        rule=_load_timeout,
        fields=_HISTORY,
    ),
    Mode("forward", "as back.", history, acts=True, rule=_load_timeout, fields=_HISTORY),
    Mode("reload", "as back.", history, acts=True, rule=_load_timeout, fields=_HISTORY),
    Mode(
        "open_tab",
        "a background tab (url optional), tracked then.",
        open_tab,
        detail="The user's focus stays where it is.",
        acts=True,
        rule=_load_timeout,
        fields={"url": Meaning("", "What to load."), "timeout": _HISTORY["timeout"]},
    ),
    Mode(
        "close_tab",
        "tab_id, or the tracked tab you opened.",
        close_tab,
        detail="The answer says which tab is tracked then.",
        acts=True,
        fields={"tab_id": ""},
    ),
    Mode(
        "wait_for",
        "until selector is visible or text shows.",
        wait_for,
        needs=(OneOf(("selector", "text")),),
        fields={
            "selector": "",
            "text": Meaning("", "Text to wait for."),
            "timeout": Meaning("", "Default 5000."),
            "tab_id": "",
        },
    ),
)
