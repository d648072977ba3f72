"""Screenshots made fit for a vision model: how each kind is encoded, sizes, downscaling, token cost.

``ENCODINGS`` is the one image policy: for each purpose an image serves (a
screenshot, an annotated one, the automatic one, a visual diff), the format
and quality it is captured or encoded in. Tools and the session ask for a
purpose's encoding here, and ``encode`` is the only code that calls Pillow's
``save``.

A capture arrives as tiles (one, or a grid for a page too long for one
image). Images are only decoded and re-encoded when they must shrink, or
when the browser took them in another format (a viewport's WebP arrives as
a JPEG); otherwise a capture goes back byte for byte as the browser encoded it.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import Image

from . import limits

Format = Literal["webp", "png", "jpeg"]
MIME_TYPES = {"webp": "image/webp", "png": "image/png", "jpeg": "image/jpeg"}

#: libwebp's effort, 0 (fastest) to 6 (Pillow's default is 4). At 1280x720, quality 80, method 0 encodes in
#: 17-27 ms where 4 takes 55-85, for 15-32 % more bytes (far fewer than the JPEG 90 it is made from) and the same
#: fidelity to the page (bench/webp_bench.py, docs/benchmarks.md); a model is billed by pixels, not bytes.
WEBP_METHOD = 0


@dataclass(frozen=True)
class Encoding:
    """How the images of one purpose are captured (the browser encodes them) or encoded (here)."""

    format: Format
    #: 1-100, for jpeg and webp; None for png, which is lossless
    quality: int | None = None
    #: Pillow's options beyond the quality, for this format
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def mime_type(self) -> str:
        return MIME_TYPES[self.format]


Purpose = Literal["screenshot", "annotated_capture", "annotated", "automatic", "diff_capture", "diff"]

ENCODINGS: dict[Purpose, Encoding] = {
    # the screenshot tool's defaults, BrowserLoop's (docs/design.md §3); TABSIGHT_DEFAULT_FORMAT/QUALITY change
    # them and a call's format and quality override them
    "screenshot": Encoding("webp", 80),
    # the capture an annotated screenshot is drawn on: it is decoded and encoded again (annotated), so it is taken
    # finer than that, for the second pass not to blur the page's text further
    "annotated_capture": Encoding("jpeg", 90),
    # the annotated screenshot: a JPEG, which Pillow encodes several times faster than a WebP, at a screenshot's
    # default quality; 4:4:4, since chroma subsampling would wash the thin coloured boxes and badges out
    "annotated": Encoding("jpeg", 80, {"subsampling": 0}),
    # screenshot_mode's screenshot, appended to answers unasked: a glance at the tab, kept small (it rides on every
    # observe and generate answer) and quick (the browser encodes a JPEG fastest: docs/design.md §1)
    "automatic": Encoding("jpeg", 60),
    # the tab now, for a visual diff: lossless, for compression noise not to count as change; it becomes the
    # session's latest screenshot, the next diff's baseline
    "diff_capture": Encoding("png"),
    # the diff image: changes in red over a faded page, for the model to look at, never compared again
    "diff": Encoding("jpeg", 80),
}

#: Claude's vision input downsizes larger images to this long edge and area
#: (docs/design.md §1), and bills about width x height / 750 tokens for what is left.
MODEL_LONG_EDGE = 1568
MODEL_MAX_PIXELS = 1_150_000
PIXELS_PER_TOKEN = 750


@dataclass
class Picture:
    """One encoded image and the box of the page it shows (CSS pixels)."""

    data: bytes
    width: int
    height: int
    page_x: float = 0
    page_y: float = 0
    page_width: float = 0
    page_height: float = 0


def picture(data_b64: str, page_x: float, page_y: float, page_width: float, page_height: float) -> Picture:
    data = base64.b64decode(data_b64)
    with Image.open(io.BytesIO(data)) as img:  # reads the header only
        width, height = img.size
    return Picture(data, width, height, page_x, page_y, page_width, page_height)


def fit(
    pictures: list[Picture], fmt: str, quality: int, max_width: int | None, max_height: int | None
) -> tuple[list[Picture], float]:
    """The tiles of one screenshot, shrunk so that the whole is at most
    ``max_width`` x ``max_height`` pixels (aspect kept), and the scale applied.

    Shrunk tiles are laid out again as one image, split only where it is
    still longer than limits.MAX_TILE_SIDE: a page that needed three tiles may fit in one.
    """
    width, height = grid_size(pictures)
    scale = min(1.0, (max_width or width) / width, (max_height or height) / height)
    if scale >= 1.0:
        return pictures, 1.0
    origin = pictures[0]
    ratio = origin.width / origin.page_width  # image pixels per CSS pixel
    canvas = Image.new("RGB", (max(1, round(width * scale)), max(1, round(height * scale))))
    for pic in pictures:
        with Image.open(io.BytesIO(pic.data)) as img:
            size = (max(1, round(pic.width * scale)), max(1, round(pic.height * scale)))
            small = img.convert("RGB").resize(size, Image.Resampling.LANCZOS)
        at = (round((pic.page_x - origin.page_x) * ratio * scale), round((pic.page_y - origin.page_y) * ratio * scale))
        canvas.paste(small, at)
    css_per_pixel = 1 / (ratio * scale)
    shrunk = []
    for top in range(0, canvas.height, limits.MAX_TILE_SIDE):
        for left in range(0, canvas.width, limits.MAX_TILE_SIDE):
            tile = canvas.crop(
                (
                    left,
                    top,
                    min(left + limits.MAX_TILE_SIDE, canvas.width),
                    min(top + limits.MAX_TILE_SIDE, canvas.height),
                )
            )
            shrunk.append(
                Picture(
                    encode(tile, "screenshot", fmt, quality),
                    tile.width,
                    tile.height,
                    origin.page_x + left * css_per_pixel,
                    origin.page_y + top * css_per_pixel,
                    tile.width * css_per_pixel,
                    tile.height * css_per_pixel,
                )
            )
    return shrunk, scale


def grid_size(pictures: list[Picture]) -> tuple[int, int]:
    """Pixel size of the whole that tiles laid out row by row make."""
    rows: dict[float, list[Picture]] = {}
    for pic in pictures:
        rows.setdefault(pic.page_y, []).append(pic)
    width = max(sum(p.width for p in row) for row in rows.values())
    height = sum(row[0].height for row in rows.values())
    return width, height


def encode(img: Image.Image, purpose: Purpose, fmt: str | None = None, quality: int | None = None) -> bytes:
    """``img`` encoded as ``purpose``'s images are; the screenshot tool passes the format and quality a call
    asked for (the purpose's options apply in the purpose's own format only)."""
    encoding = ENCODINGS[purpose]
    fmt = fmt or encoding.format
    out = io.BytesIO()
    if fmt == "png":
        img.save(out, "PNG")
        return out.getvalue()
    options = dict(encoding.options) if fmt == encoding.format else {}
    if fmt == "webp":
        options["method"] = WEBP_METHOD
    img.save(out, fmt.upper(), quality=quality or encoding.quality, **options)
    return out.getvalue()


def reencoded(pic: Picture, fmt: str, quality: int | None) -> Picture:
    """The same screenshot in another format (a WebP the browser took as a JPEG, which it encodes faster);
    ``quality`` None: the screenshot tool's default."""
    with Image.open(io.BytesIO(pic.data)) as img:
        data = encode(img.convert("RGB"), "screenshot", fmt, quality)
    return Picture(data, pic.width, pic.height, pic.page_x, pic.page_y, pic.page_width, pic.page_height)


def vision_tokens(width: int, height: int) -> int:
    """Estimated tokens a model is billed for this image: width x height / 750,
    taken after the downsizing the API applies to large images."""
    shrink = min(1.0, MODEL_LONG_EDGE / max(width, height), math.sqrt(MODEL_MAX_PIXELS / (width * height)))
    return math.ceil(width * shrink * height * shrink / PIXELS_PER_TOKEN)
