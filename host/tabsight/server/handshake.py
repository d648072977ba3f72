"""What ``tabsight mcp`` does before the MCP SDK is loaded: open the session, and start a browser early.

Importing the SDK takes about 0.6 s (``mcp_types`` alone a quarter second), and a client sends nothing but
its opening request until that is answered: ``initialize`` (protocol versions up to 2025-11-25), or
``server/discover`` (2026-07-28, which the Python SDK's client sends first). So the lines read in that time
(``lines.LinePump``) are looked at here:

- A well-formed opening request is answered at once, with the answer the SDK's server gives
  (``initialize_answer``, ``discover_answer``; tests/test_cold_start.py compares them for every protocol
  version). The request still reaches the SDK, in order, so that its session is set up as usual; its own
  answer to it is dropped (``Early.drop``), and logged if it ever differed. Anything unusual in the request
  (a capability of a shape this module does not check, ``_meta`` on ``initialize``, icons) leaves it to the
  SDK: it is answered a little later, never differently.
- The opening request starts tabsight's embedded browser at once when it is the one the session's calls will
  use (``TABSIGHT_START_AHEAD``, on by default; ``TABSIGHT_BROWSER`` auto or headed; no host in the runtime
  folder: ``embedded.launch_ahead``), before the SDK is imported (``main.py`` waits for that spawn, a few
  tens of milliseconds, so the import does not compete with the browser's start for the cores): by the first
  call, a few seconds later as agents go, the browser is up and the session linked to it
  (``BrowserConnection.link_ahead``). With ``TABSIGHT_START_AHEAD`` off, the first ``tools/call`` of a tool
  that always works on a browser starts it instead, while the SDK and the tools load; its arguments are not
  checked yet (that needs the tools): a call refused for its arguments leaves that browser to the session's
  next call, or to the end of the session, which stops it.
- A ``tools/call`` read now waits for the SDK to serve it: when it carries a ``progressToken``, its
  ``notifications/progress`` start here, half a second after it was read and then every 0.9 s, as the
  server's own (``progress.py``) do; its handler takes them over when it starts (``take``), and they stop
  when it is answered in any way (``settled``).

Once the SDK's server takes its first line (``close``), it answers everything; the reports of calls read
before go on until their handlers start.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

# config and errors at the top: this runs in the reader's thread at the opening request, while the main thread
# imports the rest; a module imported by both threads at once can deadlock on importlib's module locks (seen: a
# SIGTERM then took 2 s to end the front)
from .. import __version__, config
from ..errors import BrowserError
from ..progress import EVERY, FIRST

log = logging.getLogger("tabsight.front")

NAME = "tabsight"
INSTRUCTIONS = (
    "tabsight shows you a real browser. observe({what:'page'}) describes the tracked tab (annotate_screenshot "
    "numbers its elements for interact({label})); observe errors/logs/network/vitals reads its telemetry; "
    "screenshot() captures it or any url; interact acts on it (execute runs scripts and CDP, screenshots come back "
    "as images); generate makes visual diffs; configure tracks a tab, attaches screenshots to answers or streams "
    "alerts. Alerts (errors, failed requests, regressions) ride on observe answers as _alerts."
)
#: the protocol versions an ``initialize`` negotiates: the SDK's HANDSHAKE_PROTOCOL_VERSIONS, oldest first
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: the server's capabilities in the handshake era, as the SDK derives them from app.py's handlers
CAPABILITIES = {"logging": {}, "resources": {"listChanged": False, "subscribe": True}, "tools": {"listChanged": False}}
#: the protocol versions of per-request envelopes: the SDK's MODERN_PROTOCOL_VERSIONS
MODERN_VERSIONS = ("2026-07-28",)
#: the capabilities on those: change notifications come through ``subscriptions/listen``, which app.py serves
MODERN_CAPABILITIES = {
    "logging": {},
    "resources": {"listChanged": True, "subscribe": True},
    "tools": {"listChanged": True},
}
#: the reserved ``_meta`` keys of a 2026-07-28 request, and of its results
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
#: tools every call of which works on a browser: the first such call starts one ahead (see the module's doc)
BROWSER_TOOLS = frozenset({"observe", "screenshot", "interact"})
#: what a session opens with: ``initialize`` (up to 2025-11-25), ``server/discover`` (2026-07-28)
OPENING_METHODS = frozenset({"initialize", "server/discover"})


def initialize_answer(params: dict[str, Any]) -> dict[str, Any]:
    """The result of ``initialize``: the client's protocol version when the SDK speaks it, else the latest."""
    requested = params["protocolVersion"]
    return {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
        "serverInfo": {"name": NAME, "version": __version__},
    }


def discover_answer() -> dict[str, Any]:
    """The result of ``server/discover`` (2026-07-28)."""
    return {
        "cacheScope": "private",
        "capabilities": MODERN_CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "resultType": "complete",
        "supportedVersions": list(MODERN_VERSIONS),
        "ttlMs": 0,
        "_meta": {SERVER_INFO_KEY: {"name": NAME, "version": __version__}},
    }


