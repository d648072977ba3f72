"""Visual diff of two screenshots (numpy): what changed, where, and how much.

A pixel has changed when one of its channels differs by more than
THRESHOLD (JPEG noise stays below it). Changed pixels are grouped into
regions on a grid of CELL x CELL pixel cells: touching cells form one
region, reported as its bounding box.

Images of different sizes are compared over their common area, top-left
aligned, and only there: the viewport changed size between the two (the
browser's "started debugging" bar takes 56 px off it while it shows, a window
was resized), which moves no content at the top and left, so the strip one
image has and the other has not is no change of the page. The picture shows
that strip hatched, and ``compared_size`` says what was compared.
"""

from __future__ import annotations

import io
from collections import deque
from dataclasses import dataclass
from typing import cast

import numpy as np
from PIL import Image, ImageDraw

THRESHOLD = 24
CELL = 8
CHANGED = (255, 0, 64)
NOT_COMPARED = (96, 96, 96)


@dataclass
class Diff:
    image: Image.Image
    percent_changed: float
    regions: list[dict[str, int]]
    baseline_size: tuple[int, int]
    current_size: tuple[int, int]
    #: the common area that was compared (width, height); the same as both sizes when they agree
    compared_size: tuple[int, int]


def compare(baseline: bytes, current: bytes) -> Diff:
    before = _rgb(baseline)
    after = _rgb(current)
    common_h, common_w = min(before.shape[0], after.shape[0]), min(before.shape[1], after.shape[1])
    delta = np.abs(before[:common_h, :common_w].astype(np.int16) - after[:common_h, :common_w].astype(np.int16))
    changed = delta.max(axis=2) > THRESHOLD
    regions = _regions(changed)
    return Diff(
        image=_picture(after, changed, regions),
        percent_changed=round(float(changed.mean()) * 100, 3),
        regions=regions,
        baseline_size=(before.shape[1], before.shape[0]),
        current_size=(after.shape[1], after.shape[0]),
        compared_size=(common_w, common_h),
    )


def _rgb(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as img:
        return np.asarray(img.convert("RGB"))


def _regions(changed: np.ndarray) -> list[dict[str, int]]:
    """Bounding boxes of groups of touching changed cells, largest first."""
    height, width = changed.shape
    rows, cols = -(-height // CELL), -(-width // CELL)
    padded = np.zeros((rows * CELL, cols * CELL), dtype=bool)
    padded[:height, :width] = changed
    # an array (numpy's stubs allow a scalar for any axis argument)
    cells = cast(np.ndarray, padded.reshape(rows, CELL, cols, CELL).any(axis=(1, 3)))
    seen = np.zeros_like(cells)
    regions = []
    for start in zip(*np.nonzero(cells)):
        if seen[start]:
            continue
        seen[start] = True
        queue = deque([start])
        top, left, bottom, right = start[0], start[1], start[0], start[1]
        while queue:
            r, c = queue.popleft()
            top, bottom, left, right = min(top, r), max(bottom, r), min(left, c), max(right, c)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    nr, nc = r + dr, c + dc
                    if 0 <= nr < rows and 0 <= nc < cols and cells[nr, nc] and not seen[nr, nc]:
                        seen[nr, nc] = True
                        queue.append((nr, nc))
        # the exact changed pixels inside the cells' box
        y0, x0 = top * CELL, left * CELL
        block = changed[y0 : (bottom + 1) * CELL, x0 : (right + 1) * CELL]
        ys, xs = np.nonzero(block)
        regions.append(
            {
                "x": int(x0 + xs.min()),
                "y": int(y0 + ys.min()),
                "width": int(xs.max() - xs.min() + 1),
                "height": int(ys.max() - ys.min() + 1),
            }
        )
    return sorted(regions, key=lambda r: r["width"] * r["height"], reverse=True)


def _picture(current: np.ndarray, changed: np.ndarray, regions: list[dict[str, int]]) -> Image.Image:
    """The current page faded to grey, changed pixels in red, each region boxed; what was not compared
    (the current image beyond the common area) hatched."""
    grey = (current.mean(axis=2) * 0.35 + 255 * 0.65).astype(np.uint8)
    out = np.repeat(grey[:, :, None], 3, axis=2)
    common_h, common_w = changed.shape
    beyond = np.ones(grey.shape, dtype=bool)
    beyond[:common_h, :common_w] = False
    ys, xs = np.indices(grey.shape)
    out[beyond & ((xs + ys) % 8 < 2)] = NOT_COMPARED
    out[:common_h, :common_w][changed] = CHANGED
    img = Image.fromarray(out)
    pen = ImageDraw.Draw(img)
    for r in regions:
        pen.rectangle(
            (r["x"] - 3, r["y"] - 3, r["x"] + r["width"] + 2, r["y"] + r["height"] + 2), outline=CHANGED, width=2
        )
    return img
