"""Answers of bounded size: what comes from a page is cut short, visibly, with its original length.

A page decides the length of its title, its texts, its URLs and what a
script returns; an answer must not grow with them. ``cap`` cuts one string
and says so (``… [truncated: 5242880 chars]``); ``fit`` shrinks a whole JSON
value to a character budget: its longest strings and lists first, each cut
marked, keys and structure kept, so the answer stays valid JSON that the
agent can read and ask again about (a narrower selector, a smaller
``limit``, a larger budget with ``configure``).
"""

from __future__ import annotations

import json
import re
from typing import Any

#: the default budget of one answer's text, in characters (configure answers changes it per session)
ANSWER_CHARS = 100_000
#: no string or list is cut below this, however tight the budget
SHORTEST = 16
#: nesting deeper than this is cut (a page script can return anything)
DEEPEST = 64


#: the marker of an earlier cut (the extension cuts what it sends, too): its count is the original length
EARLIER_CUT = re.compile(r"… \[truncated: (\d+) chars\]$")


def cap(text: str, limit: int, original: int | None = None) -> str:
    """``text``, or its first ``limit`` characters and a marker with its full length (``original``: the length
    of the text ``text`` is the start of, when it is one)."""
    if len(text) <= limit:
        return text
    earlier = EARLIER_CUT.search(text)
    original = original or (int(earlier.group(1)) if earlier else len(text))
    return f"{text[:limit]}… [truncated: {original} chars]"


def size(value: Any) -> int:
    """Characters of the value as an answer carries it (compact JSON; a string as it is)."""
    return len(value) if isinstance(value, str) else len(dumps(value))


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def fit(value: Any, limit: int) -> Any:
    """``value`` itself when its answer is within ``limit`` characters; else a copy whose strings and lists are
    cut, longest first, until it is."""
    if size(value) <= limit:
        return value
    longest = max(limit, SHORTEST)
    while True:
        longest = max(SHORTEST, longest // 2)
        shrunk = _shrink(value, longest, 0)
        if size(shrunk) <= limit or longest == SHORTEST:
            return shrunk if size(shrunk) <= limit else cap(dumps(shrunk), max(limit - 40, SHORTEST))


def _shrink(value: Any, longest: int, depth: int) -> Any:
    if isinstance(value, str):
        return cap(value, longest)
    if depth >= DEEPEST and isinstance(value, (dict, list)):
        return "… [truncated: nested too deep]"
    if isinstance(value, dict):
        return {key: _shrink(item, longest, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        kept = [_shrink(item, longest, depth + 1) for item in value[:longest]]
        if len(value) > longest:
            kept.append(f"… [truncated: {len(value)} items]")
        return kept
    return value


#: fields that come from a page, wherever they appear in an answer, and the most of each an answer carries
PAGE_FIELDS = {
    "title": 1_000,
    "url": 4_096,
    "name": 1_000,
    "text": 2_000,
    "message": 4_000,
    "stack": 8_000,
    "detail": 4_000,
    "default_prompt": 1_000,
}


def cap_fields(value: Any, depth: int = 0) -> Any:
    """``value`` with every PAGE_FIELDS string cut to its cap (marked), at any depth."""
    if depth >= DEEPEST:
        return value
    if isinstance(value, dict):
        return {
            key: cap(item, PAGE_FIELDS[key])
            if key in PAGE_FIELDS and isinstance(item, str)
            else cap_fields(item, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [cap_fields(item, depth + 1) for item in value]
    return value
