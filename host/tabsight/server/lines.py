"""The stdio wire of ``tabsight mcp`` without the MCP SDK: stdin and stdout claimed, and stdin read from the start.

``tabsight mcp`` claims both streams and starts reading stdin before it imports the SDK (about 0.6 s of a cold
start), so that ``initialize`` is answered and a browser started while that import runs (``handshake.py``);
``stdio.py``, the transport the SDK's server is served through, then takes its lines from the same reader.

Like the SDK's ``stdio_server``, serving moves the wire to descriptors of its own: fd 0 then reads the null
device and fd 1 writes to stderr, so that children and stray prints miss the wire; ``release`` puts them back.
"""

from __future__ import annotations

import collections
import io
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO, cast

log = logging.getLogger("tabsight.stdio")

#: the longest line read; past it the rest of the line is skipped unread into memory and the request refused.
#: Nothing a client sends needs more: a request bound for the browser is capped at 1 MB by Chrome.
MAX_LINE_BYTES = 8 * 1024 * 1024
#: how much of a refused line is kept to recover its id when the line is over MAX_LINE_BYTES
HEAD_BYTES = 64 * 1024
SKIP_CHUNK = 1024 * 1024  # how the rest of a line over the limit is read, and dropped


def claim_stdio() -> tuple[BinaryIO, BinaryIO, Callable[[], None]]:
    """The wire's stdin and stdout on private descriptors, fd 0 and 1 diverted; and what puts them back.

    Where descriptors cannot be moved (Windows), the standard streams are served in place.
    """
    if sys.platform == "win32":
        return sys.stdin.buffer, sys.stdout.buffer, lambda: None
    import fcntl

    moved: list[tuple[int, int]] = []
    streams: list[BinaryIO] = []
    for fd, mode, diversion in ((0, "rb", _null_input), (1, "wb", _stderr_output)):
        private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
        moved.append((fd, private))
        divert = diversion()
        os.dup2(divert, fd)
        os.close(divert)
        # never closed: a daemon thread may still block on it when the process ends
        streams.append(cast(BinaryIO, os.fdopen(private, mode, closefd=False)))

    def release() -> None:
        for fd, private in moved:
            try:
                os.dup2(private, fd)
            except OSError:
                pass

    return streams[0], streams[1], release


def _null_input() -> int:
    return os.open(os.devnull, os.O_RDONLY)


def _stderr_output() -> int:
    try:
        return os.dup(2)
    except OSError:
        return os.open(os.devnull, os.O_WRONLY)


class LinePump:
    """The lines of a binary stream, read in a daemon thread of its own for the whole session.

    Each line comes with its whole size; a line over MAX_LINE_BYTES comes as its head, the rest skipped unread
    into memory. ``inspect``, when set, sees each line in the reader's thread as soon as it is read, before it
    is handed on (``handshake.Early``). Reading runs ahead of the consumer by less than MAX_LINE_BYTES of
    lines, so that the lines that follow ``initialize`` are seen while the SDK is still loading. A daemon
    thread, not a worker the interpreter joins at exit: a read left waiting on a stdin the client keeps open
    must not hold a stopped server in place.
    """

    def __init__(self, source: BinaryIO, inspect: Callable[[bytes], None] | None = None) -> None:
        self._source = io.BufferedReader(source) if isinstance(source, io.RawIOBase) else source
        self.inspect = inspect
        self._lines: collections.deque[tuple[bytes, int] | None | BaseException] = collections.deque()
        self._held = 0  # bytes of the lines read and not yet taken
        self._changed = threading.Condition()
        threading.Thread(target=self._run, name="tabsight stdin", daemon=True).start()

    def get(self) -> tuple[bytes, int] | None:
        """The next line (without its newline) and its whole size, or None at the end; blocks until there is one."""
        with self._changed:
            while not self._lines:
                self._changed.wait()
            item = self._lines.popleft()
            if isinstance(item, tuple):
                self._held -= len(item[0])
            self._changed.notify_all()
        if isinstance(item, BaseException):
            raise item
        return item

    def _put(self, item: tuple[bytes, int] | None | BaseException) -> None:
        with self._changed:
            while self._held >= MAX_LINE_BYTES:
                self._changed.wait()
            if isinstance(item, tuple):
                self._held += len(item[0])
            self._lines.append(item)
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            while (read := self._next()) is not None:
                if self.inspect is not None:
                    try:
                        self.inspect(read[0])
                    except Exception:  # a look at a line never stops the reading (logged with its traceback)
                        log.exception("could not look at a line ahead of the server")
                self._put(read)
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            self._put(exc)
            return
        self._put(None)

    def _next(self) -> tuple[bytes, int] | None:
        line = self._source.readline(MAX_LINE_BYTES + 1)
        if not line:
            return None
        if line.endswith(b"\n"):
            return line[:-1], len(line) - 1
        if len(line) <= MAX_LINE_BYTES:
            return line, len(line)  # the last line, without a newline
        # too long: keep its head, count and skip the rest as it comes
        head, size = line[:HEAD_BYTES], len(line)
        del line
        while more := self._source.readline(SKIP_CHUNK):
            if more.endswith(b"\n"):
                return head, size + len(more) - 1
            size += len(more)
        return head, size


def write_line(stdout: BinaryIO, data: bytes) -> None:
    stdout.write(data)
    stdout.flush()
