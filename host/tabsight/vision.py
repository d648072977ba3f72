"""What each MCP client keeps of an image, and the size of the default look's picture.

A client passes a tool's image to its model, which downsizes what is larger than it takes: pixels past that
are bytes sent for nothing. So the picture of a look is never larger than the client keeps (``VISION``: a row
per client, found by the name in ``initialize``'s ``clientInfo``; ``DEFAULT`` for the others), and by default
no larger than ``LOOK_TOKENS`` (Claude's rule: width x height / 750) nor than ``LOOK_SCALE``: legible
(bench/legibility_bench.py: OCR reads 90 % of the words of a full-size screenshot in it), and three quarters
of a 1280x720 screenshot's 1,229 tokens. The default look pictures only the part of the viewport with content
(``annotate.content_region``), so a sparse page's picture costs less, down to LOOK_SCALE: past it, pixels buy
little legibility (badges and boxes, not the size, hide what is lost there). ``max_width`` and ``max_height``
given in a call decide instead, within what the client keeps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Vision:
    """The largest image a client's model keeps: a bounding box (long side x short side) and an area."""

    client: str
    long_side: int
    short_side: int
    pixels: int
    #: where the figure comes from
    source: str

    def kept(self, width: int, height: int) -> tuple[int, int]:
        """The size the model keeps of a ``width`` x ``height`` image (aspect kept, never enlarged)."""
        long, short = max(width, height), min(width, height)
        scale = min(1.0, self.long_side / long, self.short_side / short, math.sqrt(self.pixels / (width * height)))
        return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


#: Anthropic's API: at most 1568 px on the long side and about 1.15 megapixels (docs/design.md §1)
CLAUDE = Vision("Claude Code", 1568, 1568, 1_150_000, "Anthropic's vision documentation")
VS_CODE = Vision("VS Code", 1568, 768, 1_150_000, "OpenAI's high detail and Claude's rule")
#: the clients by a word of their clientInfo name (lower case), first match wins
VISION: tuple[tuple[str, Vision], ...] = (
    ("claude", CLAUDE),
    # Codex CLI resizes every image to fit 2048 x 768 before its model sees it (codex-rs/utils/image)
    ("codex", Vision("Codex", 2048, 768, 2048 * 768, "codex-rs/utils/image: MAX_WIDTH 2048, MAX_HEIGHT 768")),
    # Gemini reads an image in 768 x 768 tiles (258 tokens each), up to 3072 px a side
    ("gemini", Vision("Gemini CLI", 3072, 3072, 3072 * 3072, "Gemini API token docs: 768 px tiles")),
    # Cursor (its clientInfo: cursor-vscode) passes images to the model the user chose: Claude's rule, the
    # strictest of its usual ones
    ("cursor", Vision("Cursor", 1568, 1568, 1_150_000, "its models' rules; Claude's is the strictest")),
    # VS Code's Copilot: OpenAI's high detail (a 2048 box, then 768 on the short side) for its OpenAI models;
    # its Claude models keep less on the long side (Claude's rule): the smaller of the two
    ("visual studio code", VS_CODE),
    ("vscode", VS_CODE),
)
#: a client not in the table: Claude's rule, which also keeps less than most others
DEFAULT = Vision("other clients", CLAUDE.long_side, CLAUDE.short_side, CLAUDE.pixels, "Claude's rule")
#: the default look's picture, in Claude's tokens (width x height / 750)
LOOK_TOKENS = 900
#: the default look's largest scale, for a small capture or region (a form in an empty page)
LOOK_SCALE = 0.9
PIXELS_PER_TOKEN = 750


def of_client(name: str) -> Vision:
    """The row of the client called ``name`` (clientInfo's name or title), or DEFAULT."""
    lowered = name.lower()
    return next((vision for word, vision in VISION if word in lowered), DEFAULT)


def look_size(
    width: int, height: int, vision: Vision, max_width: int | None = None, max_height: int | None = None
) -> tuple[int, int]:
    """The size of a look's picture of a ``width`` x ``height`` capture (or region of it): ``max_width`` and
    ``max_height`` when given, else at most LOOK_TOKENS and LOOK_SCALE; never more than the client keeps; never
    enlarged."""
    if max_width or max_height:
        scale = min(1.0, (max_width or width) / width, (max_height or height) / height)
        return vision.kept(max(1, round(width * scale)), max(1, round(height * scale)))
    scale = min(LOOK_SCALE, math.sqrt(LOOK_TOKENS * PIXELS_PER_TOKEN / (width * height)))
    # rounded down: within the budget
    return vision.kept(max(1, math.floor(width * scale)), max(1, math.floor(height * scale)))