def opening_request(line: bytes) -> tuple[int | str, dict[str, Any]] | None:
    """(id, result) for an opening request the SDK accepts as it is, or None: anything this does not check
    leaves the request to the SDK (which may refuse it)."""
    if b'"initialize"' not in line and b'"server/discover"' not in line:
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or set(message) - {"jsonrpc", "id", "method", "params"}:
        return None
    request_id, method, params = message.get("id"), message.get("method"), message.get("params")
    if message.get("jsonrpc") != "2.0" or not _is_id(request_id) or not isinstance(params, dict):
        return None
    if method == "initialize" and params.get("_meta") is None and _initialize_checked(params):
        return request_id, initialize_answer(params)
    if method == "server/discover" and set(params) == {"_meta"} and _envelope_checked(params["_meta"]):
        return request_id, discover_answer()
    return None


def _method(line: bytes) -> str | None:
    """The method a line's JSON-RPC message names, if it is one."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    method = message.get("method") if isinstance(message, dict) else None
    return method if isinstance(method, str) else None


def _initialize_checked(params: dict[str, Any]) -> bool:
    return (
        isinstance(params.get("protocolVersion"), str)
        and _capabilities_checked(params.get("capabilities"))
        and _client_info_checked(params.get("clientInfo"))
    )


def _envelope_checked(meta: Any) -> bool:
    """A 2026-07-28 envelope the SDK serves: a version it speaks, client capabilities; nothing else in it."""
    return (
        isinstance(meta, dict)
        and set(meta) <= {PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY}
        and meta.get(PROTOCOL_VERSION_KEY) in MODERN_VERSIONS
        and CLIENT_CAPABILITIES_KEY in meta
        and _capabilities_checked(meta[CLIENT_CAPABILITIES_KEY])
        and (CLIENT_INFO_KEY not in meta or _client_info_checked(meta[CLIENT_INFO_KEY]))
    )


def _client_info_checked(info: Any) -> bool:
    return (
        isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
        and all(info.get(key) is None or isinstance(info[key], str) for key in ("title", "description", "websiteUrl"))
        and info.get("icons") is None
    )


def _capabilities_checked(capabilities: Any) -> bool:
    """ClientCapabilities as the SDK validates them, in the shapes clients send: every capability an object
    whose members are objects (or null), ``roots.listChanged`` a boolean; unknown capabilities are ignored
    there too."""
    if not isinstance(capabilities, dict):
        return False
    for name, value in capabilities.items():
        if name == "roots":
            if value is not None and not (
                isinstance(value, dict) and type(value.get("listChanged")) in (bool, type(None))
            ):
                return False
        elif name in ("experimental", "extensions"):
            if value is not None and not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
                return False
        elif name in ("sampling", "elicitation", "tasks") and not _objects_only(value):
            return False
    return True


def _objects_only(value: Any) -> bool:
    return value is None or (isinstance(value, dict) and all(_objects_only(member) for member in value.values()))


def tool_call(line: bytes) -> tuple[int | str | None, str | None, int | str | None] | None:
    """(id, tool name, progress token) of a ``tools/call`` request, each None when absent or not of its kind;
    None for any other line."""
    if b'"tools/call"' not in line:
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return None
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    meta = params.get("_meta")
    meta = meta if isinstance(meta, dict) else {}
    request_id, name, token = message.get("id"), params.get("name"), meta.get("progressToken")
    return (
        request_id if _is_id(request_id) else None,
        name if isinstance(name, str) else None,
        token if _is_id(token) else None,
    )


def _is_id(value: object) -> TypeGuard[int | str]:
    """A JSON-RPC id or progress token: a string or an integer (JSON's true is neither)."""
    return type(value) in (int, str)


@dataclass
class WaitingCall:
    """A ``tools/call`` read before the SDK served it, and its progress so far."""

    token: int | str
    #: when its line was read (``time.monotonic``)
    started: float
    #: whether it started the browser ahead: then that is what it waits for
    launching: bool
    #: the value of the last report sent, and when the next is due (seconds after ``started``)
    last: float = 0.0
    due: float = FIRST

    def report(self, now: float) -> dict[str, Any]:
        into = now - self.started
        value = max(round(into, 1), round(self.last + 0.1, 1))  # strictly rising, whatever the rounding
        params: dict[str, Any] = {"progressToken": self.token, "progress": value}
        if self.launching:
            from ..browser.embedded import LAUNCH_TIMEOUT  # loaded by now: the launch itself needs it

            params["total"] = LAUNCH_TIMEOUT
            params["message"] = f"starting tabsight's embedded browser ({into:.1f} s of at most {LAUNCH_TIMEOUT:g} s)"
        else:
            params["message"] = f"loading tabsight ({into:.1f} s)"
        self.last = value
        self.due += EVERY
        if self.due < into:  # a slow write: the next report comes a full interval after this one
            self.due = into + EVERY
        return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


class Early:
    """The lines read before the SDK's server serves: ``inspect`` (the reader's hook) answers the opening
    request and starts a browser ahead, until ``close``."""

    def __init__(self, write: Callable[[bytes], None], launch_ahead: Callable[[bool], None] | None = None) -> None:
        self._write = write
        #: starts the embedded browser (headless or not), in a thread of its own; None: never ahead
        self._launch_ahead = launch_ahead
        self._lock = threading.Condition()
        self._closed = False
        self._first = True
        self._launching = False
        #: id -> result of an opening request answered here, until the SDK's own answer to it is dropped
        self.answered: dict[int | str, dict[str, Any]] = {}
        #: id -> a call with a progress token read before the SDK served, until its handler takes it over
        self._waiting: dict[int | str, WaitingCall] = {}
        self._reporting = False
        #: set once the first line was read and the browser it started ahead (if any) spawned: ``main.py`` loads
        #: the SDK after that
        self.opened = threading.Event()

    @property
    def launching(self) -> bool:
        """Whether a browser was started ahead (``link_ahead`` links the session to it)."""
        return self._launching

    def inspect(self, line: bytes) -> None:
        with self._lock:
            if self._closed or not line.strip():
                return
            first, self._first = self._first, False
            if first:
                if (opening := opening_request(line)) is not None:
                    opening_id, result = opening
                    reply = {"jsonrpc": "2.0", "id": opening_id, "result": result}
                    self._write((json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
                    self.answered[opening_id] = result
                # (one left to the SDK, for a shape not checked here, is an opening request all the same)
                if not (_method(line) in OPENING_METHODS and self._start_ahead(at_opening=True)):
                    self.opened.set()
                return
            call = tool_call(line)
            if call is None:
                return
            request_id, name, token = call
            launching = name in BROWSER_TOOLS and self._start_ahead(at_opening=False)
            if request_id is not None and token is not None and request_id not in self._waiting:
                self._waiting[request_id] = WaitingCall(token, time.monotonic(), launching)
                if not self._reporting:
                    self._reporting = True
                    threading.Thread(target=self._report, name="tabsight progress", daemon=True).start()
                self._lock.notify_all()

    def _start_ahead(self, at_opening: bool) -> bool:
        """Start the embedded browser in a thread of its own, once, if the configuration makes it the browser
        calls use; whether it did."""
        if self._launching or self._launch_ahead is None:
            return False
        try:
            configuration = config.current()
            mode = configuration[config.TABSIGHT_BROWSER]
            wanted = configuration[config.TABSIGHT_START_AHEAD] or not at_opening
        except BrowserError:
            return False  # a value it does not take: the session says what is wrong
        if mode not in ("auto", "headed") or not wanted:  # never: no browser of ours
            return False
        self._launching = True
        threading.Thread(target=self._launch, args=(mode == "auto",), name="tabsight launch", daemon=True).start()
        return True

    def _launch(self, headless: bool) -> None:
        assert self._launch_ahead is not None
        try:
            self._launch_ahead(headless)
        finally:
            self.opened.set()

    def _report(self) -> None:
        """Sends the waiting calls' reports as they fall due, until none waits."""
        with self._lock:
            while self._waiting:
                now = time.monotonic()
                call = min(self._waiting.values(), key=lambda waiting: waiting.started + waiting.due)
                wait = call.started + call.due - now
                if wait > 0:
                    self._lock.wait(wait)  # woken early when a call comes, is taken over or is answered
                    continue
                self._write((json.dumps(call.report(now), ensure_ascii=False, separators=(",", ":")) + "\n").encode())
            self._reporting = False

    def take(self, request_id: Any) -> WaitingCall | None:
        """The call's progress so far, for its handler, which reports from now on; None if it had none here."""
        with self._lock:
            call = self._waiting.pop(request_id, None) if type(request_id) in (int, str) else None
            self._lock.notify_all()
            return call

    def settled(self, request_id: Any) -> None:
        """The call is answered (before its handler ran, or after): no report of it is sent any more."""
        self.take(request_id)

    def close(self) -> None:
        """The SDK's server reads the lines from now on, and answers every request."""
        with self._lock:
            self._closed = True

    def drop(self, request_id: Any, result: dict[str, Any] | None, error: Any = None) -> bool:
        """Whether an answer of the SDK's is to an opening request answered here (it is not sent again); an
        answer that differs from the one sent is logged."""
        if isinstance(request_id, bool) or request_id not in self.answered:
            return False
        sent = self.answered.pop(request_id)
        if result != sent:
            log.warning(
                "the opening request (id %s) was answered ahead of the SDK, which answers it otherwise: %s",
                json.dumps(request_id),
                json.dumps(result if error is None else error)[:500],
            )
        return True
