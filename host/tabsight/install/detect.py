"""Which Chromium-family browsers are on this machine, and where each one looks
for native-messaging host manifests.

Chrome reads a user's native hosts from ``<user data dir>/NativeMessagingHosts``
on Linux and macOS, and from a registry key under HKCU on Windows. Browsers
confined by Snap or Flatpak cannot use a host registered that way, so they are
reported (with the reason) instead of registered.

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


@dataclass(frozen=True)
class Browser:
    """One browser on one platform.

    ``config_dir`` is the browser's user data folder relative to the
    platform's config root (see :func:`config_root`); it tells whether the
    browser has been used here and, outside Windows, holds the
    ``NativeMessagingHosts`` folder.
    """

    name: str
    platform: str  # a sys.platform value: "linux", "darwin" or "win32"
    config_dir: str
    executables: tuple[str, ...] = ()
    registry_path: str = ""  # Windows: vendor path under HKCU\Software
    snap: str = ""  # Linux: name of the snap that ships this browser
    flatpak_id: str = ""  # Linux: Flatpak application id


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


BROWSERS: tuple[Browser, ...] = (
    Browser("Google Chrome", "linux", "google-chrome", ("google-chrome", "google-chrome-stable"), flatpak_id="com.google.Chrome"),
    Browser("Google Chrome Beta", "linux", "google-chrome-beta", ("google-chrome-beta",)),
    Browser("Google Chrome Dev", "linux", "google-chrome-unstable", ("google-chrome-unstable",), flatpak_id="com.google.ChromeDev"),
    Browser("Chromium", "linux", "chromium", ("chromium", "chromium-browser"), snap="chromium", flatpak_id="org.chromium.Chromium"),
    Browser("Brave", "linux", "BraveSoftware/Brave-Browser", ("brave-browser", "brave"), snap="brave", flatpak_id="com.brave.Browser"),
    Browser("Microsoft Edge", "linux", "microsoft-edge", ("microsoft-edge", "microsoft-edge-stable"), flatpak_id="com.microsoft.Edge"),
    Browser("Vivaldi", "linux", "vivaldi", ("vivaldi", "vivaldi-stable"), flatpak_id="com.vivaldi.Vivaldi"),
    Browser("Google Chrome", "darwin", "Google/Chrome"),
    Browser("Google Chrome Beta", "darwin", "Google/Chrome Beta"),
    Browser("Google Chrome Dev", "darwin", "Google/Chrome Dev"),
    Browser("Chromium", "darwin", "Chromium"),
    Browser("Brave", "darwin", "BraveSoftware/Brave-Browser"),
    Browser("Microsoft Edge", "darwin", "Microsoft Edge"),
    Browser("Vivaldi", "darwin", "Vivaldi"),
    Browser("Arc", "darwin", "Arc/User Data"),
    # Every Chrome channel on Windows reads the same registry key.
    Browser("Google Chrome", "win32", "Google/Chrome/User Data", ("chrome",), registry_path=r"Google\Chrome"),
    Browser("Chromium", "win32", "Chromium/User Data", ("chromium",), registry_path="Chromium"),
    Browser("Brave", "win32", "BraveSoftware/Brave-Browser/User Data", ("brave",), registry_path=r"BraveSoftware\Brave-Browser"),
    Browser("Microsoft Edge", "win32", "Microsoft/Edge/User Data", ("msedge",), registry_path=r"Microsoft\Edge"),
    Browser("Vivaldi", "win32", "Vivaldi/User Data", ("vivaldi",), registry_path="Vivaldi"),
)


def browsers_for(platform: str = sys.platform) -> tuple[Browser, ...]:
    """The table's rows for one platform (any other Unix is treated as Linux)."""
    key = platform if platform in ("darwin", "win32") else "linux"
    return tuple(b for b in BROWSERS if b.platform == key)


def config_root(platform: str = sys.platform, home: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The folder the browsers' user data folders live in.

    Linux Chrome honours XDG_CONFIG_HOME; Windows browsers keep their data in
    LOCALAPPDATA.
    """
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        return Path(environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    return Path(environ.get("XDG_CONFIG_HOME") or home / ".config")


def manifest_path(browser: Browser, home: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """Where a Linux or macOS browser looks for tabsight's host manifest."""
    root = config_root(browser.platform, home, environ)
    return root / browser.config_dir / "NativeMessagingHosts" / f"{NATIVE_HOST_NAME}.json"


def registry_key(browser: Browser) -> str:
    """The HKCU subkey whose default value names the manifest file, on Windows."""
    return rf"Software\{browser.registry_path}\NativeMessagingHosts\{NATIVE_HOST_NAME}"


def detect(home: Path | None = None, environ: Mapping[str, str] | None = None, platform: str = sys.platform) -> Detection:
    """The browsers to register (config folder present or executable on PATH)
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
        if (root / browser.config_dir).is_dir():
            found.append(browser)
        # A snap's command (or Ubuntu's wrapper around it) on PATH is not a browser we can serve.
        elif not snap and any(shutil.which(name, path=search_path) for name in browser.executables):
            found.append(browser)
    return Detection(tuple(found), tuple(unsupported))


def _snap_location(browser: Browser, home: Path) -> Path | None:
    if not browser.snap:
        return None
    for place in (SNAP_BIN / browser.snap, home / "snap" / browser.snap):
        if place.exists():
            return place
    return None
