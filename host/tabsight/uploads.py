"""Which files an agent may upload (interact ``upload``): checked in the front, before anything reaches the browser.

DESIGN §5: files an agent uploads come only from allowed roots, and the host never reads them. The roots:

- the front's working directory: ``tabsight mcp`` is started by the MCP client, in its working directory (the
  project the agent works on), unless that is the filesystem's root or the home folder itself (desktop clients
  start their servers there): a root that wide would let through ``~/.ssh`` and everything else, so then only
  the other roots count;
- tabsight's own upload folder, ``<temp folder>/tabsight-uploads-<uid>`` (``upload_folder``): agents put the
  files they make for an upload (a screenshot, a generated report) there. It is made 0700 and checked as the
  runtime folder is (``paths.owned_folder``: the user's, no symlink of another's on the way). The temp folder
  itself is no root: other programs keep their credentials there (a Kerberos ticket cache ``/tmp/krb5cc_<uid>``,
  mode 0600, is the user's own file, and a site must not get it);
- the folders named in ``TABSIGHT_UPLOAD_ROOTS`` (``os.pathsep``-separated; ``~`` expanded, a relative one counts
  from the working directory).

A path given is made absolute against the working directory (``~`` expanded), its symlinks and ``..`` resolved
(``os.path.realpath``), and must then lie inside a root (resolved the same way) and be a regular file: a symlink in
the project pointing at ``~/.ssh/id_rsa`` is judged by where it points; directories, FIFOs, devices and sockets are
refused. A hard link has no "where it points": every name of the file is the file, and another of its names may be
outside the roots, so a regular file with more than one name (``st_nlink`` > 1) is refused, and the message says to
upload a copy. Only the resolved path goes to the browser, which reads the file itself when the page asks for it,
as it reads one the user picked. Here a file is only ``stat``-ed, and only once it is known to be inside a root:
nothing outside the roots is even looked at. (A file swapped between this check and the browser's read is beyond
it: whoever can do that can write in an allowed folder already.) The one exception is a browser reached through a
forward (docs/remote.md), which would read that path on its own machine: there the front reads the checked file and
sends its bytes (``BrowserClient.act``, up to ``limits.MAX_RECEIVED_FILE``), and the host keeps them for the
browser (nativehost/received.py).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import config
from .errors import ToolError
from .paths import FolderError, owned_folder

#: how the roots' list names tabsight's own upload folder, and what it is for
UPLOAD_FOLDER = "tabsight's upload folder: put files made for an upload there"

#: what a path that is not a regular file is, by its stat type
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


@dataclass(frozen=True)
class Upload:
    """A file that may be uploaded: its absolute path, symlinks resolved, and its size in bytes when checked."""

    path: str
    size: int

    @property
    def name(self) -> str:
        """The file's name, as the page sees it (``File.name``)."""
        return os.path.basename(self.path)


@dataclass(frozen=True)
class Root:
    """A folder uploads may come from (resolved), and why it is one."""

    path: str
    why: str


def upload_folder_path() -> Path:
    """Where tabsight's own upload folder is (``upload_folder`` makes and checks it)."""
    return Path(tempfile.gettempdir()) / f"tabsight-uploads-{os.getuid()}"


def upload_folder() -> Path:
    """tabsight's own upload folder, made 0700 where missing: the folder agents put the files they make for an
    upload in. Checked as the runtime folder is; ``paths.FolderError`` when another user could change it."""
    return owned_folder(
        upload_folder_path(),
        "tabsight's upload folder",
        own=True,
        elsewhere="set TMPDIR, in tabsight's environment, to a folder only you can write (the "
        "upload folder is made in it)",
    )


