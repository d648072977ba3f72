"""The user's picks ("Look at this"): elements the user pointed the agent at, in their browser.

The extension sends a ``picked`` event when the user chose an element (the keyboard shortcut or the
context menu, then a click; extension/service-worker/picker.js): its selector, tag, role, name, text, bounds, computed
styles, the note the user typed, the page's URL and title, and a PNG of the element cropped from the
viewport. Only the extension's service worker sends events, and it sends this one only for a pick made
with trusted input through its own UI: no page can make one.

Here each pick is validated (anything malformed is dropped), redacted (URL, title, note, name and text,
as every page field is; the selector, which masked would match nothing, is the structural one the
extension sends too when redaction would mask something in it), numbered, kept (the latest MAX_PICKS, images included, so memory stays
bounded) and turned into an alert for every front: ``The user pointed at <button> "Save" on URL: note``.
``picks.query`` gives them back, newest first, for observe({what:"picked"}).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .. import redact
from ..times import wall_time
from .telemetry import Alert

MAX_PICKS = 5
MAX_NOTE = 2000
#: the note as an alert's title quotes it; the pick has all of it
TITLE_NOTE = 300
#: a crop is at most the viewport: a 4000x4000 device-pixel PNG stays well under this
MAX_IMAGE_BASE64 = 24 * 1024 * 1024
MAX_STYLES = 40


class Bounds(BaseModel):
    x: int = Field(ge=-(10**6), le=10**6)
    y: int = Field(ge=-(10**6), le=10**6)
    width: int = Field(ge=0, le=10**6)
    height: int = Field(ge=0, le=10**6)


class PickImage(BaseModel):
    data: str = Field(max_length=MAX_IMAGE_BASE64)
    mime_type: str = Field(pattern=r"^image/png$")
    width: int = Field(ge=1, le=20_000)
    height: int = Field(ge=1, le=20_000)


class PickReport(BaseModel):
    """A ``picked`` event's data, as the extension sends it; page text is capped, not refused."""

    model_config = ConfigDict(extra="ignore")

    tab_id: int
    url: str = Field(default="", max_length=8192)
    title: str = Field(default="", max_length=4000)
    selector: str = Field(min_length=1, max_length=8192)
    #: the element's path of tags and positions, when it is not ``selector``
    structural_selector: str | None = Field(default=None, min_length=1, max_length=8192)
    tag: str = Field(default="", max_length=100)
    role: str = Field(default="", max_length=100)
    name: str = Field(default="", max_length=4000)
    text: str = Field(default="", max_length=4000)
    bounds: Bounds
    styles: dict[str, str] = Field(default={}, max_length=MAX_STYLES)
    note: str = Field(default="", max_length=MAX_NOTE)
    image: PickImage | None = None


class PicksQuery(BaseModel):
    """A front's ``picks.query``: the newest ``limit`` picks after id ``since``."""

    since: int = Field(default=0, ge=0)
    #: as telemetry.query's; no more than MAX_PICKS are kept
    limit: int = Field(default=1, ge=1, le=200)


class Picks:
    """The latest MAX_PICKS picks of this browser; each new one is handed on as an alert."""

    def __init__(self, on_alert: Callable[[Alert], None], clock: Callable[[], float] = time.time) -> None:
        self._deliver = on_alert
        self.clock = clock
        self.kept: deque[dict[str, Any]] = deque(maxlen=MAX_PICKS)
        self._ids = itertools.count(1)
        self.last_id = 0
        self.dropped = 0

    def receive(self, data: dict[str, Any]) -> None:
        """One ``picked`` event: kept and alerted, or dropped (counted) when malformed."""
        try:
            report = PickReport.model_validate(data)
            if report.image:
                base64.b64decode(report.image.data, validate=True)
        except (ValidationError, binascii.Error):
            self.dropped += 1
            return
        self.last_id = next(self._ids)
        pick: dict[str, Any] = {
            "id": self.last_id,
            "time": wall_time(self.clock(), "milliseconds"),
            "tab_id": report.tab_id,
            "url": redact.url(report.url),
            "title": redact.text(report.title),
            "selector": redact.selector(report.selector, report.structural_selector),
            "tag": report.tag,
            "role": report.role,
            "name": redact.text(report.name),
            "text": redact.text(report.text),
            "bounds": report.bounds.model_dump(),
            "styles": report.styles,
            "note": redact.text(report.note.strip()),
        }
        if report.image:
            pick["image"] = report.image.model_dump()
        self.kept.append(pick)
        self._deliver(_alert(pick))

    def query(self, since: int = 0, limit: int = 1) -> dict[str, Any]:
        """The newest ``limit`` picks after id ``since``, newest first; ``cursor`` is the latest id."""
        newer = [pick for pick in reversed(self.kept) if pick["id"] > since]
        return {"items": newer[:limit], "cursor": max(since, self.last_id)}


def _alert(pick: dict[str, Any]) -> Alert:
    """``The user pointed at <button> "Save" on URL: note``, its selector and where to see more in the detail."""
    what = f"<{pick['tag'] or 'element'}>"
    if pick["name"]:
        what += f' "{pick["name"][:100]}"'
    title = f"The user pointed at {what} on {pick['url'] or 'a page'}"
    if pick["note"]:
        note = pick["note"]
        title += f": {note if len(note) <= TITLE_NOTE else note[:TITLE_NOTE] + '…'}"
    detail = (
        f'selector {pick["selector"]}; observe({{what:"picked"}}) gives its bounds, computed styles, note '
        "and a picture of it"
    )
    return Alert("picked", "warning", title, detail, pick["url"], pick["tab_id"], source="user")
