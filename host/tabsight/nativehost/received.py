"""Files a front sent for an upload (``files.put``), kept where this host's browser can read them.

A front whose host is reached through a forward (``ssh -R``, a container's bind mount: ``HostLink.forwarded``)
cannot name a file by its path: the path would be read on the browser's machine, another file or none. It reads
the file itself, from its own allowed folders (``tabsight.uploads``), and sends the bytes; the host writes them,
under the name given, into a folder of its own (``<temp folder>/tabsight-received-<pid>``, 0700, a subfolder per
file so that two files may share a name), and answers the path the browser then reads. Bounded: ``MAX_FILE`` a
file, ``MAX_KEPT`` in all for the host's life; the folder is removed when the host ends, and a dead host's is removed
by the next one.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import shutil
import tempfile
import uuid
from pathlib import Path

from ..profiles import running

#: the largest file an upload sends to a browser reached through a forward (its bytes, base64, in one socket frame)
MAX_RECEIVED_FILE = 32 * 1024 * 1024
#: the folders' names, with the host's pid
PREFIX = "tabsight-received-"
#: what one host keeps in all
MAX_KEPT = 8 * MAX_RECEIVED_FILE


class Received:
    def __init__(self) -> None:
        self.folder: Path | None = None
        self.kept = 0

    def put(self, params: dict) -> dict:
        """``files.put {name, data (base64)}`` -> ``{path, size}``; ValueError names what is wrong."""
        name, data = params.get("name"), params.get("data")
        if not isinstance(name, str) or not _plain_name(name):
            raise ValueError(f"files.put: name {name!r} must be a file name (no folder, not . or .., 1-255 bytes)")
        if not isinstance(data, str):
            raise ValueError("files.put: data must be the file's bytes in base64")
        if len(data) > (MAX_RECEIVED_FILE + 2) // 3 * 4:
            raise ValueError(f"files.put: {name} is over {MAX_RECEIVED_FILE // 2**20} MiB, the cap of a sent file")
        try:
            content = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("files.put: data is not base64") from None
        if self.kept + len(content) > MAX_KEPT:
            raise ValueError(
                f"files.put: this browser's host keeps at most {MAX_KEPT // 2**20} MiB of sent files; "
                "restart the browser to start again"
            )
        folder = self._folder() / uuid.uuid4().hex[:12]
        folder.mkdir(mode=0o700)
        path = folder / name
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        self.kept += len(content)
        return {"path": str(path), "size": len(content)}

    def _folder(self) -> Path:
        if self.folder is None:
            temp = Path(tempfile.gettempdir())
            for stale in temp.glob(f"{PREFIX}*"):  # a host killed before it could remove its own
                pid = stale.name.removeprefix(PREFIX)
                if pid.isdigit() and not running(int(pid)) and stale.lstat().st_uid == os.getuid():
                    shutil.rmtree(stale, ignore_errors=True)
            self.folder = temp / f"{PREFIX}{os.getpid()}"
            shutil.rmtree(self.folder, ignore_errors=True)  # an earlier process's of this pid
            self.folder.mkdir(mode=0o700)
        return self.folder

    def remove(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _plain_name(name: str) -> bool:
    return name not in ("", ".", "..") and not re.search(r"[/\\\x00]", name) and len(os.fsencode(name)) <= 255
