"""What text and images cost an agent, in tokens, as the issue on tokens measures it.

Text: the worse of characters / 4 and a real tokenizer's count (the larger of Anthropic's
``@anthropic-ai/tokenizer`` and OpenAI's o200k from ``js-tiktoken``), so that cryptic keys,
numbers and punctuation win nothing. Images: width x height / 750 after the client's downscaling,
Claude's rule by default (at most 1568 px on the long side and 1.15 megapixels).

The tokenizers are npm packages (bench/peers/install.sh), run in one node process for all the
texts of a call (``count``), so a benchmark pays node's start once per batch.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

PEERS = Path(__file__).resolve().parent / "peers" / "node_modules"
#: reads a JSON list of texts on stdin, prints the list of [anthropic, o200k] counts
_COUNTER = """
const {countTokens} = require('@anthropic-ai/tokenizer');
const {getEncoding} = require('js-tiktoken');
const o200k = getEncoding('o200k_base');
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(texts.map((t) => [countTokens(t), o200k.encode(t).length])));
"""
#: Claude's image input: the long side at most this, and at most this many pixels, after downscaling
CLAUDE_LONG_SIDE = 1568
CLAUDE_PIXELS = 1_150_000


class TokenizerMissing(RuntimeError):
    pass


def count(texts: list[str]) -> list[int]:
    """Each text's tokens: the worse of characters / 4 and the tokenizers' larger count."""
    if not texts:
        return []
    if not (PEERS / "@anthropic-ai" / "tokenizer").is_dir():
        raise TokenizerMissing(f"no tokenizers in {PEERS}: run bench/peers/install.sh")
    done = subprocess.run(
        ["node", "-e", _COUNTER],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
        cwd=PEERS.parent,
    )
    counted = json.loads(done.stdout)
    return [max(math.ceil(len(text) / 4), *pair) for text, pair in zip(texts, counted, strict=True)]


def text_tokens(text: str) -> int:
    return count([text])[0]


def kept_size(width: int, height: int) -> tuple[int, int]:
    """The size Claude keeps of an image: downscaled (aspect kept) to its long side and pixel limits."""
    scale = min(1.0, CLAUDE_LONG_SIDE / max(width, height), math.sqrt(CLAUDE_PIXELS / (width * height)))
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


def image_tokens(width: int, height: int) -> int:
    kept_width, kept_height = kept_size(width, height)
    return math.ceil(kept_width * kept_height / 750)
