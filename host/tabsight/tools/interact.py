"""interact: act on the tracked tab."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator

from .base import Params, Tool, text


class InteractParams(Params):
    action: Literal["navigate"] = Field(description="navigate: load url in the tracked tab and wait for it.")
    url: str = Field(min_length=1, max_length=8192, description="Where to navigate (http, https, file or data URL).")
    timeout: int = Field(default=30_000, ge=1000, le=120_000, description="Milliseconds to wait for the load.")
    tab_id: int | None = Field(default=None, description="Act on this tab instead of the tracked one.")

    @field_validator("url")
    @classmethod
    def _absolute(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "file", "data", "about") or (
            parts.scheme in ("http", "https") and not parts.netloc
        ):
            raise ValueError(f"'url' is {url!r}; allowed: an absolute http, https, file, data or about URL")
        return url


async def interact(session, params: InteractParams):
    link, tab_id = await session.browsers.tab(params.tab_id)
    result = await link.request(
        "tab.navigate",
        {"tab_id": tab_id, "url": params.url, "timeout_ms": params.timeout},
        timeout=params.timeout / 1000 + 5,
    )
    return [text({"action": "navigate", "tab_id": tab_id, **result})]


TOOL = Tool(
    name="interact",
    description="Act on the tracked tab. action=navigate loads url, waits for it to finish loading and reports "
    "the final URL, title and HTTP status.",
    params=InteractParams,
    handler=interact,
)
