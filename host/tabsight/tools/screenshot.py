"""screenshot: a picture of the tracked tab, BrowserLoop-compatible in names and result.

Parameter names keep BrowserLoop's camelCase so its users can switch unchanged.
"""

from __future__ import annotations

import base64
import io
from datetime import datetime, timezone
from typing import Literal

from PIL import Image
from pydantic import Field

from .base import Params, Tool, image, text

MIME_TYPES = {"webp": "image/webp", "png": "image/png", "jpeg": "image/jpeg"}


class ScreenshotParams(Params):
    format: Literal["webp", "png", "jpeg"] = Field(default="webp", description="Image format.")
    quality: int = Field(default=80, ge=1, le=100, description="Quality for webp and jpeg (1-100).")
    tab_id: int | None = Field(default=None, description="Capture this tab instead of the tracked one.")


def image_size(data: bytes) -> tuple[int, int]:
    """Pixel size from the image header (Pillow reads no pixels for this)."""
    with Image.open(io.BytesIO(data)) as img:
        return img.size


async def screenshot(session, params: ScreenshotParams):
    link, tab_id = await session.browsers.tab(params.tab_id)
    shot = await link.request(
        "capture", {"tab_id": tab_id, "format": params.format, "quality": params.quality}, timeout=15
    )
    width, height = image_size(base64.b64decode(shot["data"]))
    browser = link.hello.extension.browser if link.hello.extension else None
    metadata = {
        "width": width,
        "height": height,
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
        "url": shot.get("url"),
        "viewport": shot.get("viewport"),
        "configuration": {"retryCount": 0, "userAgent": browser.user_agent if browser else ""},
    }
    return [image(shot["data"], shot.get("mime_type") or MIME_TYPES[params.format]), text({"metadata": metadata})]


TOOL = Tool(
    name="screenshot",
    description="Screenshot of the tracked browser tab as it is now, returned as an image.",
    params=ScreenshotParams,
    handler=screenshot,
    read_only=True,
)
