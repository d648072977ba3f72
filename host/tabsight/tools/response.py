"""The one place a tool's MCP result is laid out: the only module that makes MCP content blocks.

Handlers only add to a ``Response``: the answer's JSON (``result``), images
that are the answer (``add_image``: a screenshot, an annotated screenshot, a
diff), images attached to it (``attach_image``: screenshots an ``execute``
took, referenced from the JSON), the page screenshot a later visual diff
compares against (``remember_screenshot``), and whether pending alerts ride
along (``include_alerts``). ``build`` then lays the answer out, always in
this order:

1. the answer's images;
2. the JSON result, compact, as a page-content region (``tabsight.pagecontent``:
   it may quote a page) unless its tool never quotes one (``quotes_pages``);
3. ``{"_notes": [...]}``, when the session's browser or tracked tab changed
   under it since its last answer (a restart, another browser connecting);
4. attached images, then a line counting them;
5. ``_alerts: `` and their JSON list as a region, when asked for and any are
   pending (drained there): at most ALERTS_SHOWN of them, the most severe,
   each without what repeats (``riding``); the label counts those still
   waiting for the next answer;
6. the automatic screenshot that ``screenshot_mode`` asks for, or a line
   saying why there is none.

Only the regions hold what pages wrote; the ``_notes`` block, the ``_alerts``
label and the bracketed lines are tabsight's own, outside them, where no
page text can be. An error from the browser has its message (which may quote
an element's name or a URL) as a region, the tool's prefix, the hint and
the code outside it (``refusal``).

It masks secrets (``tabsight.redact``) in every string the JSON, the
notes and the alerts carry, keys included, whatever their shape (a script's
result, a CDP call's, a page's text; ``masked``), and bounds the text
(``tabsight.bounded``): page fields (URLs, titles, names, texts, messages)
are capped wherever they appear (``page_fields`` and ``page_text`` mask and
cap for a handler that lays page text out itself), and the JSON and the
alerts together stay within the session's
budget (100,000 characters unless ``configure answers`` says otherwise),
cuts marked with the original length. It encodes images in base64, stores
the session's latest screenshot, and counts what the answer weighs
(``Size``). The MCP SDK's types are imported where the result is laid out,
not with the module: ``tabsight shot`` runs the tools without the SDK.
"""

from __future__ import annotations

import base64
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import bounded, images, pagecontent, redact
from ..errors import BrowserError, Code
from ..session import autoshot
from ..session.state import Session

if TYPE_CHECKING:
    import mcp_types as types

    Content = types.TextContent | types.ImageContent

log = logging.getLogger("tabsight.front")

#: the pending alerts an answer carries; the others wait for the next answers, counted in its ``_alerts`` label
#: (a page that fails twenty font requests would otherwise fill one answer; observe alerts reads them all at once)
ALERTS_SHOWN = 5

#: how screenshot_mode's screenshot is taken
AUTOMATIC = images.ENCODINGS["automatic"]


@dataclass(frozen=True)
class Image:
    data: bytes
    mime_type: str


@dataclass
class Size:
    """What an answer weighs: characters of text, bytes of encoded images (before base64), image count."""

    text_chars: int = 0
    image_bytes: int = 0
    images: int = 0


