"""How legible a picture of a page stays: the words OCR reads from it, against those it reads from the
full-size screenshot of the same page.

    from legibility import legibility, words
    share = legibility(full_png_bytes, look_jpeg_bytes)  # 0.0-1.0
    counted = words(png_bytes)                            # Counter of the words tesseract reads

OCR is the tesseract CLI (Debian's ``tesseract-ocr``, English) through ``subprocess``: no Python package. It runs
with ``OMP_THREAD_LIMIT=1`` (deterministic, one core on a shared machine). Tesseract's ``tsv`` output gives each
word's confidence; words below ``MIN_CONFIDENCE`` (60) are discarded. A kept word is lower-cased and split at
every character that is not a letter or digit ("e-mail" and "1,229" give two tokens each; the "|" tesseract reads
for a box's edge goes away), and tokens shorter than ``MIN_LENGTH`` (2) are dropped: single characters are mostly
icons, bullets and noise.

Preprocessing (``prepare``), the same for every image compared: decoded, flattened on white, grey levels,
resized with Lanczos to one width, ``OCR_SCALE`` (2) times the full-size screenshot's width (2,560 px for a
1280 px tab; a 640 px look is enlarged 4x, the full one 2x), aspect kept, then sharpened (unsharp mask, radius 2,
150 %). Why enlarge: tesseract's LSTM reads poorly below about 20 px of text height, and a screenshot's UI text is
11-16 px at full size, 5-8 px in a 640 px look. Read as they are, OCR would lose words at every size, full size
too, for a reason of its own; a vision model has no such floor, and it is the model's reading we estimate. Both
images at one width also make the comparison about the pixels a picture kept, not the size tesseract is handed:
Lanczos invents no detail, so what shrinking lost stays lost. Why sharpen: text shrunk and enlarged again is soft,
and tesseract's binarization then merges letters; on a plain (badge-free) 640 px copy of a dense admin page the
unsharp mask took the share of words read from 16 % to 51 % (and at 960, 72 % to 97 %), while it changes little
at full size.

Two readings:

- ``words``: the whole image in one pass, ``--psm 11`` (sparse text: a UI is scattered labels, and the default
  page-layout analysis drops isolated words). This is the plain "what does OCR read in this picture".
- ``legibility`` reads line by line. Tesseract is far more fragile than a vision model in two ways that would
  make it measure itself rather than the picture: a box drawn tightly around a word (an annotation's outline, or
  an input's border) makes it skip the word altogether, and JPEG ringing over a textured background turns into
  specks that break its page segmentation. On a badge-free-to-the-eye sign-up form (Fluent UI), whole-image OCR
  of today's 1280 px look kept 6 of 14 words; a person, or a model, reads all 14. So ``legibility`` takes the
  text lines tesseract finds in the full-size screenshot (``--psm 11``, words kept as above; a line's box is the
  union of its kept words' boxes), and from each image compared crops those same boxes (with a margin of a
  quarter of the line's height, at least 6 px), normalises each crop (dark background inverted, contrast
  stretched, Otsu threshold), erases straight strokes from it (ink runs at least twice the crop's height long
  horizontally, or 85 % of its height vertically: box edges, underlines, input borders; letters are shorter,
  thanks to the margin), stacks the crops one under another on white, and reads the stack in one pass
  (``--psm 6``). A line's words in the look are compared with the same line's words in the full screenshot.
  What this still counts as lost: text the picture no longer resolves, and text an annotation badge covers
  (badges are opaque and keep their size on a smaller picture, so they cover more of the page there).

Either way, the share is over the full screenshot's words as a multiset (a word shown three times counts three
times): sum of min(count in full, count in look) / count in full; per line for ``legibility``. Words the look adds
(the badges' numbers, OCR noise) cost nothing; a badge number that equals a number on the page can stand in for
it, a small overcount.
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from collections import Counter
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter, ImageOps, ImageStat

#: the width OCR reads every image at, as a multiple of the full-size screenshot's width
OCR_SCALE = 2
#: the unsharp mask applied after enlarging (radius, percent, threshold)
SHARPEN = (2, 150, 0)
#: tesseract's confidence (0-100) below which a word is not counted
MIN_CONFIDENCE = 60
#: tokens shorter than this are not counted
MIN_LENGTH = 2
#: whole image: sparse text, find as much text as possible in no particular order
SPARSE = "11"
#: the stack of line crops: one uniform block of text
BLOCK = "6"
#: a line crop's margin: this share of the line's height, at least LINE_MARGIN_MIN px (in the enlarged image)
LINE_MARGIN = 0.25
LINE_MARGIN_MIN = 6
#: the white between two crops in the stack (px)
STACK_GAP = 24
TOKEN = re.compile(r"[^\W_]+")
#: what the readings depend on, for a caller's cache key
VERSION = f"scale{OCR_SCALE}-sharpen{SHARPEN}-conf{MIN_CONFIDENCE}-psm{SPARSE}/{BLOCK}-margin{LINE_MARGIN}-v1"


def width_of(image_bytes: bytes) -> int:
    with Image.open(io.BytesIO(image_bytes)) as opened:  # reads the header only
        return opened.width


def prepare(image_bytes: bytes, width: int) -> Image.Image:
    """The image as OCR reads it: flattened on white, grey, Lanczos-resized to ``width`` (aspect kept), sharpened."""
    with Image.open(io.BytesIO(image_bytes)) as opened:
        img = opened.convert("RGBA")
    flat = Image.new("RGB", img.size, (255, 255, 255))
    flat.paste(img, mask=img.getchannel("A"))
    grey = flat.convert("L")
    if width != grey.width:
        grey = grey.resize((width, max(1, round(grey.height * width / grey.width))), Image.Resampling.LANCZOS)
    return grey.filter(ImageFilter.UnsharpMask(*SHARPEN))


def tesseract(img: Image.Image, psm: str) -> list[dict[str, str]]:
    """tesseract's tsv rows for an image."""
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    done = subprocess.run(
        ["tesseract", "stdin", "stdout", "-l", "eng", "--psm", psm, "tsv"],
        input=out.getvalue(),
        capture_output=True,
        env=dict(os.environ, OMP_THREAD_LIMIT="1"),
        check=False,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"tesseract failed ({done.returncode}): {done.stderr.decode(errors='replace')[:500]}")
    text = done.stdout.decode("utf-8", errors="replace")
    return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def tokens(text: str) -> list[str]:
    """The counted tokens of one word tesseract read."""
    return [token for token in TOKEN.findall(text.lower()) if len(token) >= MIN_LENGTH]


