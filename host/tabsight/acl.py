"""POSIX access ACLs on Linux, just enough to open a folder and a socket to a few named uids (``settings.peer_uids``).

An ACL is the ``system.posix_acl_access`` extended attribute: a version (2), then entries of tag, permission bits
and id (``acl_ea_entry``, little-endian, as the kernel's ``posix_acl_xattr.h`` lays it out), sorted by tag then id.
With named entries the mode's group bits show the mask, which bounds every named entry: a chmod rewrites that mask,
so ``grant`` is applied after every chmod of ours.
"""

from __future__ import annotations

import errno
import os
import struct
from pathlib import Path

ATTRIBUTE = "system.posix_acl_access"
VERSION = 2
ENTRY = struct.Struct("<HHI")
USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
UNDEFINED_ID = 0xFFFFFFFF
READ, WRITE, EXECUTE = 4, 2, 1


class Unsupported(OSError):
    """This system or file system keeps no POSIX ACLs."""


def grant(path: Path, uids: frozenset[int] | set[int], permission: int) -> None:
    """Give each of ``uids`` ``permission`` (bits of READ, WRITE, EXECUTE) on ``path``, and its owner's bits as
    they are; group and others keep none. An empty ``uids`` leaves the mode's own bits alone (no ACL)."""
    if not hasattr(os, "setxattr"):
        raise Unsupported("POSIX ACLs are not available on this system")
    mode = os.stat(path).st_mode
    owner = (mode >> 6) & 7
    entries = [(USER_OBJ, owner, UNDEFINED_ID)]
    entries += [(USER, permission, uid) for uid in sorted(uids)]
    entries += [(GROUP_OBJ, 0, UNDEFINED_ID), (MASK, permission if uids else 0, UNDEFINED_ID), (OTHER, 0, UNDEFINED_ID)]
    blob = struct.pack("<I", VERSION) + b"".join(ENTRY.pack(*entry) for entry in entries)
    try:
        os.setxattr(path, ATTRIBUTE, blob, follow_symlinks=False)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.ENOTSUP):
            raise Unsupported(f"{path}'s file system keeps no POSIX ACLs") from None
        raise


def named_users(path: Path) -> dict[int, int] | None:
    """The uids an ACL on ``path`` names, each with its effective bits (bounded by the mask), when the ACL opens
    ``path`` to nobody else (its group and others get nothing, no group is named); ``{}`` without an ACL, ``None``
    when the ACL opens it to a group or to others."""
    try:
        blob = os.getxattr(path, ATTRIBUTE, follow_symlinks=False)
    except (AttributeError, OSError):
        return {}
    if len(blob) < 4 or struct.unpack_from("<I", blob)[0] != VERSION or (len(blob) - 4) % ENTRY.size:
        return None
    users: dict[int, int] = {}
    mask = 7
    for offset in range(4, len(blob), ENTRY.size):
        tag, bits, uid = ENTRY.unpack_from(blob, offset)
        if tag == USER:
            users[uid] = bits
        elif tag == MASK:
            mask = bits
        elif tag in (GROUP_OBJ, GROUP, OTHER) and bits:
            return None
    return {uid: bits & mask for uid, bits in users.items()}
