"""Where tabsight's files live: the packaged extension, the runtime folder, the files it writes.

The runtime folder holds one socket per connected browser profile. It is per-user, mode 0700, every folder on
its way is the user's or root's and writable by no one else (``owned_folder``), and it may be moved with
``TABSIGHT_RUNTIME_DIR`` (the test suite gives each run its own, so it never meets a user's browser). Every file
tabsight writes for the user is 0600 (``write_private``), in folders it makes 0700 (``make_folders``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path

import platformdirs

from . import acl, config
from .settings import peer_uids


def extension_dir() -> Path:
    """The unpacked extension: inside the installed package, or the source tree.

    A wheel carries the extension as ``tabsight/extension``; an editable
    install runs from the repository, whose ``extension/`` sits two levels up.
    """
    packaged = Path(str(resources.files("tabsight"))) / "extension"
    if (packaged / "manifest.json").is_file():
        return packaged
    source = Path(__file__).resolve().parents[2] / "extension"
    if (source / "manifest.json").is_file():
        return source
    raise FileNotFoundError("tabsight's extension files are missing from the installation; reinstall tabsight")


def extension_id_from_key(public_key_b64: str) -> str:
    """Chrome's id for an extension with this manifest ``key``.

    sha256 of the DER public key, first 32 hex digits, each mapped 0-f -> a-p.
    """
    digest = hashlib.sha256(base64.b64decode(public_key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


@cache
def extension_manifest() -> dict:
    return json.loads((extension_dir() / "manifest.json").read_text())


def extension_id() -> str:
    return extension_id_from_key(extension_manifest()["key"])


def extension_origin(extension: str | None = None) -> str:
    return f"chrome-extension://{extension or extension_id()}/"


def data_dir() -> Path:
    """tabsight's per-user data folder (launcher, install record, the extension a browser keeps, its key).

    ``TABSIGHT_DATA_DIR`` moves it, so tests never touch the user's own; the launcher sets it for the host.
    Always absolute: what a browser is given (a launcher's path, a packed extension's) must not depend on the
    folder tabsight was run from.
    """
    chosen = config.current()[config.TABSIGHT_DATA_DIR] or platformdirs.user_data_dir("tabsight", appauthor=False)
    return Path(chosen).expanduser().absolute()


#: ``tabsight install --system`` (root, Linux): what every user's browsers keep, readable by all (install/system.py)
SYSTEM_DATA_DIR = Path("/opt/tabsight")


def data_dirs() -> tuple[Path, Path]:
    """Where an install keeps its record and the extension it packed: the user's data folder, the machine's."""
    return data_dir(), SYSTEM_DATA_DIR


def installed_extension_dir(data: Path | None = None) -> Path:
    """The copy of the extension ``tabsight install`` packed for this machine (install/crx.py)."""
    return (data or data_dir()) / "extension"


def installed_for_a_browser() -> bool:
    """Has ``tabsight install`` (the user's, or ``--system``) registered the host for a browser (its record
    lists a host manifest or a registry key)? Then a session working in tabsight's own browser says so
    (browser/connection)."""
    for data in data_dirs():
        try:
            record = json.loads((data / "installed.json").read_text())
            files, keys = record.get("files", []), record.get("registry_keys", [])
        except (OSError, ValueError, AttributeError):
            continue
        # NativeMessagingHosts: the user's folders; native-messaging-hosts: the machine's
        if keys or any(
            folder in name for name in files for folder in ("NativeMessagingHosts", "native-messaging-hosts")
        ):
            return True
    return False


def extension_ids() -> tuple[str, ...]:
    """The ids tabsight's extension may have: the packaged key's (tabsight's own browser, a Load unpacked of
    the package) and, once ``tabsight install`` packed it for this machine, that key's (the user's browsers),
    and ``--system``'s (every user's browsers)."""
    ids = [extension_id()]
    for data in data_dirs():
        try:
            installed = json.loads((installed_extension_dir(data) / "manifest.json").read_text())
            ids.append(extension_id_from_key(installed["key"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not installed (or not readable): the packaged id only
    return tuple(dict.fromkeys(ids))


#: the longest name a host gives its socket (``host-<pid>.sock``, Linux's largest pid: PID_MAX_LIMIT)
LONGEST_SOCKET_NAME = "host-4194304.sock"
#: the longest socket path the runtime folder may give: a ``sockaddr_un`` holds 104 (macOS) to 108 bytes (Linux)
SOCKET_PATH_LIMIT = 100
#: symlinks followed on the way to one folder, at most (Linux's own limit, ELOOP)
MAX_SYMLINKS = 40


class FolderError(Exception):
    """A folder for tabsight's sockets or files that it may not use: another user could change what is in it, or
    it cannot be made. The message names the folder, what is wrong and how to fix it (the agent reads it as is)."""


def runtime_dir() -> Path:
    """The per-user folder holding host sockets: made 0700 where missing, checked from ``/`` down (``owned_folder``).

    ``TABSIGHT_RUNTIME_DIR`` when set (the test suite gives each run its own, so it never meets a user's browser),
    checked the same way, and chmod-ed only if tabsight made it: the user named it. Else a fixed path that the
    front and the host each find on their own: ``$XDG_RUNTIME_DIR/tabsight``, else ``run`` in the user's cache
    folder (``~/.cache/tabsight/run``), the first where a socket's path fits (``SOCKET_PATH_LIMIT``), else
    ``/tmp/tabsight-<uid>``. ``TMPDIR`` has no say: the browser that starts a host may have another one than the
    MCP client that starts a front.
    """
    override = config.current()[config.TABSIGHT_RUNTIME_DIR]
    if override:
        return owned_folder(
            Path(os.path.abspath(os.path.expanduser(override))),
            "The runtime folder",
            elsewhere="change TABSIGHT_RUNTIME_DIR, which names it, to a folder only you can write",
            peers=True,
        )
    return owned_folder(
        default_runtime_dir(),
        "The runtime folder",
        own=True,
        elsewhere="set TABSIGHT_RUNTIME_DIR to a folder only you can write, in the environment of "
        "the MCP client and of the browser alike",
        peers=True,
    )


def default_runtime_dir() -> Path:
    """Where the runtime folder is without ``TABSIGHT_RUNTIME_DIR`` (``runtime_dir`` says how it is chosen)."""
    candidates = []
    xdg = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(xdg):
        candidates.append(Path(xdg) / "tabsight")
    candidates.append(Path(platformdirs.user_cache_dir("tabsight")) / "run")
    for folder in candidates:
        if len(os.fsencode(folder / LONGEST_SOCKET_NAME)) <= SOCKET_PATH_LIMIT:
            return folder
    return Path("/tmp") / f"tabsight-{os.getuid()}"


def owned_folder(path: Path, what: str, *, own: bool = False, elsewhere: str, peers: bool = False) -> Path:
    """The folder at the absolute ``path``, its real path: the folders missing on the way made (0700), and every
    folder from ``/`` down looked at without following symlinks (``lstat``, one component at a time).

    On the way, each folder must belong to the user or to root and be writable by no one else, unless it has the
    sticky bit (``/tmp``), where others may add entries but not replace the user's. A symlink on the way is
    followed only if it belongs to the user or to root (macOS's ``/tmp -> private/tmp``, a link of the user's
    own), and where it leads is checked the same way: one of another user's could lead anywhere. The folder
    itself must belong to the user and be open to no one else (0700). tabsight chmods it only if it has just made
    it, or if it is a folder of tabsight's own naming (``own``) that the user owns; it chmods nothing else, and
    refuses instead: a ``FolderError`` that says ``what`` is refused, which folder on the way is wrong, why, and
    how to fix it (``elsewhere``: how to choose another folder).

    With ``peers`` (the runtime folder), the user's settings file has a say (``settings.peer_uids``, read only
    when it matters): the folder may belong to a listed uid (a browser's user's folder, bind-mounted into a
    container whose agent runs as another uid), and may be open to listed uids by an ACL that lets them read and
    enter but not write (what a host grants them, nativehost/sharing.py).
    """
    me = os.getuid()

    def listed() -> frozenset[int]:
        return peer_uids() if peers else frozenset()

    def refused(folder: Path, problem: str, remedy: str = "") -> FolderError:
        fix = f"{remedy}, or {elsewhere}" if remedy else elsewhere
        fix = fix[0].upper() + fix[1:]
        return FolderError(f"{what} {path} cannot be used: {folder} {problem}. {fix}.")

    def look(folder: Path) -> os.stat_result:
        try:
            return os.lstat(folder)
        except OSError as exc:
            raise refused(folder, f"cannot be looked at ({exc.strerror})") from None

    def check_on_the_way(folder: Path, info: os.stat_result) -> None:
        if info.st_uid not in (0, me):
            trusted = f"you (uid {me})" + (" or root" if me else "")
            raise refused(
                folder, f"belongs to {_user(info.st_uid)}, not to {trusted}: its owner can replace what is in it"
            )
        writers = _writers(info.st_mode)
        if writers and not info.st_mode & stat.S_ISVTX:
            raise refused(
                folder,
                f"is writable by {writers} (mode {_mode(info)}), who can replace what is in it",
                f"`chmod go-w {folder}`",
            )

    real = Path(path.anchor)
    check_on_the_way(real, look(real))
    pending = list(path.parts[1:])
    made = False
    symlinks = 0
    while pending:
        name = pending.pop(0)
        if name == "..":  # in a symlink's target: the real parent, as the kernel takes it
            real, made = real.parent, False
            continue
        folder = real / name
        made = not os.path.lexists(folder)
        if made:
            try:
                os.mkdir(folder, 0o700)
            except FileExistsError:  # made meanwhile, by whoever: looked at as any other
                made = False
            except OSError as exc:
                raise refused(folder, f"cannot be made ({exc.strerror})") from None
        info = look(folder)
        if stat.S_ISLNK(info.st_mode):
            if info.st_uid not in (0, me):
                raise refused(
                    folder,
                    f"is a symlink that belongs to {_user(info.st_uid)}, who chose where it leads",
                    "remove it (as its owner or root)",
                )
            symlinks += 1
            if symlinks > MAX_SYMLINKS:
                raise refused(folder, f"leads through more than {MAX_SYMLINKS} symlinks")
            target = Path(os.readlink(folder))
            if target.is_absolute():
                real = Path(target.anchor)
            pending = list(target.parts[1:] if target.is_absolute() else target.parts) + pending
            continue
        if not stat.S_ISDIR(info.st_mode):
            raise refused(folder, "is not a folder")
        if pending:
            check_on_the_way(folder, info)
        real = folder

    info = look(real)
    if info.st_uid != me and info.st_uid not in listed():
        raise refused(
            real,
            f"belongs to {_user(info.st_uid)}, not to you (uid {me}): its owner can replace what is in it",
            "have it removed (by its owner or root)"
            + (
                f"; if it is the folder of your browser's user, shared with you on purpose, list uid {info.st_uid} "
                "under peer_uids in your tabsight settings file (docs/remote.md)"
                if peers
                else ""
            ),
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077 and not open_only_to(real, mode, listed() | {me}, writable=False):
        if not (made or own):
            raise refused(real, f"is open to {_others(info.st_mode)} (mode {_mode(info)})", f"`chmod 700 {real}`")
        os.chmod(real, 0o700)
    return real


def open_only_to(path: Path, mode: int, uids: frozenset[int], *, writable: bool) -> bool:
    """Is ``path``, of permission bits ``mode``, open beyond its owner only as a host opens it (nativehost/sharing.py):
    by an ACL naming some of ``uids`` and no one else (``acl.named_users``), none of them allowed to write unless
    ``writable`` (a socket, which takes writing to connect to)? For the runtime folder and the sockets in it."""
    if mode & (0o007 if writable else 0o027):  # anything for others; where not writable, write for the group (the mask)
        return False
    users = acl.named_users(path)
    if not users:  # no ACL (the mode alone opens it), or one that opens it to a group or to others
        return False
    return users.keys() <= uids and (writable or not any(bits & acl.WRITE for bits in users.values()))


def make_folders(path: Path) -> Path:
    """``path`` as a folder, the folders missing on the way made 0700 (``mkdir -p`` makes them with the umask's
    mode); folders already there are left as they are: the file written in them is what is kept private
    (``write_private``)."""
    missing = []
    folder = path
    while not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` as a file only the user can read or write (0600), whatever the folder's mode and
    the umask: made beside it (``mkstemp``: a new file, 0600, never through a symlink) and renamed into place, so
    that a file or symlink already at ``path`` is replaced, never written through."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _user(uid: int) -> str:
    import pwd  # POSIX only, as the sockets are; ``tabsight install`` runs on Windows too

    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _mode(info: os.stat_result) -> str:
    return f"{stat.S_IMODE(info.st_mode):04o}"


def _writers(mode: int) -> str:
    """Who besides the owner may write in a folder of this mode: '', 'its group', 'others', or both."""
    return " and ".join(who for who, bit in (("its group", stat.S_IWGRP), ("others", stat.S_IWOTH)) if mode & bit)


def _others(mode: int) -> str:
    """Who besides the owner a folder of this mode is open to at all."""
    return " and ".join(who for who, bits in (("its group", 0o070), ("others", 0o007)) if mode & bits)


def host_socket_path(pid: int) -> Path:
    return runtime_dir() / f"host-{pid}.sock"


def host_socket_paths() -> list[Path]:
    """Sockets of the hosts that may be running (stale ones are pruned by the front)."""
    directory = runtime_dir()
    return sorted(directory.glob("host-*.sock"))
