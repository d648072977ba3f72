"""The stdio transport of ``tabsight mcp``: one JSON-RPC message a line, every request answered.

The SDK's ``stdio_server`` hands a line it cannot parse to the server as an
exception, which the server drops with a debug log: a request nested deeper
than the parser's recursion limit, one with a lone surrogate, invalid UTF-8,
a JSON array or a request without ``method`` got no answer at all, and the
client waited forever. Its writer also died on an answer holding a lone
surrogate (pydantic cannot encode one as UTF-8), taking the session down.

This transport reads stdin as bytes, checks each line before the SDK sees
it (size, UTF-8, then the SDK's own parse; on a failure, why: nesting depth,
a lone surrogate, the JSON-RPC shape) and answers what it refuses itself:
``-32700`` (parse error) for what is not JSON text, ``-32600`` (invalid
request) for JSON that is not one acceptable message, with the request's id
whenever the line shows it, plus a log line on stderr naming the refusal and
quoting at most the start of the line; errors the SDK answers itself are
logged too. Messages that pass go to the SDK's server unchanged. Answers
that cannot be encoded as they are get their lone surrogates replaced by
U+FFFD. At the end of stdin, requests in flight are answered before the
server is told (the SDK would cancel them); not those the client cancelled,
nor the ``subscriptions/listen`` streams it holds open.

Stdin is read by ``lines.LinePump``, which ``tabsight mcp`` starts before it
imports the SDK (``handshake.py`` answers the opening request meanwhile;
the SDK's own answer to it is dropped here). Reads and writes block in daemon threads
(the pump's, and ``blocking``), not in anyio's worker threads: the
interpreter waits for those at exit, so a read left waiting on a stdin the
client keeps open held a stopped server (SIGINT, SIGTERM) in place until the
client closed it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import select
import threading
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import BinaryIO

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from mcp_types import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR
from pydantic import ValidationError

from .handshake import Early
from .lines import MAX_LINE_BYTES, LinePump, claim_stdio, write_line

log = logging.getLogger("tabsight.stdio")

#: the deepest nesting the SDK's parser reads (pydantic's JSON parser stops there)
PARSER_DEPTH = 200
#: how much of a refused line a log line quotes
QUOTE_CHARS = 160
#: at the end of stdin, how long requests still in flight may take to be answered (while stdout is read):
#: ``echo REQUEST | tabsight mcp`` gets its answer; the SDK alone cancels them when its input ends
EOF_GRACE_SECONDS = 120


@dataclass
class Refusal:
    """A line that is answered with a JSON-RPC error instead of reaching the server."""

    code: int
    message: str
    id: int | str | None
    line: str  # the start of the line, for the log

    def answer(self) -> SessionMessage:
        return SessionMessage(
            types.JSONRPCError(jsonrpc="2.0", id=self.id, error=types.ErrorData(code=self.code, message=self.message))
        )

    def log(self) -> None:
        which = "no id" if self.id is None else f"id {json.dumps(self.id)}"
        log.warning("refused a message (%s): error %d %s; it began %s", which, self.code, self.message, self.line)


def quoted(text: str, limit: int = QUOTE_CHARS) -> str:
    """The start of a line, as a JSON string of ASCII only (no raw bytes, no surrogates reach stderr)."""
    cut = text[:limit]
    return json.dumps(cut) + (f" ... ({len(text):,} characters)" if len(text) > limit else "")


# ---- a scan of the raw text: nesting depth and the top-level "id", without recursion ----

_TOKEN = re.compile(r'["\[\]{},:]')
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # from just after the opening quote
_ID_VALUE = re.compile(r'\s*(?:(-?\d+)(?![.\deE])|("[^"\\]*(?:\\.[^"\\]*)*"))', re.DOTALL)
_LONE_SURROGATE = re.compile(
    r"(?<!\\)(?:\\\\)*(\\u[dD][89abAB][0-9a-fA-F]{2})(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})(?<!\\)(?:\\\\)*(\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)


@dataclass
class Scan:
    depth: int  # the deepest nesting seen
    id: int | str | None  # the top-level object's "id", when it is a string or an integer
    has_id: bool  # the top-level object has an "id", of any kind
    first: str  # the first character that is not blank


def scan(text: str) -> Scan:
    """How deep ``text`` nests and the id of its top-level object, as far as the text allows.

    Walks only the structural characters (strings are skipped by one regular
    expression each), so a 10,000-deep or 8 MB line costs no recursion.
    """
    stripped = text.lstrip()
    first = stripped[:1]
    depth = deepest = 0
    found_id: int | str | None = None
    has_id = False
    expect_key = False  # at depth 1 of an object, the next string is a key
    key = None
    pos = 0
    while (match := _TOKEN.search(text, pos)) is not None:
        char = match.group()
        pos = match.end()
        if char == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break  # unterminated string: nothing more to learn
            if depth == 1 and first == "{" and expect_key:
                try:
                    key = json.loads(text[pos - 1 : rest.end()])
                except ValueError:
                    key = None
            pos = rest.end()
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            expect_key = depth == 1 and char == "{"
        elif char in "]}":
            depth -= 1
        elif char == ",":
            expect_key = depth == 1
            key = None
        else:  # ":"
            if depth == 1 and key == "id" and not has_id:
                has_id = True
                found_id = _id_value(text, pos)
            expect_key = False
            key = None
    return Scan(depth=deepest, id=found_id, has_id=has_id, first=first)


def _id_value(text: str, pos: int) -> int | str | None:
    """The JSON-RPC id starting at ``pos``: a string or an integer, else None."""
    match = _ID_VALUE.match(text, pos)
    if match is None:
        return None
    if match.group(1) is not None:
        return int(match.group(1)) if len(match.group(1)) <= 30 else None
    try:
        value = json.loads(match.group(2))
    except ValueError:
        return None
    return None if _has_surrogate(value) else value


def _has_surrogate(value: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in value)


# ---- one line: a message for the server, a refusal, or nothing ----


def read_message(line: bytes, size: int | None = None) -> SessionMessage | Refusal | None:
    """What one line of stdin is. ``size`` is the line's whole length when only its head was kept."""
    if not line.strip():
        return None  # a blank line is no message
    if size is not None and size > MAX_LINE_BYTES:
        why = f"Invalid request: the line is {size:,} bytes, over the limit of {MAX_LINE_BYTES:,}"
        return _raw_refusal(INVALID_REQUEST, why, line)
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)  # the bytes: UTF-8 checked too
    except ValidationError as err:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as bad:
            why = f"Parse error: not UTF-8 (byte 0x{line[bad.start]:02x} at offset {bad.start})"
            return _raw_refusal(PARSE_ERROR, why, line)
        return _refusal(text, scan(text), err)
    if isinstance(message, types.JSONRPCNotification) and b'"id"' in line:
        text = line.decode("utf-8")
        if scan(text).has_id:  # an id that is neither a string nor an integer made a request a notification
            return Refusal(INVALID_REQUEST, "Invalid request: id must be a string or an integer", None, quoted(text))
    return SessionMessage(message)


