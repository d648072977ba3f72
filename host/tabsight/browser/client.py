"""The browser, as tools see it: one typed method per thing the extension or host can do.

``BrowserClient`` turns calls into requests on a ``Transport`` (a
``HostLink`` to a running host in production; a fake in unit tests, which is
the seam that lets every tool handler be tested without Chromium). The method
names (``tabsight.protocol.methods``), parameter spellings and the time each
request may take live here and nowhere else in Python.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .. import config, images, uploads
from ..errors import BrowserError, Code
from ..nativehost.received import MAX_RECEIVED_FILE
from ..progress import phase
from ..protocol import frames
from ..protocol.methods import Method

#: seconds a quick browser request (tabs, telemetry, a viewport change) may take
QUICK = 5.0
#: seconds a capture, a page read or an element lookup may take
CAPTURE = 15.0
#: seconds an action on an element may take (scrolling into view, waiting for it to settle, the input itself)
ACT = 30.0
#: margin added to an operation's own bound (navigation, wait_for), for the answer to come back
MARGIN = 5.0
#: how often a request refused for a tab another session holds (tab_busy) is tried again, when waiting
BUSY_RETRY = 0.2


class Transport(Protocol):
    """What carries requests to a browser: ``HostLink``, or a fake."""

    hello: frames.Hello
    #: the host's socket
    path: Path
    #: the host is reached through a forward (another machine, a container): see ``HostLink.forwarded``
    forwarded: bool

    @property
    def profile_id(self) -> str:
        """The browser profile's id (its extension's hello), empty if it did not say."""
        ...

    async def request(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = 30.0
    ) -> dict[str, Any]: ...


#: per transport (one browser's link), the latest screencast frame's encoding: ((tab, frame, format, quality),
#: pictures). Kept with the link, not the client: a session makes a client for each call.
_encoded: weakref.WeakKeyDictionary[Transport, tuple[tuple[Any, ...], list[images.Picture]]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class Shot:
    """A capture: its tiles, decoded (one, or a grid for a page longer than one image), and where it was taken."""

    pictures: list[images.Picture]
    url: str | None = None
    viewport: dict[str, Any] | None = None
    status: int | None = None
    truncated: bool = False
    #: how the extension captured it: ``visible_tab`` (captureVisibleTab) or ``cdp`` (the debugger)
    method: str | None = None
    #: how a capture_url's cookies reached the page: ``cookie store`` or ``request headers``
    cookies_via: str | None = None
    #: names of the cookies the browser's store would not take
    cookies_refused: list[str] = field(default_factory=list)

    @property
    def image(self) -> bytes:
        """The first (for a viewport capture: the only) tile's encoded bytes."""
        return self.pictures[0].data

    @classmethod
    def from_wire(cls, result: dict[str, Any]) -> Shot:
        pictures = [images.picture(t["data"], t["x"], t["y"], t["width"], t["height"]) for t in result["tiles"]]
        return cls(
            pictures,
            result.get("url"),
            result.get("viewport"),
            result.get("status"),
            bool(result.get("truncated")),
            result.get("method"),
            result.get("cookies_via"),
            result.get("cookies_refused") or [],
        )


@dataclass(frozen=True)
class End:
    """Where an action lands (or a drag ends): the element ``selector`` matches, the one a label marked
    (``annotation``: the annotation's id and the label's number; ``selector`` is then the label's), or ``point``
    (CSS px of the viewport). ``annotated_selector``: the caller gave the label's selector, not its number: in
    another document than the annotation's it is a plain selector there."""

    selector: str | None = None
    annotation: tuple[str, int] | None = None
    annotated_selector: bool = False
    point: tuple[float, float] | None = None

    def wire(self) -> dict[str, Any]:
        request: dict[str, Any] = {"selector": self.selector}
        if self.annotation is not None:
            request["annotation"], request["label"] = self.annotation
            if self.annotated_selector:
                request["annotated_selector"] = True
        if self.point is not None:
            request["x"], request["y"] = self.point
        return request