def kept(rows: list[dict[str, str]]) -> list[tuple[dict[str, str], list[str]]]:
    """The word rows confident enough, each with its tokens (rows with none left out)."""
    found = []
    for row in rows:
        if row.get("level") != "5":
            continue
        try:
            confidence = float(row.get("conf") or -1)
        except ValueError:
            continue
        counted = tokens(row.get("text") or "")
        if confidence >= MIN_CONFIDENCE and counted:
            found.append((row, counted))
    return found


def words(image_bytes: bytes, width: int | None = None) -> Counter[str]:
    """The words tesseract recovers from an image (PNG, JPEG, WebP...) in one pass over the whole of it, read at
    ``width`` pixels wide (None: ``OCR_SCALE`` times the image's own width). To compare two images, read both at
    the same width."""
    img = prepare(image_bytes, width or width_of(image_bytes) * OCR_SCALE)
    return Counter(token for _, counted in kept(tesseract(img, SPARSE)) for token in counted)


def share(full: Counter[str], look: Counter[str]) -> float:
    """The share of ``full``'s words (as a multiset) that ``look`` has too; 1.0 when ``full`` has none."""
    total = sum(full.values())
    return sum((full & look).values()) / total if total else 1.0


# -- line by line ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A text line's box in the enlarged image (px)."""

    left: int
    top: int
    right: int
    bottom: int


def _otsu(grey: np.ndarray) -> int:
    hist = np.bincount(grey.ravel(), minlength=256).astype(np.float64)
    p = hist / hist.sum()
    weight = np.cumsum(p)
    mean = np.cumsum(p * np.arange(256))
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mean[-1] * weight - mean) ** 2 / (weight * (1 - weight))
    return int(np.nanargmax(between)) if np.isfinite(between).any() else 127


def _long_runs(ink: np.ndarray, length: int) -> np.ndarray:
    """The ink pixels in runs along each row of at least ``length``."""
    out = np.zeros_like(ink)
    for i, row in enumerate(ink):
        if not row.any():
            continue
        edges = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
        for start, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
            if end - start >= length:
                out[i, start:end] = True
    return out


def clean(crop: Image.Image) -> Image.Image:
    """A line crop made plain for tesseract: dark text on white, black and white, straight strokes erased."""
    if ImageStat.Stat(crop).mean[0] < 128:
        crop = ImageOps.invert(crop)
    grey = np.asarray(ImageOps.autocontrast(crop), dtype=np.uint8)
    ink = grey <= _otsu(grey)
    height = ink.shape[0]
    strokes = _long_runs(ink, max(40, 2 * height)) | _long_runs(ink.T, max(8, int(0.85 * height))).T
    return Image.fromarray(np.where(ink & ~strokes, 0, 255).astype(np.uint8))


