"""The native-host manifest and the launcher it points at.

Chrome starts the program named in the manifest's ``path`` with no arguments
of ours, so the launcher fixes the interpreter: it runs ``-m tabsight host``
with the Python tabsight was installed into, whatever PATH the browser has.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tabsight import NATIVE_HOST_NAME
from tabsight.paths import data_dir, extension_ids, extension_origin

DESCRIPTION = "tabsight native host: lets AI coding agents see this browser"


def native_host_manifest(launcher: Path) -> dict:
    """The manifest Chrome reads: only tabsight's extension (its packaged id, and this machine's) may start the
    host."""
    return {
        "name": NATIVE_HOST_NAME,
        "description": DESCRIPTION,
        "path": str(launcher),
        "type": "stdio",
        "allowed_origins": [extension_origin(extension) for extension in extension_ids()],
    }


def launcher_path(directory: Path, platform: str = sys.platform) -> Path:
    return directory / ("tabsight-host.bat" if platform == "win32" else "tabsight-host")


def launcher_text(
    python: str, platform: str = sys.platform, data: Path | None = None, runtime: Path | None = None
) -> str:
    """Arguments Chrome passes (the caller's origin, on Windows a parent window) are forwarded; the host is
    told the data folder the launcher is in (which extension ids it accepts: paths.extension_ids), and on POSIX
    the runtime folder when given (``install --wsl``'s launcher, which ``wsl.exe --exec`` starts with no shell)."""
    data = data or data_dir()
    if platform == "win32":
        folder = subprocess.list2cmdline([f"TABSIGHT_DATA_DIR={data}"])
        return f"@echo off\r\nset {folder}\r\n{subprocess.list2cmdline([python])} -m tabsight host %*\r\n"
    pinned = f"TABSIGHT_DATA_DIR={shlex.quote(str(data))} "
    if runtime is not None:
        pinned += f"TABSIGHT_RUNTIME_DIR={shlex.quote(str(runtime))} "
    return f'#!/bin/sh\n{pinned}exec {shlex.quote(python)} -m tabsight host "$@"\n'


def write_launcher(
    directory: Path, python: str | None = None, platform: str = sys.platform, data: Path | None = None
) -> Path:
    """The launcher in ``directory``, telling the host the data folder ``data`` (default: the user's)."""
    path = launcher_path(directory, platform)
    write_atomic(path, launcher_text(python or sys.executable, platform, data), mode=0o755)
    return path


def write_manifest(path: Path, launcher: Path) -> None:
    write_atomic(path, json.dumps(native_host_manifest(launcher), indent=2) + "\n")


def write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write through a temporary file and rename it into place, so a browser
    reading the file never sees half of it."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