def allowed_roots(cwd: str | None = None, make: bool = True) -> list[Root]:
    """The folders uploads may come from, resolved, each once, in the order the module docstring gives.
    ``paths.FolderError`` when tabsight's upload folder is another user's to change: said, not passed over.
    Without ``make``, the upload folder counts only where it is already there and tabsight's own (nothing is
    made, nothing raised)."""
    cwd = cwd or os.getcwd()
    named = [] if _too_wide(cwd) else [(cwd, "the working directory")]
    if make:
        named += [(str(upload_folder()), UPLOAD_FOLDER)]
    elif upload_folder_path().is_dir():
        try:
            named += [(str(upload_folder()), UPLOAD_FOLDER)]
        except FolderError:
            pass
    named += [(entry, "TABSIGHT_UPLOAD_ROOTS") for entry in config.current()[config.TABSIGHT_UPLOAD_ROOTS]]
    roots: list[Root] = []
    for folder, why in named:
        resolved = _resolved(folder.strip(), cwd)
        if all(root.path != resolved for root in roots):
            roots.append(Root(resolved, why))
    return roots


def file_roots(cwd: str | None = None) -> list[str]:
    """The folders local files may be opened from in the browser (``file://`` navigations): the same roots as
    uploads', without making tabsight's upload folder (a navigation must not leave it behind). The extension
    refuses a ``file:`` URL outside them, whoever asks for it (extension/service-worker/cdp-policy.js)."""
    return [root.path for root in allowed_roots(cwd, make=False)]


def checked(paths: Sequence[str], cwd: str | None = None) -> list[Upload]:
    """Each path as an ``Upload``; or a ``ToolError`` naming every path refused, why, and how to allow it."""
    cwd = cwd or os.getcwd()
    roots = allowed_roots(cwd)
    uploads: list[Upload] = []
    refused: list[str] = []
    outside = False
    for given in paths:
        if "\0" in given:
            refused.append(f"{given!r} has a NUL character, which no path has")
            continue
        resolved = _resolved(given, cwd)
        named = repr(given) if resolved == given else f"{given!r} ({resolved})"
        if not any(_inside(resolved, root.path) for root in roots):
            outside = True
            refused.append(f"{named} is outside the folders files may be uploaded from")
            continue
        try:
            info = os.stat(resolved)
        except FileNotFoundError:
            refused.append(f"{named} does not exist")
            continue
        except OSError as exc:
            refused.append(f"{named} cannot be looked at ({exc.strerror})")
            continue
        if not stat.S_ISREG(info.st_mode):
            kind = next((what for test, what in _KINDS if test(info.st_mode)), "a special file")
            refused.append(f"{named} is {kind}, not a regular file")
            continue
        if info.st_nlink > 1:
            refused.append(
                f"{named} is a hard link (the file has {info.st_nlink} names), and another of its names "
                "may be outside the folders files may be uploaded from: upload a copy of it instead (cp "
                f"makes one; {upload_folder_path()} is for files made to upload)"
            )
            continue
        uploads.append(Upload(resolved, info.st_size))
    if refused:
        message = "Did not upload: " + "; ".join(refused) + "."
        if outside:
            listed = ", ".join(f"{root.path} ({root.why})" for root in roots)
            message += (
                f" Files may be uploaded from: {listed}. To allow another folder, add it to "
                f"TABSIGHT_UPLOAD_ROOTS (folders separated by {os.pathsep!r}) in tabsight's environment (the "
                "MCP client's config for `tabsight mcp`), or start the MCP client in a folder that holds the "
                "file."
            )
        raise ToolError(message)
    return uploads


def _too_wide(folder: str) -> bool:
    """Whether a working directory is the filesystem's root or the home folder: no project, everything in it."""
    resolved = os.path.realpath(folder)
    return resolved == os.path.realpath(os.path.expanduser("~")) or os.path.dirname(resolved) == resolved


def _resolved(path: str, cwd: str) -> str:
    return os.path.realpath(os.path.join(cwd, os.path.expanduser(path)))


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.normcase(path), os.path.normcase(folder)
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:  # another drive (Windows)
        return False