@dataclass
class Response:
    """What one tool call answers, as its handler adds it up."""

    tool: str
    #: the ``what`` of an observe call: screenshot_mode's errors_only looks at it
    what: str | None = None
    #: whether the result may quote a page (the tool's ``quotes_pages``): it is then a page-content region
    quotes_pages: bool = True
    result: Any = None
    images: list[Image] = field(default_factory=list)
    attachments: list[Image] = field(default_factory=list)
    alerts: bool = False
    screenshot: bytes | None = None
    size: Size = field(default_factory=Size)

    def add_image(self, data: bytes, mime_type: str) -> None:
        """An image that is (part of) the answer; it comes before the JSON."""
        self.images.append(Image(data, mime_type))

    def attach_image(self, data: bytes, mime_type: str) -> int:
        """An image the JSON refers to; it comes after the JSON. Its number, from 1."""
        self.attachments.append(Image(data, mime_type))
        return len(self.attachments)

    def remember_screenshot(self, data: bytes) -> None:
        """The page as this call saw it: the default baseline of the session's next visual diff."""
        self.screenshot = data

    def include_alerts(self) -> None:
        self.alerts = True

    async def build(self, session: Session) -> types.CallToolResult:
        import mcp_types as types

        # Page fields are capped wherever they are, then the JSON and the alerts share the session's budget
        budget = session.answer_chars
        pending = session.inbox.drain(ALERTS_SHOWN) if self.alerts else None
        if pending:
            pending = bounded.fit(bounded.cap_fields(masked(pending, budget // 4)), budget // 4)
            budget -= bounded.size(pending)
        content: list[types.ContentBlock] = [self._image(image) for image in self.images]
        if self.result is not None:
            result = _serialised(bounded.fit(bounded.cap_fields(masked(self.result, budget)), budget))
            content.append(self._text(pagecontent.mark(result) if self.quotes_pages else result))
        notes = session.browsers.take_notes()
        if notes:
            content.append(self._text({"_notes": masked(notes, budget)}))  # they may name a tab's URL
        if self.attachments:
            content += [self._image(image) for image in self.attachments]
            count = len(self.attachments)
            content.append(self._text(f"[{count} screenshot{'s' if count > 1 else ''} attached]"))
        if pending:
            label = "_alerts"
            if dropped := pending.get("_alerts_dropped"):
                label += f" ({dropped} older dropped)"
            if waiting := pending.get("_alerts_waiting"):
                label += f" ({waiting} more waiting for the next answers; observe alerts reads them now)"
            content.append(self._text(f"{label}: {pagecontent.mark(_serialised(riding(pending['_alerts'])))}"))
        if session.autoshots.wanted(self.tool, self.what):
            content.append(await self._automatic_screenshot(session))
        if self.screenshot is not None:
            session.screenshots.remember(self.screenshot)
        return types.CallToolResult(content=content)

    @staticmethod
    def error(
        prefix: str, message: str, hint: str = "", code: Code | None = None, quotes_page: bool = False
    ) -> types.CallToolResult:
        """An isError result: the tool's ``prefix``, the ``message``, what to do about it (``hint``), its ``code``
        (``refusal``). The message may quote a page's URL or text, so secrets in it are masked; one that
        ``quotes_page`` (the browser's: an element's name, a URL) is a page-content region, between tabsight's
        prefix and hint."""
        import mcp_types as types

        message = bounded.cap(redact.text(message), bounded.ANSWER_CHARS)
        text = refusal(prefix, pagecontent.mark(message) if quotes_page else message, hint, code)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    async def _automatic_screenshot(self, session: Session) -> Content:
        """screenshot_mode's screenshot of the tracked tab, or the text saying why there is none."""
        shots = session.autoshots
        refused = shots.refusal()
        if refused:
            return self._unavailable(refused)
        try:
            client, tab_id = await session.browsers.tab()
            shot = await client.capture(tab_id, AUTOMATIC.format, AUTOMATIC.quality)
        except BrowserError as exc:
            if exc.code == Code.NO_TAB:
                return self._unavailable("no tracked tab")
            if exc.code in (Code.DISCONNECTED, Code.NO_BROWSER, Code.LAUNCH_FAILED, Code.TIMEOUT):
                return self._unavailable("extension not connected")
            return self._unavailable(exc.message)
        if len(shot.image) > autoshot.LARGE_PAYLOAD:
            log.warning(
                "auto screenshot of %d KB (over %d KB)", len(shot.image) // 1024, autoshot.LARGE_PAYLOAD // 1024
            )
        shots.took_one()
        self.screenshot = shot.image
        session.screenshots.saw_viewport(client.id, tab_id, shot.viewport)
        return self._image(Image(shot.image, AUTOMATIC.mime_type))

    def _unavailable(self, reason: str) -> Content:
        return self._text(f"[Screenshot unavailable: {reason}]")

    def _text(self, data: Any) -> types.TextContent:
        """A text block: a string as it is, anything else as compact JSON."""
        import mcp_types as types

        data = _serialised(data)
        self.size.text_chars += len(data)
        return types.TextContent(type="text", text=data)

    def _image(self, image: Image) -> types.ImageContent:
        import mcp_types as types

        self.size.image_bytes += len(image.data)
        self.size.images += 1
        return types.ImageContent(type="image", data=base64.b64encode(image.data).decode(), mime_type=image.mime_type)


def masked(value: Any, budget: int) -> Any:
    """An answer's JSON with every string in it masked (``redact.data``; a string past the answer's ``budget``
    cut first). A text a handler laid out itself (observe's compact form) was masked piece by piece as it was
    laid out (``page_fields``, ``page_text``), and stays as it is: masked as one text, a page's name next to a
    selector could read as ``name: value``."""
    return value if isinstance(value, str) else redact.data(value, budget)


def refusal(prefix: str, message: str, hint: str = "", code: Code | None = None) -> str:
    """What the agent reads of a failed call: the tool's prefix, the message, what to do about it, and the
    failure's code last, in brackets (``... [tab_busy]``): the one form of every failure that has a code
    (docs/wire-protocol.md), a word a script can match where the sentence may change. A suffix, so that the
    screenshot tool's failures still begin with BrowserLoop's words."""
    return prefix + message + (f" {hint}" if hint else "") + (f" [{code}]" if code else "")


def riding(alerts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The alerts as an answer carries them: each without the default ``source`` (the browser), and a failed
    request's without the ``url`` its title already names (tabsight writes that title; an error's is the page's
    words, which could only pretend to quote its URL)."""
    shown = []
    for alert in alerts:
        lean = {key: value for key, value in alert.items() if not (key == "source" and value == "browser")}
        if lean.get("category") == "network_errors" and _quoted(lean.get("url"), str(lean.get("title", ""))):
            del lean["url"]
        shown.append(lean)
    return shown


def _quoted(url: object, title: str) -> bool:
    """Does the title already say this URL (whole, or its path and query)?"""
    if not isinstance(url, str) or not url:
        return False
    rest = url.split("://", 1)[-1]
    path = rest[rest.find("/") :] if "/" in rest else ""
    return url in title or (len(path) > 1 and path in title)


def _serialised(data: Any) -> str:
    """A string as it is, anything else as compact JSON (token-frugal: no indentation)."""
    return data if isinstance(data, str) else json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def page_fields(value: Any) -> Any:
    """``value`` with every string in it masked and its page fields capped as ``build`` does to every result:
    for a handler that lays page fields out as text of its own (observe's compact form)."""
    return bounded.cap_fields(redact.data(value))


def page_text(text: str, limit: int) -> str:
    """Text a page shows, under a key of no page field (an outline, a field's value): secret-looking
    content masked as in every page field, then cut at ``limit`` (marked)."""
    return bounded.cap(redact.text(text), limit)
