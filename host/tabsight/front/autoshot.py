"""screenshot_mode: a fresh screenshot at the end of answers, without asking.

``configure({action:"capture", settings:{screenshot_mode}})``: ``on`` ends
every ``observe`` and ``generate`` answer with a JPEG (q60) of the tracked
tab, captured as the answer is built; ``errors_only`` only
``observe({what:"errors"})`` answers. Off by default, per session. A
cooldown (5 s) and a session limit (10) bound the cost; whenever no image
can be attached, a text block says why instead.
"""

from __future__ import annotations

import base64
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..tools.base import Content, image, text
from .link import BrowserError

if TYPE_CHECKING:
    from .session import Session

log = logging.getLogger("tabsight.front")

Mode = Literal["off", "on", "errors_only"]
QUALITY = 60
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
        mode = self.settings.screenshot_mode
        if mode == "on":
            return tool in ("observe", "generate")
        return mode == "errors_only" and tool == "observe" and what == "errors"

    def status(self) -> dict:
        return {
            "screenshot_mode": self.settings.screenshot_mode,
            "cooldown_seconds": self.settings.cooldown_seconds,
            "session_limit": self.settings.session_limit,
            "taken": self.taken,
        }

    async def block(self, session: Session) -> Content:
        """The screenshot to end an answer with, or the text saying why there is none."""
        limit = self.settings.session_limit
        if self.taken >= limit:
            return _unavailable(f"session limit reached ({self.taken}/{limit})")
        now = self._clock()
        if self.last_at is not None and now - self.last_at < self.settings.cooldown_seconds:
            return _unavailable(f"rate-limited ({self.settings.cooldown_seconds:g}s cooldown)")
        try:
            link, tab_id = await session.browsers.tab()
            shot = await link.request("capture", {"tab_id": tab_id, "format": "jpeg", "quality": QUALITY}, timeout=15)
        except BrowserError as exc:
            if exc.code == "no_tab":
                return _unavailable("no tracked tab")
            if exc.code in ("disconnected", "no_browser", "launch_failed", "timeout"):
                return _unavailable("extension not connected")
            return _unavailable(exc.message)
        data = shot["tiles"][0]["data"]
        if len(data) * 3 // 4 > LARGE_PAYLOAD:
            log.warning("auto screenshot of %d KB (over %d KB)", len(data) * 3 // 4 // 1024, LARGE_PAYLOAD // 1024)
        self.taken += 1
        self.last_at = now
        session.remember_screenshot(base64.b64decode(data))
        return image(data, "image/jpeg")


def _unavailable(reason: str) -> Content:
    return text(f"[Screenshot unavailable: {reason}]")
