"""Drawing an annotated screenshot: a box and a numbered badge per element.

Badges must be legible on any page, never sit on one another, and hide as
little of the page as they can; boxes show each element's extent and hide
as little as they can too:
- colour: each badge takes the palette that stands out from the pixels it
  covers (a dark fill with white digits on light pages, a bright fill with
  black digits on dark ones; both pairs above 4.5:1 contrast); its
  element's box and leader line take the same fill;
- size: badges keep their CSS px size (FONT_SIZE) on a picture at full size
  or larger; on a shrunk one they shrink with it, but never below
  BADGE_MIN_SCALE of it (11 px digits, 2 px of padding), which stay legible;
- box: a line STROKE CSS px wide (at least 1 px) drawn up to GAP CSS px out
  from the element's bounds, clear of the text it holds or sits next to:
  each side goes where it covers and touches the fewest of the page's text
  strokes (between the element's bounds and OUTLINE_REACH CSS px out), but
  never more than halfway to the next element, so that neighbours' boxes do
  not run into each other. Where a glyph still comes within a pixel of a
  line (a label on a field's border, words packed tight), the line breaks
  for it rather than cross or touch it, and so does a leader line (a line
  touching a glyph makes it hard to read, for OCR and for a model alike:
  bench/legibility_bench.py measures what a look keeps of the page's words);
- place: every annotated element's box (and its outline) is content to keep
  clear, and so is text the page shows: a spot is "plain" when the
  screenshot has (almost) no edges under it, and no text touches it from
  outside (upright strokes just above or below it, flat ones just to a
  side: a border running along it is not text). Spots are tried around
  each element's outline (above, to the side, below, at its outer corners),
  then moved away from it in rings up to REACH CSS px, with a leader line to
  the element. The first plain spot clear of every other element wins: next
  to the element, then moved away (nearest first), then a corner inside its
  own element; then a busy spot clear of other elements (fewest edges), its
  own busy corner, and last a spot over other elements (least overlap).
  Only when nothing within reach is free of other badges does a badge go
  further out.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: CSS px of the page kept around a look's content and marks (content_region)
FRAME_MARGIN = 16
#: blank, for content_region: fewer than BLANK_STEPS steps above BLANK_LEVEL grey levels in a row or column (a
#: faint texture, such as TodoMVC's, steps by up to 15, and up to 28 once the capture is JPEG 90; pale grey text on
#: white, 50 and more)
BLANK_LEVEL = 32
BLANK_STEPS = 2
#: a look is cropped to its content only when that leaves out at least this share of the viewport
FRAME_MIN_SAVING = 0.1
#: (fill, digits): for light backgrounds, for dark ones
ON_LIGHT = ((190, 0, 85), (255, 255, 255))
ON_DARK = ((255, 214, 0), (0, 0, 0))
#: a region brighter than this (mean relative luminance, 0-1) counts as light
LIGHT_THRESHOLD = 0.4
DISPLACEMENT_STEP = 20
#: the badges' digits (CSS px) and the room around them (CSS px, at least 2 px)
FONT_SIZE = 13
PAD = 3
#: on a shrunk picture, badges shrink with it down to this share of their CSS px size, no further (11 px digits)
BADGE_MIN_SCALE = 0.85
#: how far (CSS px) a badge may move from its element to find a plain spot, in steps of STEP
REACH = 100
STEP = 10
#: a step in grey level (0-1020, sum r+2g+b) above this between two sampled pixels is an edge
EDGE_STEP = 96
#: a spot with more edges than this under it covers something (text, an icon, a border)
BUSY_EDGES = 2
#: a spot with more text strokes than this just outside it touches text
TOUCHING_EDGES = 1
#: the element's box: a line STROKE CSS px wide (at least 1 px), GAP CSS px out from the element's bounds by
#: choice, anywhere from 0 to OUTLINE_REACH CSS px out to keep clear of text
STROKE = 1
GAP = 4
OUTLINE_REACH = 5
#: how near (px) a glyph may come to a line before the line breaks for it
CLEARANCE = 1


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


def warm() -> Image.Image:
    """Loads what a first drawing would: the badges' fonts at each size; returns a badge (to encode, which loads
    the encoder)."""
    _badge("1", round(FONT_SIZE * BADGE_MIN_SCALE), PAD, *ON_LIGHT)  # a shrunk look's
    return _badge("1", FONT_SIZE, PAD, *ON_LIGHT)


def decode(screenshot: bytes) -> Image.Image:
    """A capture as RGB pixels."""
    with Image.open(io.BytesIO(screenshot)) as opened:
        return opened.convert("RGB")


def content_region(img: Image.Image, annotations: list[dict], viewport_width: int) -> Box | None:
    """The part of the viewport worth a picture, in CSS px: the viewport without its blank margins; None for the
    whole viewport. Blank is where the capture has no edge (fewer than BLANK_STEPS steps of grey level above
    BLANK_LEVEL between neighbouring pixels: text, borders, icons have them; a flat colour, a gradient or a
    faint texture has none, even through JPEG's noise), in whole rows from the top and bottom, whole columns
    from the sides; every mark is kept, and FRAME_MARGIN around what is kept (room for boxes and badges). The
    whole viewport when that would leave out less than FRAME_MIN_SAVING of it, or when nothing has an edge: a
    picture of the page as the user sees it is worth more than a few hundred pixels saved."""
    dpr = img.width / viewport_width
    viewport_height = round(img.height / dpr)
    grey = np.asarray(img.convert("L"), dtype=np.int16)
    along = np.abs(np.diff(grey, axis=1)) > BLANK_LEVEL  # steps along each row
    down = np.abs(np.diff(grey, axis=0)) > BLANK_LEVEL  # steps down each column
    rows = along.sum(axis=1) >= BLANK_STEPS
    rows[1:] |= down.sum(axis=1) >= BLANK_STEPS
    columns = down.sum(axis=0) >= BLANK_STEPS
    columns[1:] |= along.sum(axis=0) >= BLANK_STEPS
    if not rows.any() or not columns.any():
        return None
    top, bottom = np.flatnonzero(rows)[[0, -1]] / dpr
    left, right = np.flatnonzero(columns)[[0, -1]] / dpr
    for item in annotations:
        bounds = item["bounds"]
        left, top = min(left, bounds["x"]), min(top, bounds["y"])
        right, bottom = max(right, bounds["x"] + bounds["width"]), max(bottom, bounds["y"] + bounds["height"])
    x0, y0 = max(0, int(left) - FRAME_MARGIN), max(0, int(top) - FRAME_MARGIN)
    x1 = min(viewport_width, int(np.ceil(right)) + 1 + FRAME_MARGIN)
    y1 = min(viewport_height, int(np.ceil(bottom)) + 1 + FRAME_MARGIN)
    kept = Box(x0, y0, x1 - x0, y1 - y0)
    if kept.width * kept.height > (1 - FRAME_MIN_SAVING) * viewport_width * viewport_height:
        return None
    return kept


def draw_look(
    img: Image.Image,
    annotations: list[dict],
    viewport_width: int,
    fit: Callable[[int, int], tuple[int, int]],
    crop: bool,
) -> tuple[Image.Image, Box | None]:
    """A look's picture: the capture, cropped to its ``content_region`` when ``crop``, sized by ``fit`` (the
    pixels of what is pictured -> the picture's size), drawn on; and the region pictured, None for the whole
    viewport."""
    region = content_region(img, annotations, viewport_width) if crop else None
    dpr = img.width / viewport_width
    pictured = (round(region.width * dpr), round(region.height * dpr)) if region is not None else img.size
    picture, _ = draw(img, annotations, viewport_width, fit(*pictured), region)
    return picture, region


def draw(
    screenshot: bytes | Image.Image,
    annotations: list[dict],
    viewport_width: int,
    size: tuple[int, int] | None = None,
    region: Box | None = None,
) -> tuple[Image.Image, list[Badge]]:
    """The screenshot with each annotation's box and label drawn on it, and
    where each badge went. Bounds are CSS pixels; the image may have more
    pixels per CSS pixel (device pixel ratio), or fewer when ``size`` (the
    picture's width and height) shrinks it: it is shrunk first and drawn on
    after, so badges keep a legible size on the smaller picture (they shrink
    less than the page, down to BADGE_MIN_SCALE) instead of shrinking with it.
    ``region`` (CSS px, ``content_region``): the part of the viewport drawn,
    the whole of it when None."""
    img = decode(screenshot) if isinstance(screenshot, bytes) else screenshot
    dpr = img.width / viewport_width
    if region is not None:
        img = img.crop(
            (round(region.x * dpr), round(region.y * dpr), round(region.right * dpr), round(region.bottom * dpr))
        )
    if size is not None and size != img.size:
        img = img.resize(size, Image.Resampling.LANCZOS)
    origin = region or Box(0, 0, viewport_width, 0)
    scale = img.width / origin.width
    original = np.array(img)  # the page as captured: looked at until every spot is chosen, then drawn on
    # lines grow with the device pixel ratio; badges keep their CSS px size at it and above, and shrink only so far
    ink = max(1.0, scale)
    font_size = round(FONT_SIZE * max(BADGE_MIN_SCALE, scale))
    pad = max(2, round(PAD * scale))
    stroke = max(1, round(STROKE * scale))
    elements = [
        Box(
            round((item["bounds"]["x"] - origin.x) * scale),
            round((item["bounds"]["y"] - origin.y) * scale),
            max(1, round(item["bounds"]["width"] * scale)),
            max(1, round(item["bounds"]["height"] * scale)),
        )
        for item in annotations
    ]
    page = _Strokes(img, max(1, round(CLEARANCE * scale)))
    gap = round(GAP * scale)
    outlines = _outlines(page, elements, stroke, gap, max(gap, round(OUTLINE_REACH * scale)))
    field = _Field(original, elements, outlines, scale)
    placed: list[Badge] = []
    for index, item in enumerate(annotations):
        spot, displaced = field.place(index, _badge(str(item["label"]), font_size, pad, *ON_LIGHT).size)
        under = original[spot.y : spot.bottom, spot.x : spot.right]
        light = under.size == 0 or _relative_luminance(under).mean() > LIGHT_THRESHOLD
        fill, digits = ON_LIGHT if light else ON_DARK
        x0, y0, x1, y1 = (int(v) for v in outlines[index])
        leader = _leader(spot, Box(x0, y0, x1 - x0, y1 - y0)) if displaced else None
        if leader is not None and leader[:2] == leader[2:]:  # (a badge over its own element needs none)
            leader = None
        placed.append(Badge(item["label"], spot, fill, digits, leader))
    # every spot is chosen: the lines go on the page's own pixels, then the badges over them
    page.draw_boxes(original, outlines, stroke, [badge.fill for badge in placed])
    moved = [badge for badge in placed if badge.leader is not None]
    page.draw_lines(original, [b.leader for b in moved], [b.fill for b in moved], max(1, round(ink)))
    img = Image.fromarray(original)
    for badge in placed:
        img.paste(_badge(str(badge.label), font_size, pad, badge.fill, badge.digits), (badge.box.x, badge.box.y))
    return img, placed


@lru_cache(maxsize=1024)
def _badge(label: str, size: int, pad: int, fill: tuple, digits: tuple) -> Image.Image:
    """A badge as drawn: its digits on its fill, ``pad`` px around them (the same labels come back on every
    look: drawn once)."""
    font = _font(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(label))
    badge = Image.new("RGB", (right - left + 2 * pad, bottom - top + 2 * pad), fill)
    ImageDraw.Draw(badge).text((pad - left, pad - top), label, font=font, fill=digits)
    return badge


def _leader(spot: Box, outline: Box) -> tuple[int, int, int, int]:
    """From the badge's centre to the nearest point of the element's outline."""
    cx, cy = spot.x + spot.width // 2, spot.y + spot.height // 2
    tx = min(max(cx, outline.x), outline.right - 1)
    ty = min(max(cy, outline.y), outline.bottom - 1)
    return (cx, cy, tx, ty)


class _Strokes:
    """The page's strokes at full resolution, for the lines drawn on it: upright ones (a step in grey level
    along a row: stems of letters, vertical borders) and flat ones (a step down a column: bars, horizontal
    borders). A line drawn along a border hides nothing; one across text, or touching it, does."""

    def __init__(self, img: Image.Image, clearance: int) -> None:
        self.width, self.height = img.size
        self.clearance = clearance
        grey = np.asarray(img.convert("L"))  # 0-255: a step above EDGE_STEP / 4 is an edge, as on r+2g+b
        h, w = grey.shape
        # with a margin of nothing all around, to look near a line without checking for the picture's edges
        m = self.margin = clearance + 8
        self.upright = np.zeros((h + 2 * m, w + 2 * m), bool)  # the pixel after each step along a row
        self.flat = np.zeros((h + 2 * m, w + 2 * m), bool)  # the pixel after each step down a column
        # a band of rows at a time: several times faster than whole pictures, which overflow the CPU's cache
        band = np.empty((64, w), np.int16)
        for top in range(0, h, 64):
            bottom = min(top + 64, h)
            step = band[: bottom - top, : w - 1]
            np.subtract(grey[top:bottom, 1:], grey[top:bottom, :-1], out=step, dtype=np.int16)
            np.greater(np.abs(step, out=step), EDGE_STEP // 4, out=self.upright[m + top : m + bottom, m + 1 : m + w])
            first = max(top, 1)
            step = band[: bottom - first]
            np.subtract(grey[first:bottom], grey[first - 1 : bottom - 1], out=step, dtype=np.int16)
            np.greater(np.abs(step, out=step), EDGE_STEP // 4, out=self.flat[m + first : m + bottom, m : m + w])

    def crossing(self, flat: bool, at: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """How many strokes cross each of a set of lines: for flat ones (rows ``at[n, k]``, from ``start[n]`` to
        ``end[n]``) the upright strokes on them, for upright ones (columns) the flat strokes; none off the
        picture."""
        m = self.margin
        along_size, across_size = (self.width, self.height) if flat else (self.height, self.width)
        on = (at > -m) & (at < across_size + m)
        strokes, line = self._lines(flat, _clip(at, -m, across_size + m - 1))
        sums = np.cumsum(strokes, axis=1, dtype=np.int32)  # running sums along each line
        # a line from start to end counts what is left of end, less what is left of start (the margin has none)
        start = (_clip(start, 0, along_size) + (m - 1))[:, None]
        end = (_clip(end, 0, along_size) + (m - 1))[:, None]
        return np.where(on, sums[line, end] - sums[line, start], 0)

    def _lines(self, flat: bool, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The strokes across each of ``lines`` (rows of a flat line: its upright strokes; columns of an
        upright one: its flat strokes), one line of them per row, margin included, and which row holds each
        of ``lines`` (only the lines asked for are copied)."""
        lines = lines + self.margin
        asked = np.zeros(self.upright.shape[0] if flat else self.upright.shape[1], bool)
        asked[lines] = True
        needed = np.flatnonzero(asked)
        which = np.zeros(len(asked), np.int64)
        which[needed] = np.arange(len(needed))
        strokes = self.upright[needed] if flat else self.flat[:, needed].T
        return strokes, which[lines]

    def _near(self, flat: bool, at: np.ndarray, along: np.ndarray, stroke: int) -> np.ndarray:
        """Whether a line ``stroke`` px wide would cross, or come within ``clearance`` px of, a glyph at each
        of its pixels (first row or column ``at``, position ``along`` the line): for a flat line an upright
        stroke that near above or below it, for an upright line a flat stroke that near left or right of it;
        beside the pixel, or a pixel along the line from it (a step lies between the pixel it is marked on
        and the one before)."""
        c, m = self.clearance, self.margin
        # (the line's pixels are on the picture, its rows or columns at most stroke - 1 off it: in the margin)
        offsets = range(-c, stroke + c)
        strokes, which = self._lines(flat, np.stack([at + d for d in offsets]))
        spread = strokes.copy()  # each stroke also counts at the pixel before it and the two after it
        spread[:, 1:] |= strokes[:, :-1]
        spread[:, :-1] |= strokes[:, 1:]
        spread[:, :-2] |= strokes[:, 2:]
        near = np.zeros(len(at), bool)
        along = along + m
        for k in range(len(offsets)):
            near |= spread[which[k], along]
        return near

    def draw_boxes(self, canvas: np.ndarray, outlines: np.ndarray, stroke: int, fills: list) -> None:
        """Each outline (x0, y0, x1, y1, its stroke inside) in its fill, broken where a glyph comes within
        ``clearance`` px of it: a flat side where upright strokes are, an upright side where flat ones are
        (so a side drawn along a border stays whole)."""
        if not len(outlines):
            return
        x0, y0, x1, y1 = (outlines[:, k] for k in range(4))
        twice = np.concatenate([fills, fills]).astype(np.uint8)
        # the top and bottom sides, then the left and right ones: (first row or column, from, to)
        self._paint(canvas, True, np.concatenate([y0, y1 - stroke]), np.tile(x0, 2), np.tile(x1, 2), twice, stroke)
        self._paint(canvas, False, np.concatenate([x0, x1 - stroke]), np.tile(y0, 2), np.tile(y1, 2), twice, stroke)

    def _paint(self, canvas, flat, at, start, end, colours, stroke) -> None:
        """Lines ``stroke`` px wide, flat ones along rows ``at`` (or upright ones along columns ``at``) from
        ``start`` to ``end``, each in its colour, but where a glyph is near."""
        along_size, across_size = (self.width, self.height) if flat else (self.height, self.width)
        start, end = np.maximum(start, 0), np.minimum(end, along_size)
        on = (end > start) & (at + stroke > 0) & (at < across_size)
        at, start, end, colours = at[on], start[on], end[on], colours[on]
        length = end - start
        line = np.repeat(np.arange(len(at)), length)
        along = start[line] + np.arange(int(length.sum())) - (np.cumsum(length) - length)[line]
        across = at[line]
        # (a line partly off the picture is judged by its first row, or column, on it)
        keep = ~self._near(flat, np.maximum(across, 0), along, stroke)
        self._put(canvas, flat, across[keep], along[keep], colours[line[keep]], stroke)

    def _put(self, canvas, flat, across, along, colour, width) -> None:
        across_size = self.height if flat else self.width
        for k in range(width):
            ok = (across + k >= 0) & (across + k < across_size)
            if flat:
                canvas[across[ok] + k, along[ok]] = colour[ok]
            else:
                canvas[along[ok], across[ok] + k] = colour[ok]

    def draw_lines(self, canvas: np.ndarray, lines: list, fills: list, width: int) -> None:
        """Leader lines (x0, y0, x1, y1), ``width`` px wide, each in its fill, broken where they would cross
        or touch a glyph as a box's side is (a slanting one, near strokes of either kind); one that runs near
        strokes nearly all its length (text it cannot avoid) is drawn whole."""
        if not lines:
            return
        points: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for n, (x0, y0, x1, y1) in enumerate(lines):
            count = max(abs(x1 - x0), abs(y1 - y0)) + 1
            along_x = np.rint(np.linspace(x0, x1, count)).astype(np.int64)
            points.append((along_x, np.rint(np.linspace(y0, y1, count)).astype(np.int64), np.full(count, n)))
        xs, ys, which = (np.concatenate(part) for part in zip(*points))
        on = (xs >= 0) & (xs < self.width) & (ys >= 0) & (ys < self.height)
        xs, ys, which = xs[on], ys[on], which[on]
        spans = np.array([(abs(x1 - x0), abs(y1 - y0)) for x0, y0, x1, y1 in lines])
        flat = (spans[:, 0] > 2 * spans[:, 1])[which]
        upright = (spans[:, 1] > 2 * spans[:, 0])[which]
        near = np.zeros(len(xs), bool)
        near[~upright] |= self._near(True, ys[~upright], xs[~upright], width)
        near[~flat] |= self._near(False, xs[~flat], ys[~flat], width)
        share = np.bincount(which, weights=near, minlength=len(lines)) / np.maximum(
            np.bincount(which, minlength=len(lines)), 1
        )
        keep = ~near | (share[which] > 0.85)
        colours = np.array(fills, np.uint8)[which[keep]]
        xs, ys = xs[keep] - width // 2, ys[keep] - width // 2
        for k in range(width):
            self._put(canvas, True, ys + k, xs, colours, 1)


def _outlines(page: _Strokes, elements: list[Box], stroke: int, gap: int, reach: int) -> np.ndarray:
    """Each element's box as drawn, (x0, y0, x1, y1) with its stroke inside: each side from 0 to ``reach``
    px out from the element's bounds, ``gap`` px when nothing is in the way, else where its stroke covers and
    touches the fewest text strokes (weighed 4 under it, 2 touching it, 1 a pixel further); never more than
    halfway to a neighbouring element."""
    n = len(elements)
    boxes = np.array([(b.x, b.y, b.right, b.bottom) for b in elements], np.int64).reshape(-1, 4)
    if n == 0:
        return boxes
    limits = _halfway(boxes, stroke, reach)
    x0, y0, x1, y1 = boxes.T
    # the rows (columns) at distance j out from a side: j = -2, -1 inside the element, 0 the first outside
    j = np.arange(-2, reach + stroke + 2)
    wide = reach + stroke
    ink = np.stack(
        [
            page.crossing(False, x0[:, None] - 1 - j, y0 - wide, y1 + wide),  # left
            page.crossing(True, y0[:, None] - 1 - j, x0 - wide, x1 + wide),  # top
            page.crossing(False, x1[:, None] + j, y0 - wide, y1 + wide),  # right
            page.crossing(True, y1[:, None] + j, x0 - wide, x1 + wide),  # bottom
        ],
        axis=1,
    )  # (element, side, j)
    d = np.arange(reach + 1)[:, None]
    weights = (
        4.0 * ((j >= d) & (j < d + stroke))
        + 2.0 * ((j == d - 1) | (j == d + stroke))
        + 1.0 * ((j == d - 2) | (j == d + stroke + 1))
    )
    cost = ink @ weights.T + 0.01 * np.abs(np.arange(reach + 1) - gap)  # (element, side, offset)
    cost = np.where(np.arange(reach + 1) > limits[:, :, None], np.inf, cost)
    out = np.argmin(cost, axis=2)
    return boxes + (out + stroke) * np.array([-1, -1, 1, 1])


def _halfway(boxes: np.ndarray, stroke: int, reach: int) -> np.ndarray:
    """How far out each side (left, top, right, bottom) of each box may go: ``reach``, or less than half the
    room to the next element on that side, so that the two boxes' lines stay apart (a pixel at least, when
    there is room for it)."""
    out = np.full((len(boxes), 4), reach, np.int64)
    if len(boxes) < 2 or reach == 0:
        return out
    x0, y0, x1, y1 = boxes.T
    holds = (
        (x0[:, None] <= x0[None, :])
        & (y0[:, None] <= y0[None, :])
        & (x1[:, None] >= x1[None, :])
        & (y1[:, None] >= y1[None, :])
    )
    apart = ~(holds | holds.T)  # an element around another (a list around its items) does not count
    near = reach + stroke
    side_by_side = apart & (y0[None, :] < y1[:, None] + near) & (y0[:, None] < y1[None, :] + near)
    stacked = apart & (x0[None, :] < x1[:, None] + near) & (x0[:, None] < x1[None, :] + near)
    for side, room, facing in (
        (0, x0[:, None] - x1[None, :], side_by_side),  # left: from the other's right to this one's left
        (1, y0[:, None] - y1[None, :], stacked),  # top
        (2, x0[None, :] - x1[:, None], side_by_side),  # right
        (3, y0[None, :] - y1[:, None], stacked),  # bottom
    ):
        ahead = facing & (room >= 0)
        np.fill_diagonal(ahead, False)
        nearest = np.where(ahead, room, 1 << 30).min(axis=1)
        out[:, side] = _clip((nearest - 2 * stroke - 1) // 2, 0, reach)  # (a pixel between the two lines)
    return out


def _summed(a: np.ndarray) -> np.ndarray:
    """The summed-area table of ``a``: t[i, j] = a[:i, :j].sum()."""
    t = np.zeros((a.shape[0] + 1, a.shape[1] + 1), np.int32)
    t[1:, 1:] = a
    np.cumsum(t, axis=1, out=t)
    across = np.ascontiguousarray(t.T)  # a cumulative sum down the columns is much faster along rows
    np.cumsum(across, axis=1, out=across)
    return across.T


def _clip(a, low, high):
    """np.clip for int arrays, without its overhead (it dominates on small arrays)."""
    return np.minimum(np.maximum(a, low), high)


def _sum(t: np.ndarray, r0: int, r1: int, c0: int, c1: int) -> int:
    """The sum of a summed-area table's cells [r0, r1) x [c0, c1), clipped to it (none when reversed)."""
    top_r, top_c = t.shape[0] - 1, t.shape[1] - 1
    r0, c0 = min(max(r0, 0), top_r), min(max(c0, 0), top_c)
    r1, c1 = max(min(max(r1, 0), top_r), r0), max(min(max(c1, 0), top_c), c0)
    item = t.item
    return item(r1, c1) - item(r0, c1) - item(r1, c0) + item(r0, c0)


class _Field:
    """What is already on the screenshot: the elements' boxes, the page's edges
    (text, icons, borders) and the badges placed so far, and where a new badge
    hides the least of it."""

    def __init__(self, original: np.ndarray, elements: list[Box], outlines: np.ndarray, scale: float) -> None:
        self.height, self.width = original.shape[:2]
        self.scale = scale
        # Edges on a grid of about 2 CSS px: cheap (a few ms for 1280x720), and text,
        # whose strokes are 1-2 px, still shows as many of them.
        self.grid = grid = 2 * max(1, round(scale))
        sample = original[::grid, ::grid]
        grey = sample[..., 1].astype(np.int16) * 2 + sample[..., 0] + sample[..., 2]
        upright = np.zeros(grey.shape, bool)  # steps along a row: stems, vertical borders
        upright[:, 1:] = np.abs(np.diff(grey, axis=1)) > EDGE_STEP
        flat = np.zeros(grey.shape, bool)  # steps down a column: bars, horizontal borders
        flat[1:, :] = np.abs(np.diff(grey, axis=0)) > EDGE_STEP
        # summed-area tables: all edges, and each kind for what touches a spot from outside
        self.edges = _summed(upright | flat)
        self.upright = _summed(upright)
        self.flat = _summed(flat)
        self.boxes = np.array([(b.x, b.y, b.right, b.bottom) for b in elements], np.int64).reshape(-1, 4)
        # each element's box as drawn: content other badges keep clear of
        self.content = outlines.reshape(-1, 4)
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
        # spots go around the element's box as drawn, and its own corners inside the element
        x0, y0, x1, y1 = (int(v) for v in self.content[index])
        quick = self._next_to(index, x0, y0, x1, y1, w, h)
        if quick is not None:
            return self._take(quick[0], quick[1], w, h), False
        # every spot within reach: ranked by what it hides, then by distance
        to_x, to_y, ring, inside, tier, order = _within_reach()
        step = max(1, round(STEP * self.scale))
        terms = np.array([x0, x1, (x0 + x1) / 2, y0, y1, w, h, step, self.grid])
        xs = np.rint(to_x @ terms).astype(np.int64)
        ys = np.rint(to_y @ terms).astype(np.int64)
        e0, f0, e1, f1 = (int(v) for v in self.boxes[index])
        terms = np.array([e0, e1, (e0 + e1) / 2, f0, f1, w, h, step, self.grid])
        xs = np.where(inside, np.rint(to_x @ terms).astype(np.int64), xs)
        ys = np.where(inside, np.rint(to_y @ terms).astype(np.int64), ys)
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
            if any(
                x <= q[2] and q[0] <= r and y <= q[3] and q[1] <= bt for c in cells for q in self.badge_cells.get(c, ())
            ):
                continue
            if self._touching(x, y, r, bt) <= TOUCHING_EDGES:
                return x, y
        return None

    def _touching(self, x: int, y: int, r: int, bt: int) -> int:
        """The text touching the spot (x, y)-(r, bt) from outside: upright strokes in the grid cells along its
        top and bottom, flat ones along its sides (a border running along it is neither)."""
        g, up, fl = self.grid, self.upright, self.flat
        gx0, gy0 = x // g + 1, y // g + 1
        gx1, gy1 = max(r // g - 1, gx0), max(bt // g - 1, gy0)
        return (
            _sum(up, y // g - 1, gy0, gx0, gx1)
            + _sum(up, gy1, bt // g + 2, gx0, gx1)
            + _sum(fl, gy0, gy1, x // g - 1, gx0)
            + _sum(fl, gy0, gy1, gx1, r // g + 2)
        )

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
        # and the text touching it from outside (as _touching): the cells above and below, before and after it
        up, fl = self.upright, self.flat
        above = np.minimum(np.maximum(ys // g - 1, 0), top_y)
        below = np.minimum(np.maximum(bottom // g + 2, 0), top_y)
        before = np.minimum(np.maximum(xs // g - 1, 0), top_x)
        after = np.minimum(np.maximum(right // g + 2, 0), top_x)
        touching = (
            (up[gy0, gx1] - up[above, gx1] - up[gy0, gx0] + up[above, gx0])
            + (up[below, gx1] - up[gy1, gx1] - up[below, gx0] + up[gy1, gx0])
            + (fl[gy1, gx0] - fl[gy0, gx0] - fl[gy1, before] + fl[gy0, before])
            + (fl[gy1, after] - fl[gy0, after] - fl[gy1, gx1] + fl[gy0, gx1])
        )
        plain = (busy <= BUSY_EDGES) & (touching <= TOUCHING_EDGES)
        busy = busy + touching
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