class BrowserClient:
    """One connected browser (one profile's host and extension)."""

    def __init__(self, transport: Transport, busy_wait: float = 0.0) -> None:
        self.transport = transport
        #: seconds a request on a tab another session holds a lease on waits for it (configure tabs on_busy)
        self.busy_wait = busy_wait

    # -- who it is -----------------------------------------------------------

    @property
    def hello(self) -> frames.Hello:
        return self.transport.hello

    @property
    def id(self) -> str:
        """The host's id: how answers and ``configure track`` name this browser."""
        return self.hello.host_id or ""

    @property
    def name(self) -> str:
        """What tells this browser from the others, short: brand, channel, major version, profile.

        ``Google Chrome Beta 157 (profile 'Work')``, ``Chromium 156``, ``tabsight's embedded Chromium 156``:
        only what the host could find out (see ``nativehost/whoami.py``).
        """
        hello = self.hello
        ext = hello.extension
        if not ext:
            return "unknown"
        brand = ext.browser.name
        channel = hello.channel
        if channel and channel != "stable" and channel.lower() not in brand.lower():
            brand = f"{brand} {channel.title()}"
        named = f"{brand} {ext.browser.version.split('.')[0]}".strip()
        if hello.embedded:
            return f"tabsight's embedded {named}"
        profile = hello.profile_name or hello.profile_dir
        return f"{named} (profile '{profile}')" if profile else named

    @property
    def embedded(self) -> bool:
        return bool(self.hello.embedded)

    def _file_roots(self) -> list[str]:
        """The folders whose files a ``file://`` URL may show: ``uploads.file_roots``, none for a browser reached
        through a forward, which would read that path on its own machine, another file."""
        return [] if self.transport.forwarded else uploads.file_roots()

    # -- tabs ----------------------------------------------------------------

    async def tabs(self, timeout: float = QUICK) -> dict[str, Any]:
        """``{tabs: [{id, title, url, active?, owned?, debugger_attached}], focused_tab_id}``."""
        return await self._ask(Method.TABS_LIST, {}, timeout)

    async def navigate(self, tab_id: int, url: str, timeout_ms: int = 30_000) -> dict[str, Any]:
        request = {"tab_id": tab_id, "url": url, "timeout_ms": timeout_ms, "file_roots": self._file_roots()}
        return await self._ask(Method.TAB_NAVIGATE, request, timeout_ms / 1000 + MARGIN)

    async def history(self, tab_id: int, direction: str, timeout_ms: int = 30_000) -> dict[str, Any]:
        """back, forward or reload, waited for as ``navigate`` is: ``{url, title, status}``."""
        request = {"tab_id": tab_id, "direction": direction, "timeout_ms": timeout_ms}
        return await self._ask(Method.TAB_HISTORY, request, timeout_ms / 1000 + MARGIN)

    async def open_tab(
        self,
        opener_tab_id: int | None,
        url: str | None,
        timeout_ms: int = 30_000,
        group: str | None = None,
        active: bool = False,
        window: bool = False,
    ) -> dict[str, Any]:
        """A new background tab (``active``: the one its window shows) beside ``opener_tab_id``, loading ``url``
        if given, in the tab group titled ``group`` (made if the window has none); with ``window``, the tab of a
        new unfocused window instead: ``{tab_id, url, title, status}``. The session owns it."""
        request: dict[str, Any] = {"timeout_ms": timeout_ms, "file_roots": self._file_roots()}
        if active:
            request["active"] = True
        if window:
            request["window"] = True
        if group:
            request["group"] = group
        if opener_tab_id is not None:
            request["opener_tab_id"] = opener_tab_id
        if url is not None:
            request["url"] = url
        return await self._ask(Method.TAB_OPEN, request, timeout_ms / 1000 + MARGIN)

    async def claim(
        self,
        action: str,
        tab_id: int | None = None,
        on_end: str | None = None,
        tab_ids: list[int] | None = None,
    ) -> dict[str, Any]:
        """The host's tabs.claim: ``release`` or ``take_over`` ``tab_id``; say what becomes of this session's tabs
        when it ends (``on_end``: close or keep); or ``reclaim`` its ``tab_ids`` from a restarted host."""
        request: dict[str, Any] = {"action": action}
        if tab_id is not None:
            request["tab_id"] = tab_id
        if on_end is not None:
            request["on_end"] = on_end
        if tab_ids is not None:
            request["tab_ids"] = tab_ids
        return await self._ask(Method.TABS_CLAIM, request, QUICK)

    async def close_tab(self, tab_id: int) -> dict[str, Any]:
        """``{closed, url, title}``; refused for the browser's last tab."""
        return await self._ask(Method.TAB_CLOSE, {"tab_id": tab_id}, QUICK)

    async def set_viewport(self, tab_id: int, width: int, height: int) -> dict[str, Any]:
        return await self._ask(Method.SET_VIEWPORT, {"tab_id": tab_id, "width": width, "height": height}, QUICK)

    async def emulate(self, tab_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Sets the aspects in ``changes`` (``viewport``, ``color_scheme``, ``network``; a null ends one) or, with
        ``reset``, ends them all: ``{emulation, in_effect}``, what the tab has now (null: nothing)."""
        return await self._ask(Method.EMULATION_SET, {"tab_id": tab_id, **changes}, QUICK)

    # -- seeing --------------------------------------------------------------

    async def capture(
        self,
        tab_id: int,
        format: str,
        quality: int | None = None,
        *,
        full_page: bool = False,
        selector: str | None = None,
        timeout: float = CAPTURE,
    ) -> Shot:
        """The tab as it is now: its viewport, its whole page, or one element's box."""
        request: dict[str, Any] = {"tab_id": tab_id, "format": format}
        if quality is not None:
            request["quality"] = quality
        if full_page:
            request["full_page"] = True
        if selector:
            request["selector"] = selector
        if not config.current()[
            config.TABSIGHT_FRAME_SOURCE
        ]:  # never a screencast's latest frame (extension/service-worker/frames.js)
            request["frame_source"] = False
        result = await self._ask(Method.CAPTURE, request, timeout)
        shot = Shot.from_wire(result)
        if result.get("mime_type", images.MIME_TYPES[format]) != images.MIME_TYPES[format]:
            # The extension took a WebP as a JPEG (extension/service-worker/capture.js takenAs: Chrome's WebP encoder
            # is the slower one), from the screen or a screencast frame. A screencast frame seen before (the page has
            # not changed) is not encoded again.
            key = (tab_id, result.get("frame_id"), format, quality)
            latest = _encoded.get(self.transport)
            if key[1] and latest and latest[0] == key:
                pictures = latest[1]
            else:
                pictures = [images.reencoded(pic, format, quality) for pic in shot.pictures]
                if key[1]:
                    _encoded[self.transport] = (key, pictures)
            shot = dataclasses.replace(shot, pictures=pictures)
        return shot

    async def capture_url(
        self,
        url: str,
        *,
        width: int,
        height: int,
        format: str,
        quality: int,
        wait_for_network_idle: bool,
        timeout_ms: int,
        user_agent: str | None = None,
        cookies: list[dict[str, Any]] | None = None,
        full_page: bool = False,
        selector: str | None = None,
    ) -> Shot:
        """``url`` opened in a window of the extension's own at ``width`` x ``height``, captured and closed.

        ``timeout_ms`` bounds the load; the extension ends the whole capture a second after it, window closed.
        """
        request: dict[str, Any] = {
            "url": url,
            "width": width,
            "height": height,
            "format": format,
            "quality": quality,
            "wait_for_network_idle": wait_for_network_idle,
            "timeout_ms": timeout_ms,
        }
        optional = {"user_agent": user_agent, "cookies": cookies, "full_page": full_page, "selector": selector}
        request.update({name: value for name, value in optional.items() if value})
        return Shot.from_wire(await self._ask(Method.CAPTURE_URL, request, timeout_ms / 1000 + MARGIN))

    async def page_info(self, tab_id: int) -> dict[str, Any]:
        return await self._ask(Method.PAGE_INFO, {"tab_id": tab_id}, CAPTURE)

    async def page_outline(self, tab_id: int, max_chars: int) -> dict[str, Any]:
        """``{text, cut, above, below, partial}``: the text the viewport shows, as an outline of at most
        ``max_chars``; how many characters were left out past that budget, above and below the viewport."""
        return await self._ask(Method.PAGE_OUTLINE, {"tab_id": tab_id, "max_chars": max_chars}, CAPTURE)

    async def find_elements(
        self,
        tab_id: int,
        target: str,
        selector: str | None,
        limit: int,
        since: str | None = None,
        changes: int | None = None,
    ) -> dict[str, Any]:
        """``{page, annotation, elements, total_found}``: what an annotation marks (``unchanged: true`` and the
        annotation ``since`` when it would repeat that one). With ``changes`` (a budget in characters):
        ``{page, changes: {added, changed, removed, more}}``, what changed in annotation ``since``'s map, or
        ``changes: null`` when the page no longer keeps it."""
        request = {"tab_id": tab_id, "target": target, "selector": selector, "max": limit, "since": since}
        if changes is not None:
            request["changes"] = changes
        return await self._ask(Method.ELEMENTS_FIND, request, CAPTURE)

    async def telemetry(
        self,
        tab_id: int | None,
        what: str,
        since: int = 0,
        limit: int = 20,
        url: str | None = None,
        timeout: float = QUICK,
        requests: str = "failed",
    ) -> dict[str, Any]:
        """``{items, cursor}``: the newest ``limit`` entries of ``what`` after cursor ``since``, of one tab
        (``tab_id``) or of every tab (None), whose URL contains ``url``; for network, the failed requests or
        ``requests="all"``."""
        request = {"what": what, "tab_id": tab_id, "since": since, "limit": limit, "url": url, "requests": requests}
        return await self._ask(Method.TELEMETRY_QUERY, request, timeout)

    async def network_detail(
        self,
        tab_id: int,
        request_id: int,
        include: Sequence[str],
        max_body_chars: int,
        binary_bodies: bool,
    ) -> dict[str, Any]:
        """One request of the tab, by the id its telemetry entry gives: URL, method, state, status, and the
        ``include``d headers and bodies, redacted by the host; text bodies cut at ``max_body_chars``."""
        request = {
            "tab_id": tab_id,
            "request_id": request_id,
            "include": include,
            "max_body_chars": max_body_chars,
            "binary_bodies": binary_bodies,
        }
        return await self._ask(Method.NETWORK_DETAIL, request, QUICK)

    # -- acting --------------------------------------------------------------

    async def act(
        self,
        tab_id: int,
        action: str,
        target: End,
        *,
        to: End | None = None,
        document: str | None = None,
        viewport: dict[str, int] | None = None,
        **inputs: Any,
    ) -> dict[str, Any]:
        """An input action on ``target`` (see ``End``), or a drag from it ``to`` another end: what it did and what
        changed. ``inputs``: the action's own arguments (text, key, button, ``files`` as absolute paths already
        allowed by ``tabsight.uploads``...), sent as they are; the extension's handler of the action reads them. A
        label whose element is gone, replaced or changed is refused (stale_label); ``document``: the document the
        labels are of. ``viewport``: the size the viewport had in the screenshot the points came from; another
        size now is refused (viewport_changed)."""
        if inputs.get("files") and self.transport.forwarded:  # the paths are ours, not the browser's machine's
            inputs = {**inputs, "files": [await self._send_file(Path(path)) for path in inputs["files"]]}
        request: dict[str, Any] = {"tab_id": tab_id, "action": action, **target.wire(), **inputs}
        if to is not None:
            request["to"] = to.wire()
        if document is not None:
            request["document"] = document
        if viewport is not None:
            request["viewport"] = viewport
        return await self._ask(Method.ELEMENT_ACT, request, ACT)

    async def wait_for(self, tab_id: int, selector: str | None, text: str | None, timeout_ms: int) -> dict[str, Any]:
        request = {"tab_id": tab_id, "selector": selector, "text": text, "timeout_ms": timeout_ms}
        return await self._ask(Method.PAGE_WAIT_FOR, request, timeout_ms / 1000 + MARGIN)

    async def execute(
        self,
        tab_id: int,
        script: str | None,
        cdp: list[dict[str, Any]],
        timeout_ms: int,
        max_chars: int = 100_000,
    ) -> dict[str, Any]:
        """A page script and CDP steps, each bounded by ``timeout_ms``; the whole call by their sum (at most 10 min).
        A script result longer than ``max_chars`` of JSON comes back cut, with its length."""
        request = {
            "tab_id": tab_id,
            "script": script,
            "cdp": cdp,
            "timeout_ms": timeout_ms,
            "max_chars": max_chars,
            "file_roots": self._file_roots(),
        }
        bound = min(600, timeout_ms / 1000 * (len(cdp) + 2) + 10)
        return await self._ask(Method.PAGE_EXECUTE, request, bound)

    # -- dialogs ---------------------------------------------------------------

    async def answer_dialog(self, tab_id: int, accept: bool, prompt_text: str | None = None) -> dict[str, Any]:
        """Answers the tab's open dialog: ``{dialog: {type, message}, answer, prompt_text?}``, or ``no_dialog``."""
        request: dict[str, Any] = {"tab_id": tab_id, "accept": accept}
        if prompt_text is not None:
            request["prompt_text"] = prompt_text
        return await self._ask(Method.DIALOG_ANSWER, request, QUICK)

    async def set_dialog_policy(self, tab_id: int, policy: str) -> dict[str, Any]:
        """How the tab's dialogs are answered from now on: ``accept``, ``dismiss`` or ``report`` (left open)."""
        return await self._ask(Method.DIALOG_POLICY, {"tab_id": tab_id, "policy": policy}, QUICK)

    async def allow_debugger(self) -> dict[str, Any]:
        """After the user cancelled the debugging bar, lets the extension attach again."""
        return await self._ask(Method.DEBUGGER_ALLOW, {}, QUICK)

    # -- the host --------------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        return await self._ask(Method.HOST_STATUS, {}, QUICK)

    async def picks(self, since: int, limit: int) -> dict[str, Any]:
        """``{items, cursor}``: the user's newest ``limit`` picks after id ``since``, newest first, each with its
        cropped picture (``image``: base64 PNG, width, height) when the browser could take one."""
        return await self._ask(Method.PICKS_QUERY, {"since": since, "limit": limit}, QUICK)

    async def _send_file(self, path: Path) -> str:
        """An allowed file's bytes sent to a host reached through a forward (``files.put``): the path there, which
        the browser reads (nativehost/received.py)."""
        size = path.stat().st_size
        if size > MAX_RECEIVED_FILE:
            raise BrowserError(
                Code.BAD_REQUEST,
                f"upload: {path} is {size} bytes; a browser reached through a forward takes files of at most "
                f"{MAX_RECEIVED_FILE // 2**20} MiB (their bytes are sent to its machine). Upload a smaller file, or "
                "from an agent on the browser's machine",
            )
        data = base64.b64encode(path.read_bytes()).decode()
        sent = await self._ask(Method.FILES_PUT, {"name": path.name, "data": data}, 60)
        return str(sent["path"])

    async def ci_result(self, result: dict[str, Any]) -> dict[str, Any]:
        return await self._ask(Method.HOST_CI_RESULT, result, QUICK)

    async def _ask(self, method: Method, params: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            return await self.transport.request(method.value, params, timeout=timeout)
        except BrowserError as exc:
            if exc.code != Code.TAB_BUSY or self.busy_wait <= 0:
                raise
            busy = exc
        # another session acts on the tab: wait for its lease to end (the host refuses at once, and this asks again)
        deadline = time.monotonic() + self.busy_wait
        with phase(f"waiting for tab {params.get('tab_id')}, which another session is using", bound=self.busy_wait):
            while time.monotonic() < deadline:
                await asyncio.sleep(BUSY_RETRY)
                try:
                    return await self.transport.request(method.value, params, timeout=timeout)
                except BrowserError as exc:
                    if exc.code != Code.TAB_BUSY:
                        raise
                    busy = exc
        raise BrowserError(Code.TAB_BUSY, f"{busy.message}; waited {self.busy_wait:g} s for it")
