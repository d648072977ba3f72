"""A front's connection to one host: hello, then requests matched by id."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import BrowserError, Code
from ..limits import PROTOCOL_VERSION
from ..nativehost.peercred import peer
from ..paths import open_only_to
from ..protocol import frames
from ..protocol.channel import FrameChannel
from ..protocol.framing import MAX_FRAME, FrameTooLarge
from ..settings import peer_uids

log = logging.getLogger("tabsight.front")


class HostLink:
    """One open connection to a host. Dies with the host; never reconnects itself."""

    def __init__(self, channel: FrameChannel, hello: frames.Hello, path: Path, forwarded: bool = False) -> None:
        self._channel = channel
        self.hello = hello
        self.path = path
        #: the host is not the process at the socket's other end: an ``ssh -R`` forward (sshd listens here), or a
        #: host outside this pid namespace (a container's bind-mounted runtime folder). Its files are not ours.
        self.forwarded = forwarded
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: called with (event, data) for each event the host sends (alerts)
        self.on_event: Callable[[str, dict[str, Any]], None] | None = None
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, path: Path, session: str, timeout: float = 2.0, client: str = "") -> HostLink:
        """The link to the host at ``path``; ``BrowserError`` ``forbidden`` when another user's process serves
        that socket (nothing is sent to it) or the host refuses this front's user. A uid the user's settings file
        lists under ``peer_uids`` counts as the user's own (a browser's user's host, seen from a container)."""
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path), limit=MAX_FRAME), timeout)
        uid, pid = peer(writer.get_extra_info("socket"))
        if uid != os.getuid() and uid not in peer_uids():
            # the host checks a front's uid likewise: the session's hello, its requests and the pages it is
            # shown go to no one else's process, whoever put that socket there
            writer.close()
            raise BrowserError(
                Code.FORBIDDEN,
                f"{path} is served by a process of uid {uid}, not of yours "
                f"({os.getuid()}): tabsight refused it and sent it nothing. Remove that socket; "
                "only your own browser's host may answer there (or, if it is the host of your browser's user, "
                f"shared with you on purpose, list uid {uid} under peer_uids in your tabsight settings file: "
                "docs/remote.md).",
            )
        problem = open_to_others(path)
        if problem:
            writer.close()
            raise BrowserError(Code.FORBIDDEN, problem)
        channel = FrameChannel(reader, writer, name=f"host {path.name}")
        try:
            try:
                await channel.send(
                    frames.Hello(role="front", version=__version__, session=session, client=client or None)
                )
            except ConnectionError:
                pass  # a host that refuses this uid says why at once and closes: its word is read below
            hello = await asyncio.wait_for(channel.receive(), timeout)
        except BaseException:
            channel.close()
            raise
        if hello is None:  # closed before a word: nothing behind it (a forward whose far end is gone)
            channel.close()
            raise ConnectionResetError(f"{path} closed without a hello")
        if isinstance(hello, frames.Error):
            channel.close()
            raise BrowserError(hello.error.code, hello.error.message)
        if not isinstance(hello, frames.Hello) or hello.role != "host":
            channel.close()
            raise BrowserError(Code.BAD_FRAME, f"{path} did not answer like a tabsight host")
        if hello.protocol != PROTOCOL_VERSION:
            channel.close()
            raise BrowserError(
                Code.VERSION_MISMATCH,
                f"the browser's tabsight host speaks protocol {hello.protocol}, this front {PROTOCOL_VERSION}: "
                "restart the browser so that it starts the installed host",
            )
        return cls(channel, hello, path, forwarded=pid is not None and pid != hello.pid)

    @property
    def alive(self) -> bool:
        return not self._reader.done()

    @property
    def profile_id(self) -> str:
        return self.hello.extension.profile_id if self.hello.extension else ""

    async def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Ask the browser; the result object, or BrowserError.

        The host enforces ``timeout``; the local wait has a margin on top so a
        host that died silently still yields an error. Cancelling the caller
        tells the host, which tells the extension to release what it holds.
        """
        if not self.alive:
            raise BrowserError(Code.DISCONNECTED, "The connection to the browser is closed.")
        request_id = str(next(self._ids))
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        try:
            await self._channel.send(
                frames.Request(id=request_id, method=method, params=params or {}, timeout_ms=int(timeout * 1000))
            )
            return await asyncio.wait_for(asyncio.shield(future), timeout + 5)
        except asyncio.TimeoutError:
            raise BrowserError(Code.TIMEOUT, f"no answer from the browser within {timeout:g} s") from None
        except (ConnectionError, FrameTooLarge) as exc:
            raise BrowserError(Code.DISCONNECTED, f"lost the browser connection: {exc}") from None
        except asyncio.CancelledError:
            if not future.done() and self.alive:
                self._channel.post(frames.Cancel(id=request_id))
            raise
        finally:
            self._waiting.pop(request_id, None)

    async def _read(self) -> None:
        try:
            while True:
                frame = await self._channel.receive()
                if frame is None:
                    break
                if isinstance(frame, frames.Event):
                    if self.on_event:
                        self.on_event(frame.event, frame.data)
                    continue
                if isinstance(frame, (frames.Response, frames.Error)) and frame.id in self._waiting:
                    future = self._waiting[frame.id]
                    if future.done():
                        continue
                    if isinstance(frame, frames.Response):
                        future.set_result(frame.result)
                    else:
                        future.set_exception(BrowserError(frame.error.code, frame.error.message))
        except (ConnectionError, FrameTooLarge) as exc:
            log.warning("host connection %s broken: %s", self.path.name, exc)
        finally:
            self._channel.close()
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(
                        BrowserError(
                            Code.DISCONNECTED, "Lost the connection to the browser while it was working on this call."
                        )
                    )

    async def close(self) -> None:
        self._channel.close()
        self._reader.cancel()
        try:
            await self._reader
        except asyncio.CancelledError:
            pass


def open_to_others(path: Path) -> str:
    """Why the socket at ``path`` must not be used: open to other users (a forward's socket made with a loose
    ``StreamLocalBindMask``, a socket chmod-ed), who could then drive the browser too; '' when it is not (the
    user's alone, or opened by ACL to the uids the settings file lists, as a host does: nativehost/sharing.py)."""
    try:
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return ""  # gone meanwhile: the connection attempt says so
    if not mode & 0o077 or open_only_to(path, mode, peer_uids() | {os.getuid()}, writable=True):
        return ""
    return (
        f"{path} is open to other users (mode {mode:04o}): whoever can reach it could drive your browser, so "
        "tabsight does not use it. A forward's socket: set StreamLocalBindMask 0177 (OpenSSH's default) in the "
        f"sshd_config of this machine and forward again; else `chmod 600 {path}`"
    )
