"""Drawing an annotated screenshot: a box and a numbered badge per element.

Badges must be legible on any page and never sit on one another:
- colour: each badge takes the palette that stands out from the pixels it
  covers (a dark fill with white digits on light pages, a bright fill with
  black digits on dark ones; both pairs above 4.5:1 contrast);
- place: the first free spot among positions around its element (above,
  inside, to the side, below); when none is free, the nearest free spot at
  least 20 px away, tied to its element by a line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: (fill, digits): for light backgrounds, for dark ones
ON_LIGHT = ((190, 0, 85), (255, 255, 255))
ON_DARK = ((255, 214, 0), (0, 0, 0))
#: a region brighter than this (mean relative luminance, 0-1) counts as light
LIGHT_THRESHOLD = 0.4
DISPLACEMENT_STEP = 20
FONT_SIZE = 13


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height

    def overlaps(self, other: Box, margin: int = 1) -> bool:
        return not (
            self.right + margin <= other.x
            or other.right + margin <= self.x
            or self.bottom + margin <= other.y
            or other.bottom + margin <= self.y
        )

    def within(self, width: int, height: int) -> bool:
        return self.x >= 0 and self.y >= 0 and self.right <= width and self.bottom <= height


@dataclass(frozen=True)
class Badge:
    label: int
    box: Box
    fill: tuple[int, int, int]
    digits: tuple[int, int, int]


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def draw(screenshot: bytes, annotations: list[dict], viewport_width: int) -> tuple[Image.Image, list[Badge]]:
    """The screenshot with each annotation's box and label drawn on it, and
    where each badge went. Bounds are CSS pixels; the image may have more
    pixels per CSS pixel (device pixel ratio)."""
    with Image.open(io.BytesIO(screenshot)) as opened:
        img = opened.convert("RGB")
    scale = img.width / viewport_width
    original = np.array(img)  # the page as captured, before anything is drawn on it
    font = _font(max(8, round(FONT_SIZE * scale)))
    pen = ImageDraw.Draw(img)
    stroke = max(2, round(2 * scale))
    placed: list[Badge] = []
    for item in annotations:
        bounds = item["bounds"]
        element = Box(
            round(bounds["x"] * scale), round(bounds["y"] * scale),
            max(1, round(bounds["width"] * scale)), max(1, round(bounds["height"] * scale)),
        )
        label = str(item["label"])
        left, top, right, bottom = font.getbbox(label)
        pad = max(2, round(3 * scale))
        size = (right - left + 2 * pad, bottom - top + 2 * pad)
        spot, displaced = _place(element, size, [b.box for b in placed], img.width, img.height)
        under = original[spot.y : spot.bottom, spot.x : spot.right]
        light = under.size == 0 or _relative_luminance(under).mean() > LIGHT_THRESHOLD
        fill, digits = ON_LIGHT if light else ON_DARK
        # just outside the element, so its own edge and content stay visible
        pen.rectangle(
            (element.x - stroke, element.y - stroke, element.right - 1 + stroke, element.bottom - 1 + stroke),
            outline=fill, width=stroke,
        )
        if displaced:
            pen.line((spot.x + spot.width // 2, spot.y + spot.height // 2, element.x, element.y), fill=fill, width=1)
        pen.rectangle((spot.x, spot.y, spot.right - 1, spot.bottom - 1), fill=fill)
        pen.text((spot.x + pad - left, spot.y + pad - top), label, font=font, fill=digits)
        placed.append(Badge(item["label"], spot, fill, digits))
    return img, placed


def _place(element: Box, size: tuple[int, int], taken: list[Box], width: int, height: int) -> tuple[Box, bool]:
    """A free spot for a badge of ``size`` near ``element``, and whether it
    had to move away from the element."""
    w, h = size
    near = [
        (element.x, element.y - h),  # above, left-aligned
        (element.x, element.y),  # inside, top-left
        (element.right - w, element.y - h),  # above, right-aligned
        (element.x - w, element.y),  # to the left
        (element.right, element.y),  # to the right
        (element.x, element.bottom),  # below
    ]
    for x, y in near:
        spot = _clamped(Box(x, y, w, h), width, height)
        if not any(spot.overlaps(other) for other in taken):
            return spot, False
    # Rings of positions around the first choice, DISPLACEMENT_STEP apart.
    origin_x, origin_y = element.x, element.y - h
    for ring in range(1, 200):
        step = ring * DISPLACEMENT_STEP
        for dx in range(-step, step + 1, DISPLACEMENT_STEP):
            for dy in (-step, step) if abs(dx) != step else range(-step, step + 1, DISPLACEMENT_STEP):
                spot = Box(origin_x + dx, origin_y + dy, w, h)
                if spot.within(width, height) and not any(spot.overlaps(other) for other in taken):
                    return spot, True
    return _clamped(Box(origin_x, origin_y, w, h), width, height), True  # a page full of badges: give up


def _clamped(box: Box, width: int, height: int) -> Box:
    x = min(max(box.x, 0), max(0, width - box.width))
    y = min(max(box.y, 0), max(0, height - box.height))
    return Box(x, y, box.width, box.height)


def _relative_luminance(pixels: np.ndarray) -> np.ndarray:
    """WCAG relative luminance (0 black to 1 white) of every pixel."""
    srgb = pixels.astype(np.float32) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = (float(_relative_luminance(np.array([[c]], dtype=np.uint8))[0, 0]) for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
