"""configure: session settings (which tab this session tracks)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Params, Tool, ToolError, text


class ConfigureParams(Params):
    action: Literal["track"] = Field(description="track: choose the tab (and browser) this session works on.")
    tab_id: int = Field(description="The tab to track, as listed by observe({what:'tabs'}).")
    browser: str | None = Field(
        default=None,
        description="The browser's id from observe({what:'tabs'}); needed only when several browsers are "
        "connected and the tab id is ambiguous.",
    )


async def configure(session, params: ConfigureParams):
    tab = await session.find_tab(params.tab_id, params.browser)
    if tab is None:
        raise ToolError(
            f"No tab with id {params.tab_id}"
            + (f" in browser {params.browser!r}" if params.browser else "")
            + ". Call observe({what:'tabs'}) for the open tabs."
        )
    return [text({"tracked": tab})]


TOOL = Tool(
    name="configure",
    description="Session settings. action=track chooses the tab (and browser) this session observes and acts on.",
    params=ConfigureParams,
    handler=configure,
)
