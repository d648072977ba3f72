"""screenshot_mode: when an answer ends with a fresh screenshot, without asking.

``configure({action:"capture", settings:{screenshot_mode}})``: ``on`` ends
every ``observe`` and ``generate`` answer with a small JPEG of the tracked
tab (``images.ENCODINGS["automatic"]``); ``errors_only`` only
``observe({what:"errors"})`` answers. Off by default, per session. A
cooldown (5 s) and a session limit (10) bound the cost; whenever no image
can be attached, the answer says why instead.

This is the policy only; the response builder (``tabsight.tools.response``)
takes the screenshot and lays it out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

Mode = Literal["off", "on", "errors_only"]
#: an automatic screenshot larger than this is logged
LARGE_PAYLOAD = 500 * 1024
SENSITIVE_NOTE = (
    "Screenshots may contain sensitive page content (personal data, secrets on screen); they go to the model "
    "with every answer this setting covers."
)


@dataclass
class CaptureSettings:
    screenshot_mode: Mode = "off"
    cooldown_seconds: float = 5.0
    session_limit: int = 10


class AutoScreenshots:
    def __init__(self, clock=time.monotonic) -> None:
        self.settings = CaptureSettings()
        self.taken = 0
        self.last_at: float | None = None
        self.warned = False
        self._clock = clock

    def configure(self, settings: CaptureSettings) -> str | None:
        """Applies the settings; the sensitive-content note the first time they turn capture on."""
        self.settings = settings
        if settings.screenshot_mode != "off" and not self.warned:
            self.warned = True
            return SENSITIVE_NOTE
        return None

    def wanted(self, tool: str, what: str | None) -> bool:
        """Whether an answer of ``tool`` (``observe`` with ``what``) ends with an automatic screenshot."""
        mode = self.settings.screenshot_mode
        if mode == "on":
            return tool in ("observe", "generate")
        return mode == "errors_only" and tool == "observe" and what == "errors"

    def refusal(self) -> str | None:
        """Why no screenshot may be taken now (limit, cooldown), or None when one may."""
        limit = self.settings.session_limit
        if self.taken >= limit:
            return f"session limit reached ({self.taken}/{limit})"
        if self.last_at is not None and self._clock() - self.last_at < self.settings.cooldown_seconds:
            return f"rate-limited ({self.settings.cooldown_seconds:g}s cooldown)"
        return None

    def took_one(self) -> None:
        self.taken += 1
        self.last_at = self._clock()

    def status(self) -> dict:
        return {
            "screenshot_mode": self.settings.screenshot_mode,
            "cooldown_seconds": self.settings.cooldown_seconds,
            "session_limit": self.settings.session_limit,
            "taken": self.taken,
        }
