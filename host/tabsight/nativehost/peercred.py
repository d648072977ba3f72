"""Who is on the other end of a Unix socket, from the kernel: the peer process's uid and pid."""

from __future__ import annotations

import socket
import struct
import sys
from typing import NamedTuple


class Peer(NamedTuple):
    """The connecting (or listening) process: its effective uid, and its pid as this process's pid namespace
    sees it (0 when it is in no namespace of ours, as a container's host seen from inside; None where the
    kernel does not tell, on the BSDs)."""

    uid: int
    pid: int | None


def peer(sock: socket.socket) -> Peer:
    """The process at the other end of ``sock`` (SO_PEERCRED / LOCAL_PEERCRED)."""
    if sys.platform.startswith("linux"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, _gid = struct.unpack("3i", creds)
        return Peer(uid, pid)
    # BSD/macOS: struct xucred {u_int cr_version; uid_t cr_uid; ...}, level SOL_LOCAL (0).
    local_peercred = getattr(socket, "LOCAL_PEERCRED", 0x001)
    creds = sock.getsockopt(0, local_peercred, struct.calcsize("2I") + 16 * 4 + 4)
    _version, uid = struct.unpack_from("2I", creds)
    pid = None
    if sys.platform == "darwin":  # LOCAL_PEERPID (sys/un.h); the BSDs have no such option
        pid = struct.unpack("i", sock.getsockopt(0, 0x002, struct.calcsize("i")))[0]
    return Peer(uid, pid)
