"""Finding the hosts that are running: one socket each in the runtime folder."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
from collections.abc import Set
from pathlib import Path

from ..errors import BrowserError, Code
from ..paths import host_socket_paths
from ..protocol import frames
from .link import HostLink

log = logging.getLogger("tabsight.front")


async def connect_all(
    session: str,
    timeout: float = 1.0,
    skip: Set[Path] = frozenset(),
    client: str = "",
) -> list[HostLink]:
    """Open a link to every live host, as ``session`` of MCP client ``client``. Sockets left by a host that died
    (kill -9) are removed. A socket served by another user's process, or a host that refuses this user, raises
    ``BrowserError`` ``forbidden`` (once the others are closed): it is said, not passed over for the next browser,
    since in a folder only the user can write it means someone is where only the user's hosts should be. So is
    a socket this user may not open (a host of the browser's user, seen from a container, that has not let this
    uid in). A forward whose far end is gone (``ssh -R`` to a browser that is closed) is passed over quietly:
    it comes back by itself when the browser does."""
    refusals: list[BrowserError] = []

    async def attempt(path: Path) -> HostLink | None:
        try:
            return await HostLink.open(path, session, timeout, client)
        except OSError as exc:
            if exc.errno in (errno.ECONNREFUSED, errno.ENOENT):
                path.unlink(missing_ok=True)  # nobody listens: a dead host's leftover
            elif exc.errno in (errno.EACCES, errno.EPERM):
                refusals.append(BrowserError(Code.FORBIDDEN, not_let_in(path)))
            elif exc.errno in (errno.ECONNRESET, errno.EPIPE):
                log.debug("host %s: nothing answers behind it (a forward whose far end is gone?)", path.name)
            else:
                log.warning("cannot reach host %s: %s", path.name, exc)
        except BrowserError as exc:
            if exc.code is Code.FORBIDDEN:
                refusals.append(exc)
            log.warning("host %s: %s", path.name, exc)
        except asyncio.TimeoutError as exc:
            log.warning("host %s: %s", path.name, exc)
        return None

    links = [
        link
        for link in await asyncio.gather(*(attempt(p) for p in host_socket_paths() if p not in skip))
        if link is not None
    ]
    if refusals:
        for link in links:
            await link.close()
        raise refusals[0]
    return links


def not_let_in(path: Path) -> str:
    """Why a host's socket this user may not open cannot be used, and who can change that."""
    uid = os.getuid()
    return (
        f"{path} may not be opened by your uid ({uid}): it is the host of another user's browser that has not let "
        f"you in. If that browser is yours (this agent runs in a container or as another user), list {uid} under "
        "peer_uids in tabsight's settings file on the browser's side and restart the browser (docs/remote.md)"
    )


async def probe_hosts(timeout: float = 1.0) -> list[tuple[Path, frames.Hello, bool]]:
    """Each running host's socket, hello, and whether it is forwarded (``HostLink.forwarded``), for ``doctor``."""
    links = await connect_all("doctor", timeout)
    try:
        return [(link.path, link.hello, link.forwarded) for link in links]
    finally:
        for link in links:
            await link.close()