def _raw_refusal(code: int, message: str, line: bytes) -> Refusal:
    """A refusal of bytes that are not (all) UTF-8: the id and the quote come from what can be read."""
    loose = line.decode("utf-8", errors="replace")
    return Refusal(code, message, scan(loose).id, quoted(loose))


def _refusal(text: str, found: Scan, err: ValidationError) -> Refusal:
    errors = err.errors(include_url=False, include_input=False)
    if any(error["type"] == "json_invalid" for error in errors):
        if any("recursion limit" in str(error["msg"]) for error in errors):
            why = f"nested {found.depth:,} levels deep; at most {PARSER_DEPTH} are read"
            return Refusal(INVALID_REQUEST, f"Invalid request: {why}", found.id, quoted(text))
        surrogate = _LONE_SURROGATE.search(text)
        if surrogate:
            group = 1 if surrogate.group(1) else 2
            why = f"a lone surrogate {surrogate.group(group)} at character {surrogate.start(group)} (strings must be valid Unicode)"
        else:
            why = str(errors[0]["msg"]).removeprefix("Invalid JSON: ")
        return Refusal(PARSE_ERROR, f"Parse error: {why}"[:300], found.id, quoted(text))
    request_id = found.id
    if found.first == "[":
        why = "a JSON array (batches are not supported: send one JSON object a line)"
    elif found.first != "{":
        why = "not a JSON object"
    else:
        try:
            keys = json.loads(text)  # valid JSON (the parser said so), at most PARSER_DEPTH deep
        except ValueError:  # a number longer than Python reads (4,300 digits)
            keys = {}
        if "method" in keys:
            # what is wrong with it as a request or a notification (not as the answers the union also tries)
            problems = dict.fromkeys(
                f"{'.'.join(str(part) for part in error['loc'][1:]) or 'message'}: {error['msg']}"
                for error in errors
                if error["loc"] and error["loc"][0] in ("JSONRPCRequest", "JSONRPCNotification")
            )
            why = "; ".join(list(problems)[:3]) or "not a JSON-RPC request"
        elif "result" in keys or "error" in keys:
            # a malformed answer to one of the server's requests: its id is the server's, not a client request's
            request_id = None
            why = "a malformed answer (a result must be an object; an error needs code and message)"
        else:
            why = "no method"
    return Refusal(INVALID_REQUEST, f"Invalid request: {why}"[:300], request_id, quoted(text))


