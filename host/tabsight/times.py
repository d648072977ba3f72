"""Times as an agent reads them: ISO 8601 in the host's local time with its offset, made here only.

A wall-clock time without a date or a zone ("until 16:40:52") leaves an agent
guessing which day and which zone; ``2026-11-27T16:40:52+01:00`` says both, in
the user's own time. Numbers documented as epoch milliseconds (a screenshot's
``timestamp``, BrowserLoop's) stay numbers.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal


def wall_time(seconds: float, timespec: Literal["seconds", "milliseconds"] = "seconds") -> str:
    """``seconds`` since the epoch as ISO 8601 in the local time zone, with its offset:
    ``2026-11-27T16:40:52+01:00`` (``timespec="milliseconds"``: ``...16:40:52.123+01:00``)."""
    return datetime.fromtimestamp(seconds, timezone.utc).astimezone().isoformat(timespec=timespec)
