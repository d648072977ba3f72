"""Who is on the other end of a Unix socket: the peer's uid, from the kernel."""

from __future__ import annotations

import socket
import struct
import sys


def peer_uid(sock: socket.socket) -> int:
    """The connecting process's effective uid (SO_PEERCRED / LOCAL_PEERCRED)."""
    if sys.platform.startswith("linux"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        return uid
    # BSD/macOS: struct xucred {u_int cr_version; uid_t cr_uid; ...}, level SOL_LOCAL (0).
    local_peercred = getattr(socket, "LOCAL_PEERCRED", 0x001)
    creds = sock.getsockopt(0, local_peercred, struct.calcsize("2I") + 16 * 4 + 4)
    _version, uid = struct.unpack_from("2I", creds)
    return uid