# ---- answers: written whole, one a line, whatever they hold ----


def encode_answer(message: SessionMessage) -> bytes:
    """One line of UTF-8 JSON. Lone surrogates (which UTF-8 cannot carry) become U+FFFD."""
    try:
        return (message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")
    except Exception:  # noqa: BLE001 - pydantic's encoder refuses lone surrogates; anything else falls back too
        pass
    request_id = getattr(message.message, "id", None)
    try:
        data = message.message.model_dump(mode="json", by_alias=True, exclude_unset=True)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        text, replaced = re.subn("[\ud800-\udfff]", "\ufffd", text)
        log.warning(
            "the answer to id %s held %d lone surrogate(s); sent with U+FFFD instead", json.dumps(request_id), replaced
        )
        return (text + "\n").encode("utf-8")
    except Exception as err:  # noqa: BLE001 - the request is answered all the same
        log.warning("the answer to id %s could not be encoded (%s); sent an error instead", json.dumps(request_id), err)
        if request_id is None or not isinstance(message.message, (types.JSONRPCResponse, types.JSONRPCError)):
            return b""
        error = types.JSONRPCError(
            jsonrpc="2.0",
            id=request_id,
            error=types.ErrorData(code=INTERNAL_ERROR, message="the answer could not be encoded"),
        )
        return (error.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")


# ---- the transport ----


async def blocking(func, *args):
    """``func(*args)`` in a daemon thread of its own; when the caller is cancelled, the thread is left behind.

    A read of a stdin that stays open, or a write to a client that stopped reading, may never return:
    anyio's worker threads are joined when the interpreter exits, a daemon thread is not.
    """
    loop = asyncio.get_running_loop()
    outcome = loop.create_future()

    def settle(ok: bool, value) -> None:
        if outcome.done():
            return  # the caller was cancelled
        if ok:
            outcome.set_result(value)
        else:
            outcome.set_exception(value)

    def run() -> None:
        try:
            ok, value = True, func(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            ok, value = False, exc
        try:
            loop.call_soon_threadsafe(settle, ok, value)
        except RuntimeError:
            pass  # the loop has ended: nobody waits for this any more

    threading.Thread(target=run, name="tabsight stdio", daemon=True).start()
    return await outcome


@asynccontextmanager
async def stdio_transport(
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    pump: LinePump | None = None,
    early: Early | None = None,
):
    """Serve MCP over stdin and stdout (binary streams): yields the server's read and write streams.

    Without streams, the process's own are claimed (``lines.claim_stdio``) and restored on exit. ``pump`` is
    stdin's reader when one already reads it (``tabsight mcp`` starts it before the SDK loads), and ``early``
    what answered the opening request meanwhile.
    """
    release = None
    try:
        if stdin is None or stdout is None:
            stdin, stdout, release = claim_stdio()
        lines = pump or LinePump(stdin)
        to_server, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_stream, from_server = anyio.create_memory_object_stream[SessionMessage](0)
        answers = write_stream.clone()  # the reader's own refusals go out through the one writer
        methods = _Methods()  # requests passed to the server, so that an error it answers is logged by name

        async def reader() -> None:
            if early is not None:
                early.close()  # the server reads from here on: it answers everything
            try:
                async with to_server, answers:
                    while (read := await blocking(lines.get)) is not None:
                        try:
                            item = read_message(*read)
                        except Exception as err:  # noqa: BLE001 - a line that breaks the checks is refused, not fatal
                            item = Refusal(
                                PARSE_ERROR,
                                f"Parse error: the line could not be read ({type(err).__name__})",
                                None,
                                quoted(read[0][:QUOTE_CHARS].decode("utf-8", "replace")),
                            )
                        if isinstance(item, Refusal):
                            item.log()
                            await answers.send(item.answer())
                        elif item is not None:
                            methods.passed(item.message)
                            await to_server.send(item)
                    await methods.drained(stdout, EOF_GRACE_SECONDS)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                log.debug("the server stopped reading")

        async def writer() -> None:
            try:
                async with from_server:
                    async for message in from_server:
                        methods.answered(message.message)
                        if early is not None and _answered_early(early, message.message):
                            continue
                        data = encode_answer(message)
                        if data:
                            await blocking(write_line, stdout, data)
            except anyio.ClosedResourceError:
                log.debug("the answers' stream closed")

        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            yield read_stream, write_stream
    finally:
        if release is not None:
            release()


def _answered_early(early: Early, message) -> bool:
    """Whether this answer of the SDK's is to an opening request that ``early`` answered already. Any answer
    also ends the progress reports ``early`` sends for a call it read (the SDK may answer one without running
    its handler)."""
    if isinstance(message, types.JSONRPCResponse):
        early.settled(message.id)
        return early.drop(message.id, message.result)
    if isinstance(message, types.JSONRPCError):
        early.settled(message.id)
        return early.drop(message.id, None, message.error.model_dump(mode="json", exclude_none=True))
    return False


class _Methods:
    """The method of each request the server has not answered yet (at most MAX_PENDING, oldest dropped).

    A request the client cancelled (``notifications/cancelled``) is never answered: it is forgotten.
    """

    MAX_PENDING = 10_000
    #: requests whose answer ends a stream the client holds open (2026-07-28 ``subscriptions/listen``):
    #: the end of stdin does not wait for them
    STREAMS = frozenset({"subscriptions/listen"})

    def __init__(self) -> None:
        self._pending: dict[int | str, str] = {}

    def passed(self, message) -> None:
        if isinstance(message, types.JSONRPCRequest):
            self._pending[message.id] = message.method
            if len(self._pending) > self.MAX_PENDING:
                del self._pending[next(iter(self._pending))]
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, (int, str)):
                self._pending.pop(cancelled, None)

    def _awaited(self) -> bool:
        return any(method not in self.STREAMS for method in self._pending.values())

    async def drained(self, stdout: BinaryIO, grace: float) -> None:
        """Waits until every request passed has been answered (streams aside), ``grace`` seconds at most,
        and not at all once nobody reads stdout any more."""
        deadline = anyio.current_time() + grace
        while self._awaited() and anyio.current_time() < deadline and not reader_gone(stdout):
            await anyio.sleep(0.05)

    def answered(self, message) -> None:
        """Logs an error the server answered a request with (the SDK logs none of its own)."""
        if not isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) or message.id is None:
            return
        method = self._pending.pop(message.id, None)
        if method is not None and isinstance(message, types.JSONRPCError):
            log.warning(
                "refused %s (id %s): error %d %s%s",
                quoted(method, 60),
                json.dumps(message.id),
                message.error.code,
                quoted(message.error.message, 200),
                f", {quoted(str(message.error.data), 200)}" if message.error.data else "",
            )


def reader_gone(stream: BinaryIO) -> bool:
    """Has the other end of this pipe or socket closed (no one will read what is written)?"""
    if not hasattr(select, "poll"):  # pragma: no cover - Windows: no poll on pipes; wait out the grace
        return False
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(fd, 0)  # POLLERR and POLLHUP are reported whatever the mask
    return any(event & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _fd, event in poller.poll(0))