def lines_of(rows: list[dict[str, str]]) -> list[Line]:
    """The text lines of tesseract's rows for the (prepared) full screenshot: each the union of its kept words'
    boxes."""
    boxes: dict[tuple[str, str, str], Line] = {}
    for row, _ in kept(rows):
        key = (row["block_num"], row["par_num"], row["line_num"])
        left, top = int(row["left"]), int(row["top"])
        right, bottom = left + int(row["width"]), top + int(row["height"])
        if key in boxes:
            box = boxes[key]
            left, top = min(left, box.left), min(top, box.top)
            right, bottom = max(right, box.right), max(bottom, box.bottom)
        boxes[key] = Line(left, top, right, bottom)
    return sorted(boxes.values(), key=lambda line: (line.top, line.left))


def line_words(img: Image.Image, lines: list[Line]) -> list[Counter[str]]:
    """The words read in each line's box of a prepared image: the crops, cleaned, stacked, read in one pass."""
    if not lines:
        return []
    crops = []
    for line in lines:
        margin = max(LINE_MARGIN_MIN, round(LINE_MARGIN * (line.bottom - line.top)))
        box = (
            max(0, line.left - margin),
            max(0, line.top - margin),
            min(img.width, line.right + margin),
            min(img.height, line.bottom + margin),
        )
        crops.append(clean(img.crop(box)))
    canvas = Image.new(
        "L", (max(c.width for c in crops) + 2 * STACK_GAP, sum(c.height + STACK_GAP for c in crops) + STACK_GAP), 255
    )
    spans, y = [], STACK_GAP
    for crop in crops:
        canvas.paste(crop, (STACK_GAP, y))
        spans.append((y - STACK_GAP // 2, y + crop.height + STACK_GAP // 2))
        y += crop.height + STACK_GAP
    found = [Counter() for _ in lines]
    for row, counted in kept(tesseract(canvas, BLOCK)):
        middle = int(row["top"]) + int(row["height"]) / 2
        for index, (top, bottom) in enumerate(spans):
            if top <= middle < bottom:
                found[index].update(counted)
                break
    return found


class Reference:
    """A full-size screenshot read once (its words, its lines and their words), to measure any number of looks
    against. ``dump``/``load`` keep a reading (a cache), keyed by the caller."""

    def __init__(self, width: int, whole: Counter[str], lines: list[Line], words: list[Counter[str]]) -> None:
        self.width = width
        self.whole = whole
        self.lines = lines
        self.words = words
        self.total = sum(sum(counted.values()) for counted in words)

    @classmethod
    def read(cls, full_image_bytes: bytes) -> Reference:
        width = width_of(full_image_bytes) * OCR_SCALE
        full = prepare(full_image_bytes, width)
        rows = tesseract(full, SPARSE)
        lines = lines_of(rows)
        whole = Counter(token for _, counted in kept(rows) for token in counted)
        return cls(width, whole, lines, line_words(full, lines))

    def dump(self) -> dict:
        return {
            "width": self.width,
            "whole": dict(self.whole),
            "lines": [[line.left, line.top, line.right, line.bottom] for line in self.lines],
            "words": [dict(counted) for counted in self.words],
        }

    @classmethod
    def load(cls, kept_reading: dict) -> Reference:
        return cls(
            kept_reading["width"],
            Counter(kept_reading["whole"]),
            [Line(*box) for box in kept_reading["lines"]],
            [Counter(counted) for counted in kept_reading["words"]],
        )

    def recovered(self, look_image_bytes: bytes) -> tuple[int, Counter[str]]:
        """How many of the reference's words the look keeps (line by line), and the words it lost."""
        look = line_words(prepare(look_image_bytes, self.width), self.lines)
        hits = sum(sum((full & seen).values()) for full, seen in zip(self.words, look))
        lost: Counter[str] = Counter()
        for full, seen in zip(self.words, look):
            lost.update(full - seen)
        return hits, lost

    def legibility(self, look_image_bytes: bytes) -> float:
        return self.recovered(look_image_bytes)[0] / self.total if self.total else 1.0

    def whole_legibility(self, look_image_bytes: bytes) -> float:
        """The share of the whole-image reading's words that a whole-image reading of the look recovers."""
        return share(self.whole, words(look_image_bytes, self.width))


def legibility(full_image_bytes: bytes, look_image_bytes: bytes) -> float:
    """The share of the full-size screenshot's words that OCR also recovers from the look's image, line by line
    (see the module's docstring), both read at ``OCR_SCALE`` times the full screenshot's width."""
    return Reference.read(full_image_bytes).legibility(look_image_bytes)


def whole_legibility(full_image_bytes: bytes, look_image_bytes: bytes) -> float:
    """The same share from one whole-image pass over each (``words``): harsher, since tesseract loses boxed words."""
    width = width_of(full_image_bytes) * OCR_SCALE
    return share(words(full_image_bytes, width), words(look_image_bytes, width))
