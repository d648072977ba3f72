"""Where tabsight's files live: the packaged extension, the runtime folder.

The runtime folder holds one socket per connected browser profile. It is
per-user, mode 0700, and may be moved with ``TABSIGHT_RUNTIME_DIR`` (the test
suite gives each run its own, so it never meets a user's browser).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import tempfile
import warnings
from functools import cache
from importlib import resources
from pathlib import Path

import platformdirs


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


def extension_origin() -> str:
    return f"chrome-extension://{extension_id()}/"


def runtime_dir(create: bool = True) -> Path:
    """The per-user folder holding host sockets, created 0700 if missing.

    Refuses a folder owned by someone else or open to others: a socket there
    could be swapped by another user.
    """
    override = os.environ.get("TABSIGHT_RUNTIME_DIR")
    if override:
        path = Path(override)
    else:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset and falls back
            # to /tmp/runtime-<uid>; that fallback is what we want.
            warnings.simplefilter("ignore")
            path = Path(platformdirs.user_runtime_dir("tabsight"))
        if len(str(path)) > 80:  # sun_path holds 104-108 bytes; macOS runtime dirs are long
            path = Path(tempfile.gettempdir()) / f"tabsight-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise PermissionError(f"{path} belongs to uid {info.st_uid}, not to you; remove it or set TABSIGHT_RUNTIME_DIR")
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, 0o700)
    return path


def host_socket_path(pid: int) -> Path:
    return runtime_dir() / f"host-{pid}.sock"


def host_socket_paths() -> list[Path]:
    """Sockets of the hosts that may be running (stale ones are pruned by the front)."""
    directory = runtime_dir()
    return sorted(directory.glob("host-*.sock"))
