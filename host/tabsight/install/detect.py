"""Which Chromium-family browsers are on this machine, and where each one looks
for native-messaging host manifests.

Chrome reads a user's native hosts from ``<user data dir>/NativeMessagingHosts``
on Linux and macOS (``DIR_USER_NATIVE_MESSAGING`` in Chromium's
chrome/common/chrome_paths.cc is ``DIR_USER_DATA`` + ``NativeMessagingHosts``,
so a browser started with ``--user-data-dir DIR`` reads ``DIR/NativeMessagingHosts``
and not the default folder's), and from a registry key under HKCU on Windows.
Browsers confined by Snap or Flatpak cannot use a host registered that way, so
they are reported (with the reason) instead of registered.

The browsers and their folders are the table in ``tabsight/browsers.py``
(its sources are named there).

Every function takes the home folder and the environment as parameters, so
the tests can run detection against a temporary HOME.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tabsight import NATIVE_HOST_NAME
from tabsight.browsers import BROWSERS, Browser, browsers_for, config_root, user_data_dir

#: Where snapd puts the commands of installed snaps.
SNAP_BIN = Path("/snap/bin")

SNAP_REASON = (
    "Snap confinement does not let the browser start native-messaging hosts; "
    "use a non-Snap build (Google Chrome, or Chromium from a .deb), "
    "or let `tabsight mcp` start its embedded browser"
)

FLATPAK_REASON = (
    "a Flatpak browser runs sandboxed and can only start a host that exists inside its sandbox "
    "(a manifest under ~/.var/app/<app-id>/ pointing at a wrapper that uses flatpak-spawn --host); "
    "tabsight does not set that up: use a non-Flatpak build, or let `tabsight mcp` start its embedded browser"
)


def sandboxed(user_data: Path, home: Path) -> str:
    """Why a user data folder given to ``install --user-data-dir`` cannot start the host: a Snap's or a
    Flatpak's (their own folders in the user's home); "" for any other."""
    if user_data.is_relative_to(home / "snap"):
        return f"it is a Snap browser's folder: {SNAP_REASON}"
    if user_data.is_relative_to(home / ".var" / "app"):
        return f"it is a Flatpak browser's folder: {FLATPAK_REASON}"
    return ""


@dataclass(frozen=True)
class Unsupported:
    """A browser that is installed but cannot start tabsight's host, and why."""

    name: str
    where: Path
    reason: str


@dataclass(frozen=True)
class Detection:
    found: tuple[Browser, ...]
    unsupported: tuple[Unsupported, ...]


def manifest_in(user_data: Path) -> Path:
    """Where a Linux or macOS browser whose user data folder is ``user_data`` looks for tabsight's manifest."""
    return user_data / "NativeMessagingHosts" / f"{NATIVE_HOST_NAME}.json"


def manifest_path(browser: Browser, home: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """Where a Linux or macOS browser looks for tabsight's host manifest."""
    return manifest_in(user_data_dir(browser, home, environ))


def manifest_paths(browser: Browser, home: Path | None = None, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Every place it may look: its own folder first, then the ones it is known to read instead."""
    root = config_root(browser.platform, home, environ)
    return [manifest_path(browser, home, environ), *(manifest_in(root / other) for other in browser.also_reads)]


def registry_key(browser: Browser) -> str:
    """The HKCU subkey whose default value names the manifest file, on Windows."""
    return rf"Software\{browser.registry_path}\NativeMessagingHosts\{NATIVE_HOST_NAME}"


def detect(
    home: Path | None = None, environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> Detection:
    """The browsers to register (config folder present or command on PATH)
    and the confined ones that cannot be registered."""
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    root = config_root(platform, home, environ)
    search_path = environ.get("PATH", "")
    found: list[Browser] = []
    unsupported: list[Unsupported] = []
    for browser in browsers_for(platform):
        snap = _snap_location(browser, home)
        if snap:
            unsupported.append(Unsupported(f"{browser.name} (Snap)", snap, SNAP_REASON))
        flatpak = home / ".var" / "app" / browser.flatpak_id
        if browser.flatpak_id and flatpak.is_dir():
            unsupported.append(Unsupported(f"{browser.name} (Flatpak)", flatpak, FLATPAK_REASON))
        if _used(root / browser.config_dir):
            found.append(browser)
        # A snap's command (or Ubuntu's wrapper around it) on PATH is not a browser we can serve.
        elif not snap and any(shutil.which(name, path=search_path) for name in browser.commands):
            found.append(browser)
    return Detection(tuple(found), tuple(unsupported))


def _used(folder: Path) -> bool:
    """The browser has run here: its folder holds more than manifests (another browser's install may add those)."""
    try:
        return any(child.name != "NativeMessagingHosts" for child in folder.iterdir())
    except OSError:
        return False


def _snap_location(browser: Browser, home: Path) -> Path | None:
    if not browser.snap:
        return None
    for place in (SNAP_BIN / browser.snap, home / "snap" / browser.snap):
        if place.exists():
            return place
    return None


#: the policy file ``tabsight install --system`` writes (install/system.py)
SYSTEM_POLICY_NAME = "tabsight.json"


@dataclass(frozen=True)
class SystemFolders:
    """Where one browser reads machine-wide native hosts and managed policy."""

    browsers: tuple[str, ...]  # the names of the browsers sharing it (Chrome's channels share /etc/opt/chrome)
    host_manifest: Path
    policy: Path


def system_folders(root: Path = Path("/"), environ: Mapping[str, str] | None = None) -> list[SystemFolders]:
    """The machine-wide folders of the Linux browsers installed here (a command on PATH or their executable
    present), one entry per folder."""
    environ = os.environ if environ is None else environ
    found: dict[str, list[str]] = {}
    for browser in BROWSERS:
        if browser.platform == "linux" and browser.system_folder and _installed(browser, root, environ):
            found.setdefault(browser.system_folder, []).append(browser.name)
    return [
        SystemFolders(
            tuple(names),
            system_manifest(folder, root),
            root / folder.lstrip("/") / "policies" / "managed" / SYSTEM_POLICY_NAME,
        )
        for folder, names in found.items()
    ]


def system_manifest(system_folder: str, root: Path = Path("/")) -> Path:
    """The host manifest in a browser's machine-wide folder (``Browser.system_folder``)."""
    return root / system_folder.lstrip("/") / "native-messaging-hosts" / f"{NATIVE_HOST_NAME}.json"


def _installed(browser: Browser, root: Path, environ: Mapping[str, str]) -> bool:
    on_path = any(shutil.which(name, path=environ.get("PATH", "")) for name in browser.commands)
    # (the rows' other executables are how a path ends, not where it is)
    installed_in_opt = (path for path in browser.executables if path.startswith("/opt/"))
    return on_path or any((root / path.lstrip("/")).is_file() for path in installed_in_opt)
