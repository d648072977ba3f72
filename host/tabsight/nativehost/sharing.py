"""Reaching a host from elsewhere (docs/remote.md): a socket name that outlives the host, and other uids let in.

- **The profile's name.** A host listens on ``host-<pid>.sock``, a new name at each start. A user's browser
  profile also gets ``profile-<id>.sock`` (the first 12 hex digits of the extension's profile id): a hard link to
  the same socket, never a symlink (the runtime folder refuses those), moved to each new host of that profile. An
  ``ssh -R`` forward names it once and survives browser and host restarts: ssh opens the local path at each
  connection. Fronts look only for ``host-*.sock``, so a host is not found twice.
- **Other uids.** The uids the user lists under ``peer_uids`` in the settings file (``settings.peer_uids``) are
  served (``admits``), and are let into the runtime folder (read and enter) and to the socket (read and write)
  by a POSIX ACL (``acl.grant``): the kernel's permission checks then let a container's agent of another uid
  connect, and the host's uid check lets it in. Listed uids only, never by default; the ACL is set at the host's
  start, so a change to the list counts once the browser (or its host) restarts.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from .. import acl, settings

log = logging.getLogger("tabsight.host")


def profile_socket(runtime: Path, profile_id: str) -> Path | None:
    """The profile's stable socket name, or None for an id that gives none (no hex digits to speak of)."""
    digits = profile_digits(profile_id)
    return runtime / f"profile-{digits}.sock" if len(digits) == 12 else None


def profile_digits(profile_id: str) -> str:
    """What of a profile id names its socket: its first 12 hex digits (fewer, from an id the user shortened)."""
    return re.sub(r"[^0-9a-f]", "", profile_id.lower())[:12]


def publish(socket_path: Path, profile_id: str) -> Path | None:
    """Give the listening ``socket_path`` its profile's stable name as well (replacing an earlier host's); that
    name, or None when it could not be given (logged)."""
    stable = profile_socket(socket_path.parent, profile_id)
    if stable is None:
        return None
    linking = socket_path.with_name(f".{stable.name}.{os.getpid()}")
    try:
        linking.unlink(missing_ok=True)
        os.link(socket_path, linking)
        os.replace(linking, stable)
    except OSError as exc:
        linking.unlink(missing_ok=True)
        log.warning("cannot name the socket %s: %s", stable.name, exc)
        return None
    return stable


def withdraw(stable: Path | None, socket_path: Path) -> None:
    """Remove the stable name if it still leads to this host's socket (a newer host of the profile may have
    taken it): called while ``socket_path`` still exists."""
    if stable is None:
        return
    try:
        if os.path.samestat(os.lstat(stable), os.lstat(socket_path)):
            stable.unlink()
    except OSError:
        pass


def admits(uid: int) -> bool:
    """Does this host serve a front of ``uid``: the user's own, or one the settings file lists?"""
    return uid == os.getuid() or uid in settings.peer_uids()


def refusal(uid: int) -> str:
    """What a front of an unlisted uid is told (and reads as its error): which uid, and who can change that."""
    return (
        f"this browser's tabsight host serves its own user (uid {os.getuid()}) and the uids that user lists under "
        f"peer_uids in tabsight's settings file; uid {uid} is not listed. If this agent is yours, list {uid} "
        "there on the browser's machine and restart the browser (docs/remote.md)"
    )


def let_peers_in(runtime: Path, socket_path: Path) -> None:
    """Open the runtime folder (read, enter) and the socket (read, write) to the listed uids, by ACL (nothing when
    the list is empty; logged where the file system keeps no ACLs)."""
    uids = settings.peer_uids() - {os.getuid()}
    if not uids:
        return
    try:
        acl.grant(runtime, uids, acl.READ | acl.EXECUTE)
        acl.grant(socket_path, uids, acl.READ | acl.WRITE)
    except OSError as exc:
        log.warning("cannot let uids %s in (peer_uids): %s", ", ".join(map(str, sorted(uids))), exc)
        return
    log.info("uids %s may connect (peer_uids)", ", ".join(map(str, sorted(uids))))
