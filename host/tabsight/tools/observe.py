"""observe: look at the browser (the page's state, the tabs)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Params, Tool, text


class ObserveParams(Params):
    what: Literal["page", "tabs"] = Field(
        description="page: url, title, viewport, device pixel ratio, readyState, headings, forms and the "
        "interactive-element count of the tracked tab. tabs: the connected browsers and their tabs, "
        "and which tab is tracked."
    )
    tab_id: int | None = Field(default=None, description="Look at this tab instead of the tracked one (what=page).")


async def observe(session, params: ObserveParams):
    if params.what == "tabs":
        return [text(await session.describe_tabs())]
    link, tab_id = await session.browsers.tab(params.tab_id)
    info = await link.request("page.info", {"tab_id": tab_id}, timeout=10)
    return [text({"tab_id": tab_id, **info})]


TOOL = Tool(
    name="observe",
    description="Look at the browser: the tracked page's state (what=page) or the open tabs (what=tabs).",
    params=ObserveParams,
    handler=observe,
    read_only=True,
)
