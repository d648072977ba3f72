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

import platformdirs

from tabsight import NATIVE_HOST_NAME, config
from tabsight.paths import extension_origin

DESCRIPTION = "tabsight native host: lets AI coding agents see this browser"


def data_dir() -> Path:
    """tabsight's per-user data folder (launcher, Windows manifest, install record).

    ``TABSIGHT_DATA_DIR`` moves it, so tests never touch the user's own.
    """
    return Path(config.current()[config.TABSIGHT_DATA_DIR] or platformdirs.user_data_dir("tabsight", appauthor=False))


def native_host_manifest(launcher: Path) -> dict:
    """The manifest Chrome reads: only tabsight's extension may start the host."""
    return {
        "name": NATIVE_HOST_NAME,
        "description": DESCRIPTION,
        "path": str(launcher),
        "type": "stdio",
        "allowed_origins": [extension_origin()],
    }


def launcher_path(directory: Path, platform: str = sys.platform) -> Path:
    return directory / ("tabsight-host.bat" if platform == "win32" else "tabsight-host")


def launcher_text(python: str, platform: str = sys.platform) -> str:
    """Arguments Chrome passes (the caller's origin, on Windows a parent window) are forwarded."""
    if platform == "win32":
        return f"@echo off\r\n{subprocess.list2cmdline([python])} -m tabsight host %*\r\n"
    return f'#!/bin/sh\nexec {shlex.quote(python)} -m tabsight host "$@"\n'


def write_launcher(directory: Path, python: str | None = None, platform: str = sys.platform) -> Path:
    path = launcher_path(directory, platform)
    write_atomic(path, launcher_text(python or sys.executable, platform), mode=0o755)
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
