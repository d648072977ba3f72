"""``tabsight install --wsl``: tabsight in WSL, the browser on Windows. On paper: nothing here ran on Windows
(docs/remote.md says what is untested); what it writes is checked by tests/test_install_wsl.py.

A Windows browser starts a native host named by a manifest that a registry key under HKEY_CURRENT_USER names
(``Software\\<vendor>\\NativeMessagingHosts\\dev.tabsight.host``), and talks to the program the manifest's
``path`` names over its stdin and stdout. That program is a batch file, beside the manifest in the user's
``%LOCALAPPDATA%\\tabsight``, that hands its stdio to ``wsl.exe``: ``wsl.exe --distribution D --exec LAUNCHER``
runs the Linux launcher tabsight writes in WSL (``TABSIGHT_DATA_DIR`` set, as ``tabsight install`` does), its
stdin and stdout the batch file's, byte for byte. The launcher also pins the runtime folder: ``--exec`` starts no
shell, so the host would not get the environment a terminal's front has (``XDG_RUNTIME_DIR``: WSLg's or none), and
the two must meet in one folder. Native messaging's length is in the machine's order, the same on both sides of
one machine.

From WSL the Windows side is reached through ``/mnt/c`` (``wslpath``) and ``reg.exe``: the registry keys are
imported from a ``.reg`` file written beside the manifest (``reg.exe import``), one per vendor key Chromium-family
browsers read. The extension, copied beside them, is loaded unpacked from there (chrome://extensions, Developer
mode): a Windows browser does not read WSL's ``External Extensions``, and policy needs an administrator.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path, PureWindowsPath
from typing import TextIO

from tabsight.browsers import BROWSERS
from tabsight.install import hostenv
from tabsight.install.detect import registry_key
from tabsight.nativehost.manifest import launcher_text, write_atomic, write_manifest
from tabsight.paths import data_dir, extension_dir, runtime_dir

#: what --wsl writes in the Windows folder
MANIFEST_NAME = "dev.tabsight.host.json"
BATCH_NAME = "tabsight-host.bat"
REG_NAME = "tabsight-host.reg"
LAUNCHER_NAME = "tabsight-host-wsl"
#: a distribution's name as wsl.exe takes it
DISTRIBUTION = re.compile(r"[A-Za-z0-9._-]{1,64}")


class WslError(Exception):
    """Not in WSL, or the Windows side cannot be reached: the message says what to do."""


def registry_keys() -> list[str]:
    """The HKCU subkeys Windows browsers read a native host's manifest from, one per vendor path."""
    return list(
        dict.fromkeys(
            registry_key(browser) for browser in BROWSERS if browser.platform == "win32" and browser.registry_path
        )
    )


def batch_text(distribution: str, launcher: str) -> str:
    """The batch file the manifest names: its stdio and Chrome's arguments (the caller's origin, a parent
    window) handed to the Linux launcher in ``distribution``."""
    return f'@echo off\r\nwsl.exe --distribution {distribution} --exec "{launcher}" %*\r\n'


def reg_text(manifest_path: PureWindowsPath) -> str:
    """A .reg file (UTF-16 when written, as regedit writes them) setting each key's default value."""
    value = str(manifest_path).replace("\\", "\\\\")
    blocks = [f'[HKEY_CURRENT_USER\\{key}]\r\n@="{value}"\r\n' for key in registry_keys()]
    return "Windows Registry Editor Version 5.00\r\n\r\n" + "\r\n".join(blocks)


def install(
    windows_folder: Path, windows_path: PureWindowsPath, distribution: str, python: str, data: Path | None = None
) -> list[Path]:
    """Write the Linux launcher (in the data folder) and, in ``windows_folder`` (``windows_path`` as Windows
    names it), the manifest, the batch file, the .reg file and the extension; the files written."""
    if not DISTRIBUTION.fullmatch(distribution):
        raise WslError(f"--distribution {distribution!r}: a WSL distribution's name (letters, digits, . _ -)")
    data = data or data_dir()
    data.mkdir(parents=True, exist_ok=True)
    launcher = data / LAUNCHER_NAME
    write_atomic(launcher, launcher_text(python, "linux", data, runtime_dir()), mode=0o755)
    windows_folder.mkdir(parents=True, exist_ok=True)
    batch = windows_folder / BATCH_NAME
    write_atomic(batch, batch_text(distribution, str(launcher)))
    manifest_file = windows_folder / MANIFEST_NAME
    write_manifest(manifest_file, Path(BATCH_NAME))  # relative: Windows takes it from the manifest's folder
    reg = windows_folder / REG_NAME
    reg.write_text("\ufeff" + reg_text(windows_path / MANIFEST_NAME), encoding="utf-16-le")
    extension = windows_folder / "extension"
    shutil.rmtree(extension, ignore_errors=True)
    shutil.copytree(extension_dir(), extension, ignore=shutil.ignore_patterns("__pycache__"))
    return [launcher, batch, manifest_file, reg, extension]


def windows_local_app_data() -> tuple[Path, PureWindowsPath]:
    """``%LOCALAPPDATA%\\tabsight``, as WSL reaches it (``/mnt/c/...``) and as Windows names it."""
    if not shutil.which("cmd.exe") or not shutil.which("wslpath"):
        raise WslError("this is not WSL with Windows interop (no cmd.exe or wslpath on PATH): --wsl is for WSL")
    asked = subprocess.run(["cmd.exe", "/c", "echo %LOCALAPPDATA%"], capture_output=True, text=True, timeout=30)
    windows = asked.stdout.strip()
    if asked.returncode != 0 or not re.match(r"^[A-Za-z]:\\", windows):
        raise WslError(f"could not read %LOCALAPPDATA% from Windows ({asked.stderr.strip() or windows!r})")
    folder = PureWindowsPath(windows) / "tabsight"
    linux = subprocess.run(["wslpath", "-u", str(folder)], capture_output=True, text=True, timeout=30)
    return Path(linux.stdout.strip()), folder


def run_install_wsl(out: TextIO, distribution: str | None = None) -> int:
    """``tabsight install --wsl``: write everything, import the registry keys with ``reg.exe``, say what is left."""
    distribution = distribution or os.environ.get("WSL_DISTRO_NAME", "")
    try:
        if not distribution:
            raise WslError("no WSL distribution (WSL_DISTRO_NAME is unset): --wsl is for WSL")
        folder, windows = windows_local_app_data()
        python = hostenv.host_python(data_dir(), os.environ)
        written = install(folder, windows, distribution, python)
        imported = subprocess.run(["reg.exe", "import", str(windows / REG_NAME)], capture_output=True, timeout=60)
    except (WslError, hostenv.HostEnvError, OSError, subprocess.SubprocessError) as error:
        print(f"tabsight install --wsl: {error}", file=out)
        return 1
    for path in written:
        print(f"wrote {path}", file=out)
    if imported.returncode != 0:
        print(f"reg.exe import failed: run `reg.exe import {windows / REG_NAME}` from Windows", file=out)
        return 1
    print(
        f"registered the host for Windows browsers ({', '.join(registry_keys())}). Left to do: in the Windows "
        f"browser open chrome://extensions, turn on Developer mode, click Load unpacked and pick "
        f"{windows / 'extension'}; then restart the browser. Untested on Windows: docs/remote.md",
        file=out,
    )
    return 0
