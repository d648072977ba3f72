"""Drawing an annotated screenshot: a box and a numbered badge per element.

Badges must be legible on any page, never sit on one another, and hide as
little of the page as they can:
- colour: each badge takes the palette that stands out from the pixels it
  covers (a dark fill with white digits on light pages, a bright fill with
  black digits on dark ones; both pairs above 4.5:1 contrast);
- place: every annotated element's box (and its outline) is content to keep
  clear, and so is text the page shows: a spot is "plain" when the
  screenshot has (almost) no edges under it. Spots are tried around each
  element (above, to the side, below, at its outer corners), then moved
  away from it in rings up to REACH CSS px, with a leader line to the
  element. The first plain spot clear of every other element wins: next to
  the element, then moved away (nearest first), then a corner inside its
  own element; then a busy spot clear of other elements (fewest edges), its
  own busy corner, and last a spot over other elements (least overlap).
  Only when nothing within reach is free of other badges does a badge go
  further out.
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
#: how far (CSS px) a badge may move from its element to find a plain spot, in steps of STEP
REACH = 60
STEP = 10
#: a step in grey level (0-1020, sum r+2g+b) above this between two sampled pixels is an edge
EDGE_STEP = 96
#: a spot with more edges than this under it covers something (text, an icon, a border)
BUSY_EDGES = 2


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
    #: (x0, y0, x1, y1) of the line from a badge moved away from its element to that element
    leader: tuple[int, int, int, int] | None = None


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


# Candidate spots around an element, in order of preference: (x anchor, x badge
# widths, x moves, y anchor, y badge heights, y moves, inside). Anchors: 0 left/top,
# 1 right/bottom, 2 centre; a spot is anchor + widths * badge size + moves * distance.
_AROUND = np.array(
    [
        (0, 0, 0, 0, -1, -1, 0),  # above, left-aligned
        (1, -1, 0, 0, -1, -1, 0),  # above, right-aligned
        (0, -1, -1, 0, 0, 0, 0),  # to the left, top-aligned
        (1, 0, 1, 0, 0, 0, 0),  # to the right, top-aligned
        (0, -1, -1, 0, -1, -1, 0),  # outside the top-left corner
        (1, 0, 1, 0, -1, -1, 0),  # outside the top-right corner
        (0, 0, 0, 1, 0, 1, 0),  # below, left-aligned
        (1, -1, 0, 1, 0, 1, 0),  # below, right-aligned
        (0, -1, -1, 1, -1, 0, 0),  # to the left, bottom-aligned
        (1, 0, 1, 1, -1, 0, 0),  # to the right, bottom-aligned
        (0, -1, -1, 1, 0, 1, 0),  # outside the bottom-left corner
        (1, 0, 1, 1, 0, 1, 0),  # outside the bottom-right corner
        (2, -0.5, 0, 0, -1, -1, 0),  # above, centred
        (2, -0.5, 0, 1, 0, 1, 0),  # below, centred
    ],
    dtype=np.float64,
)
_CORNERS = np.array(
    [
        (0, 0, 0, 0, 0, 0, 1),  # inside, top-left
        (1, -1, 0, 0, 0, 0, 1),  # inside, top-right
    ],
    dtype=np.float64,
)

#: the spots all around an element, as plain numbers
_NEXT_TO = [(int(ax), kw, m, int(ay), kh, n, int(i)) for ax, kw, m, ay, kh, n, i in _AROUND.tolist()]


@lru_cache(maxsize=1)
def _within_reach() -> tuple[np.ndarray, ...]:
    """The spots within reach of an element (its inside corners, then all
    around it at each ring): the rows that give their x and y from (left,
    right, centre, top, bottom, badge width, badge height, ring step, grid
    cell), their ring, whether they are inside, their tier when plain and
    clear, and their order."""
    rings = range(1, REACH // STEP + 1)
    templates = np.concatenate([_CORNERS, _AROUND] + [_AROUND] * len(rings))
    ring = np.concatenate([np.zeros(len(_CORNERS) + len(_AROUND))] + [np.full(len(_AROUND), r) for r in rings])
    anchor_x, widths, moves_x, anchor_y, heights, moves_y, inside = templates.T
    inset = inside * (1 - 2 * anchor_x)  # inside corners: a grid cell in, clear of the element's own border
    to_x = np.zeros((len(templates), 9))
    to_y = np.zeros((len(templates), 9))
    to_x[np.arange(len(templates)), anchor_x.astype(int)] = 1
    to_y[np.arange(len(templates)), 3 + anchor_y.astype(int)] = 1
    to_x[:, 5], to_x[:, 7], to_x[:, 8] = widths, moves_x * ring, inset
    to_y[:, 6], to_y[:, 7], to_y[:, 8] = heights, moves_y * ring, inside
    # plain and clear: next to the element, then moved away (nearest first), then in its own corner
    tier = np.where(inside > 0, 2, np.where(ring > 0, 1, 0))
    return to_x, to_y, ring, inside > 0, tier, np.arange(len(templates), dtype=np.float64)


def draw(
    screenshot: bytes, annotations: list[dict], viewport_width: int, size: tuple[int, int] | None = None
) -> tuple[Image.Image, list[Badge]]:
    """The screenshot with each annotation's box and label drawn on it, and
    where each badge went. Bounds are CSS pixels; the image may have more
    pixels per CSS pixel (device pixel ratio), or fewer when ``size`` (the
    picture's width and height) shrinks it: it is shrunk first and drawn on
    after, so badges keep their legible size on the smaller picture instead
    of shrinking with it."""
    with Image.open(io.BytesIO(screenshot)) as opened:
        img = opened.convert("RGB")
    if size is not None and size != img.size:
        img = img.resize(size, Image.Resampling.LANCZOS)
    scale = img.width / viewport_width
    original = np.array(img)  # the page as captured, before anything is drawn on it
    # badges, boxes and lines grow with the device pixel ratio, and never shrink below their CSS px size
    ink = max(1.0, scale)
    font = _font(round(FONT_SIZE * ink))
    pen = ImageDraw.Draw(img)
    stroke = max(2, round(2 * ink))
    pad = max(2, round(3 * ink))
    elements = [
        Box(
            round(item["bounds"]["x"] * scale),
            round(item["bounds"]["y"] * scale),
            max(1, round(item["bounds"]["width"] * scale)),
            max(1, round(item["bounds"]["height"] * scale)),
        )
        for item in annotations
    ]
    field = _Field(original, elements, stroke, scale)
    placed: list[Badge] = []
    for index, (item, element) in enumerate(zip(annotations, elements)):
        label = str(item["label"])
        left, top, right, bottom = font.getbbox(label)
        size = (right - left + 2 * pad, bottom - top + 2 * pad)
        spot, displaced = field.place(index, size)
        under = original[spot.y : spot.bottom, spot.x : spot.right]
        light = under.size == 0 or _relative_luminance(under).mean() > LIGHT_THRESHOLD
        fill, digits = ON_LIGHT if light else ON_DARK
        # just outside the element, so its own edge and content stay visible
        pen.rectangle(
            (element.x - stroke, element.y - stroke, element.right - 1 + stroke, element.bottom - 1 + stroke),
            outline=fill,
            width=stroke,
        )
        leader = _leader(spot, element, stroke) if displaced else None
        if leader is not None and leader[:2] != leader[2:]:  # (a badge over its own element needs none)
            pen.line(leader, fill=fill, width=max(1, round(ink)))
        else:
            leader = None
        pen.rectangle((spot.x, spot.y, spot.right - 1, spot.bottom - 1), fill=fill)
        pen.text((spot.x + pad - left, spot.y + pad - top), label, font=font, fill=digits)
        placed.append(Badge(item["label"], spot, fill, digits, leader))
    return img, placed


def _leader(spot: Box, element: Box, stroke: int) -> tuple[int, int, int, int]:
    """From the badge's centre to the nearest point of the element's outline."""
    cx, cy = spot.x + spot.width // 2, spot.y + spot.height // 2
    tx = min(max(cx, element.x - stroke), element.right - 1 + stroke)
    ty = min(max(cy, element.y - stroke), element.bottom - 1 + stroke)
    return (cx, cy, tx, ty)


class _Field:
    """What is already on the screenshot: the elements' boxes, the page's edges
    (text, icons, borders) and the badges placed so far, and where a new badge
    hides the least of it."""

    def __init__(self, original: np.ndarray, elements: list[Box], stroke: int, scale: float) -> None:
        self.height, self.width = original.shape[:2]
        self.scale = scale
        # Edges on a grid of about 2 CSS px: cheap (a few ms for 1280x720), and text,
        # whose strokes are 1-2 px, still shows as many of them.
        self.grid = grid = 2 * max(1, round(scale))
        sample = original[::grid, ::grid]
        grey = sample[..., 1].astype(np.int16) * 2 + sample[..., 0] + sample[..., 2]
        edges = np.zeros(grey.shape, np.int32)
        edges[:, 1:] = np.abs(np.diff(grey, axis=1)) > EDGE_STEP
        edges[1:, :] |= np.abs(np.diff(grey, axis=0)) > EDGE_STEP
        self.edges = np.zeros((grey.shape[0] + 1, grey.shape[1] + 1), np.int32)  # summed-area table
        np.cumsum(np.cumsum(edges, axis=0, out=edges), axis=1, out=self.edges[1:, 1:])
        self.boxes = np.array([(b.x, b.y, b.right, b.bottom) for b in elements], np.int64).reshape(-1, 4)
        # each element's box with its outline: content other badges keep clear of
        self.content = self.boxes + np.array([-stroke, -stroke, stroke, stroke])
        b = self.boxes
        # an element is not in the way of the badges of elements it contains (a list around its items)
        self.contains = (
            (b[:, None, 0] <= b[None, :, 0])
            & (b[:, None, 1] <= b[None, :, 1])
            & (b[:, None, 2] >= b[None, :, 2])
            & (b[:, None, 3] >= b[None, :, 3])
        )
        self.inside_of = self.contains.tolist()
        self.badges = np.zeros((len(elements), 4), np.int64)
        self.count = 0
        # the same boxes filed by cells of 64 CSS px, for the quick look next to each element
        self.cell = max(16, round(64 * scale))
        self.content_cells: dict[tuple[int, int], list] = {}
        self.badge_cells: dict[tuple[int, int], list] = {}
        for n, row in enumerate(self.content.tolist()):
            self._file(self.content_cells, (*row, n), 0)

    def place(self, index: int, size: tuple[int, int]) -> tuple[Box, bool]:
        """A spot for element ``index``'s badge of ``size``, and whether it was
        moved away from the element (and wants a leader line)."""
        w, h = size
        x0, y0, x1, y1 = (int(v) for v in self.boxes[index])
        quick = self._next_to(index, x0, y0, x1, y1, w, h)
        if quick is not None:
            return self._take(quick[0], quick[1], w, h), False
        # every spot within reach: ranked by what it hides, then by distance
        to_x, to_y, ring, inside, tier, order = _within_reach()
        terms = np.array([x0, x1, (x0 + x1) / 2, y0, y1, w, h, max(1, round(STEP * self.scale)), self.grid])
        xs = np.rint(to_x @ terms).astype(np.int64)
        ys = np.rint(to_y @ terms).astype(np.int64)
        key = self._cost(index, xs, ys, w, h, (ring, inside, tier, order))
        best = int(np.argmin(key))
        if np.isfinite(key[best]):
            return self._take(int(xs[best]), int(ys[best]), w, h), bool(ring[best] > 0)
        # Nothing free within reach: rings of spots around the first choice, further and further.
        origin_x, origin_y = x0, y0 - h
        for first in range(1, 200, 10):
            offsets = [
                (dx, dy)
                for r in range(first, first + 10)
                for dx in range(-r, r + 1)
                for dy in ((-r, r) if abs(dx) != r else range(-r, r + 1))
            ]
            d = np.array(offsets, np.int64) * DISPLACEMENT_STEP
            far = np.maximum(np.abs(d[:, 0]), np.abs(d[:, 1]))
            xs, ys = origin_x + d[:, 0], origin_y + d[:, 1]
            none = np.zeros(len(d), bool)
            key = self._cost(
                index, xs, ys, w, h, (far, none, np.where(far > 0, 1, 0), np.arange(len(d), dtype=np.float64))
            )
            if np.isfinite(key).any():
                best = int(np.argmin(key))
                return self._take(int(xs[best]), int(ys[best]), w, h), True
        spot = _clamped(Box(origin_x, origin_y, w, h), self.width, self.height)  # a page full of badges: give up
        return self._take(spot.x, spot.y, w, h), True

    def _next_to(self, index: int, x0: int, y0: int, x1: int, y1: int, w: int, h: int) -> tuple[int, int] | None:
        """The first plain spot all around the element, clear of every other
        element and badge, if there is one (most badges go there). Plain Python
        on a grid of cells, faster than numpy on a handful of spots."""
        g, t, cell = self.grid, self.edges, self.cell
        cx = (x0 + x1) / 2
        for ax, kw, _, ay, kh, _, _ in _NEXT_TO:
            x = round((x0, x1, cx)[ax] + kw * w)
            y = round((y0, y1)[ay] + kh * h)
            r, bt = x + w, y + h
            if x < 0 or y < 0 or r > self.width or bt > self.height:
                continue
            gx0, gy0 = x // g + 1, y // g + 1
            gx1, gy1 = max(r // g - 1, gx0), max(bt // g - 1, gy0)
            if int(t[gy1, gx1] - t[gy0, gx1] - t[gy1, gx0] + t[gy0, gx0]) > BUSY_EDGES:
                continue
            cells = [
                (i, j) for i in range(x // cell, (r - 1) // cell + 1) for j in range(y // cell, (bt - 1) // cell + 1)
            ]
            if any(
                x < q[2] and q[0] < r and y < q[3] and q[1] < bt and not self.inside_of[q[4]][index]
                for c in cells
                for q in self.content_cells.get(c, ())
            ):
                continue
            if not any(
                x <= q[2] and q[0] <= r and y <= q[3] and q[1] <= bt for c in cells for q in self.badge_cells.get(c, ())
            ):
                return x, y
        return None

    def _file(self, cells: dict, box: tuple[int, ...], margin: int) -> None:
        """Put ``box`` in every cell it (with ``margin``) touches."""
        c = self.cell
        for i in range((box[0] - margin) // c, (box[2] + margin) // c + 1):
            for j in range((box[1] - margin) // c, (box[3] + margin) // c + 1):
                cells.setdefault((i, j), []).append(box)

    def _cost(self, index, xs, ys, w, h, spots) -> np.ndarray:
        """Each spot's rank (lower is better, infinite when it is off the image
        or touches a placed badge)."""
        ring, inside, tier, order = spots
        right, bottom = xs + w, ys + h
        ok = (xs >= 0) & (ys >= 0) & (right <= self.width) & (bottom <= self.height)
        lo_x, lo_y, hi_x, hi_y = xs.min(), ys.min(), right.max(), bottom.max()
        b = self.badges[: self.count]
        b = b[(b[:, 0] <= hi_x) & (b[:, 2] >= lo_x) & (b[:, 1] <= hi_y) & (b[:, 3] >= lo_y)]
        if len(b):
            # a gap of at least one pixel to every placed badge
            ok &= ~(
                (xs[:, None] <= b[None, :, 2])
                & (b[None, :, 0] <= right[:, None])
                & (ys[:, None] <= b[None, :, 3])
                & (b[None, :, 1] <= bottom[:, None])
            ).any(axis=1)
        # other elements' boxes near enough to matter (not this one, nor those around it)
        c = self.content
        near = ~self.contains[:, index] & (c[:, 0] < hi_x) & (c[:, 2] > lo_x) & (c[:, 1] < hi_y) & (c[:, 3] > lo_y)
        if near.any():
            c = c[near]
            ow = np.minimum(right[:, None], c[None, :, 2]) - np.maximum(xs[:, None], c[None, :, 0])
            oh = np.minimum(bottom[:, None], c[None, :, 3]) - np.maximum(ys[:, None], c[None, :, 1])
            over = (np.maximum(ow, 0) * np.maximum(oh, 0)).sum(axis=1)
        else:
            over = np.zeros(len(xs), np.int64)
        # edges under the spot, one grid cell in from its sides (its neighbours' borders are not content)
        g, t = self.grid, self.edges
        top_x, top_y = t.shape[1] - 1, t.shape[0] - 1
        gx0 = np.minimum(np.maximum(xs // g + 1, 0), top_x)
        gy0 = np.minimum(np.maximum(ys // g + 1, 0), top_y)
        gx1 = np.minimum(np.maximum(right // g - 1, gx0), top_x)
        gy1 = np.minimum(np.maximum(bottom // g - 1, gy0), top_y)
        busy = t[gy1, gx1] - t[gy0, gx1] - t[gy1, gx0] + t[gy0, gx0]
        plain = busy <= BUSY_EDGES
        tier = np.where(plain, tier, 3 + inside)  # busy: least edges first
        tier[over > 0] = 5  # over other elements: least overlap first
        second = np.where(tier >= 5, over, np.where(tier >= 3, busy, ring))
        key = tier * 1e12 + second * 1e5 + order
        return np.where(ok, key, np.inf)

    def _take(self, x: int, y: int, w: int, h: int) -> Box:
        self.badges[self.count] = (x, y, x + w, y + h)
        self.count += 1
        self._file(self.badge_cells, (x, y, x + w, y + h), 1)
        return Box(x, y, w, h)


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
