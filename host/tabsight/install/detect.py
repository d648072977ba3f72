r"""Which Chromium-family browsers are on this machine, and where each one looks
for native-messaging host manifests.

Chrome reads a user's native hosts from ``<user data dir>/NativeMessagingHosts``
on Linux and macOS (``DIR_USER_NATIVE_MESSAGING`` in Chromium's
chrome/common/chrome_paths.cc is ``DIR_USER_DATA`` + ``NativeMessagingHosts``,
so a browser started with ``--user-data-dir DIR`` reads ``DIR/NativeMessagingHosts``
and not the default folder's), and from a registry key under HKCU on Windows.
Browsers confined by Snap or Flatpak cannot use a host registered that way, so
they are reported (with the reason) instead of registered.

Sources for the table below: Chrome's "Native messaging host location"
(developer.chrome.com/docs/extensions/develop/concepts/native-messaging),
Chromium's docs/user_data_dir.md and chrome/common/channel_info_posix.cc
(channel folders: -beta, -unstable, -canary), chrome_paths_linux.cc
(google-chrome-for-testing), native_process_launcher_win.cc (Windows reads
``Software\Chromium`` in Chromium-branded builds, then ``Software\Google\Chrome``,
whatever the browser), Microsoft's "Native messaging" page for Edge
(``Microsoft Edge {Beta,Dev,Canary}`` on macOS, ``Software\Microsoft\Edge``
on Windows), brave-core's chromium_src/chrome/common/chrome_paths_linux.cc
(``BraveSoftware/Brave-Browser`` + channel), and the KeePassXC reports that
Brave on macOS reads Chrome's folder (keepassxc-browser #1442, #2328) and
Brave and Vivaldi on Windows Chrome's key (keepassxc-browser #48).

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
    ``NativeMessagingHosts`` folder. ``processes`` are how the path of its
    executable ends (the main process's ``argv[0]``), for ``doctor``'s
    "is it running" check.
    """

    name: str
    platform: str  # a sys.platform value: "linux", "darwin" or "win32"
    config_dir: str
    executables: tuple[str, ...] = ()
    processes: tuple[str, ...] = ()
    registry_path: str = ""  # Windows: vendor path under HKCU\Software
    snap: str = ""  # Linux: name of the snap that ships this browser
    flatpak_id: str = ""  # Linux: Flatpak application id
    also_reads: tuple[str, ...] = ()  # other user data folders whose NativeMessagingHosts it reads


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


L, M, W = "linux", "darwin", "win32"


def _mac_app(name: str, binary: str = "") -> tuple[str, ...]:
    return (f"{name}.app/Contents/MacOS/{binary or name}",)


#: macOS Brave has been seen reading Chrome's folder instead of its own (see the module docstring).
_BRAVE_MAC = ("Google/Chrome",)
#: What Chromium's Windows launcher reads whatever the browser (Brave, Vivaldi, Opera: they do not patch it).
_CHROME_KEY = r"Google\Chrome"

BROWSERS: tuple[Browser, ...] = (
    Browser("Google Chrome", L, "google-chrome", ("google-chrome", "google-chrome-stable"), ("/opt/google/chrome/chrome",),
            flatpak_id="com.google.Chrome"),
    Browser("Google Chrome Beta", L, "google-chrome-beta", ("google-chrome-beta",), ("/opt/google/chrome-beta/chrome",)),
    Browser("Google Chrome Dev", L, "google-chrome-unstable", ("google-chrome-unstable",),
            ("/opt/google/chrome-unstable/chrome",), flatpak_id="com.google.ChromeDev"),
    Browser("Google Chrome Canary", L, "google-chrome-canary", ("google-chrome-canary",),
            ("/opt/google/chrome-canary/chrome",)),
    Browser("Google Chrome for Testing", L, "google-chrome-for-testing", (), ("/chrome-linux64/chrome",)),
    Browser("Chromium", L, "chromium", ("chromium", "chromium-browser"), ("/chromium", "/chromium-browser"),
            snap="chromium", flatpak_id="org.chromium.Chromium"),
    Browser("Brave", L, "BraveSoftware/Brave-Browser", ("brave-browser", "brave"), ("/opt/brave.com/brave/brave",),
            snap="brave", flatpak_id="com.brave.Browser"),
    Browser("Brave Beta", L, "BraveSoftware/Brave-Browser-Beta", ("brave-browser-beta",),
            ("/opt/brave.com/brave-beta/brave",)),
    Browser("Brave Nightly", L, "BraveSoftware/Brave-Browser-Nightly", ("brave-browser-nightly",),
            ("/opt/brave.com/brave-nightly/brave",)),
    Browser("Microsoft Edge", L, "microsoft-edge", ("microsoft-edge", "microsoft-edge-stable"),
            ("/opt/microsoft/msedge/msedge",), flatpak_id="com.microsoft.Edge"),
    Browser("Microsoft Edge Beta", L, "microsoft-edge-beta", ("microsoft-edge-beta",), ("/opt/microsoft/msedge-beta/msedge",)),
    Browser("Microsoft Edge Dev", L, "microsoft-edge-dev", ("microsoft-edge-dev",), ("/opt/microsoft/msedge-dev/msedge",)),
    Browser("Vivaldi", L, "vivaldi", ("vivaldi", "vivaldi-stable"), ("/opt/vivaldi/vivaldi-bin",),
            flatpak_id="com.vivaldi.Vivaldi"),
    Browser("Vivaldi Snapshot", L, "vivaldi-snapshot", ("vivaldi-snapshot",), ("/opt/vivaldi-snapshot/vivaldi-bin",)),
    Browser("Opera", L, "opera", ("opera",), ("/opera/opera",), snap="opera", flatpak_id="com.opera.Opera"),
    Browser("Google Chrome", M, "Google/Chrome", processes=_mac_app("Google Chrome")),
    Browser("Google Chrome Beta", M, "Google/Chrome Beta", processes=_mac_app("Google Chrome Beta")),
    Browser("Google Chrome Dev", M, "Google/Chrome Dev", processes=_mac_app("Google Chrome Dev")),
    Browser("Google Chrome Canary", M, "Google/Chrome Canary", processes=_mac_app("Google Chrome Canary")),
    Browser("Google Chrome for Testing", M, "Google/Chrome for Testing", processes=_mac_app("Google Chrome for Testing")),
    Browser("Chromium", M, "Chromium", processes=_mac_app("Chromium")),
    Browser("Brave", M, "BraveSoftware/Brave-Browser", processes=_mac_app("Brave Browser"), also_reads=_BRAVE_MAC),
    Browser("Brave Beta", M, "BraveSoftware/Brave-Browser-Beta", processes=_mac_app("Brave Browser Beta"),
            also_reads=_BRAVE_MAC),
    Browser("Brave Nightly", M, "BraveSoftware/Brave-Browser-Nightly", processes=_mac_app("Brave Browser Nightly"),
            also_reads=_BRAVE_MAC),
    Browser("Microsoft Edge", M, "Microsoft Edge", processes=_mac_app("Microsoft Edge")),
    Browser("Microsoft Edge Beta", M, "Microsoft Edge Beta", processes=_mac_app("Microsoft Edge Beta")),
    Browser("Microsoft Edge Dev", M, "Microsoft Edge Dev", processes=_mac_app("Microsoft Edge Dev")),
    Browser("Microsoft Edge Canary", M, "Microsoft Edge Canary", processes=_mac_app("Microsoft Edge Canary")),
    Browser("Vivaldi", M, "Vivaldi", processes=_mac_app("Vivaldi")),
    Browser("Opera", M, "com.operasoftware.Opera", processes=_mac_app("Opera")),
    Browser("Opera GX", M, "com.operasoftware.OperaGX"),
    Browser("Arc", M, "Arc/User Data", processes=_mac_app("Arc")),
    # Every Chrome channel on Windows reads the same registry key, and so does every
    # Chromium fork that leaves Chromium's launcher alone; Edge reads its own first.
    Browser("Google Chrome", W, "Google/Chrome/User Data", ("chrome",), registry_path=_CHROME_KEY),
    Browser("Google Chrome Beta", W, "Google/Chrome Beta/User Data", registry_path=_CHROME_KEY),
    Browser("Google Chrome Dev", W, "Google/Chrome Dev/User Data", registry_path=_CHROME_KEY),
    Browser("Google Chrome Canary", W, "Google/Chrome SxS/User Data", registry_path=_CHROME_KEY),
    Browser("Chromium", W, "Chromium/User Data", ("chromium",), registry_path="Chromium"),
    Browser("Brave", W, "BraveSoftware/Brave-Browser/User Data", ("brave",), registry_path=_CHROME_KEY),
    Browser("Microsoft Edge", W, "Microsoft/Edge/User Data", ("msedge",), registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Beta", W, "Microsoft/Edge Beta/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Dev", W, "Microsoft/Edge Dev/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Canary", W, "Microsoft/Edge SxS/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Vivaldi", W, "Vivaldi/User Data", ("vivaldi",), registry_path=_CHROME_KEY),
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


def user_data_dir(browser: Browser, home: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The browser's default user data folder (what it uses without ``--user-data-dir``)."""
    return config_root(browser.platform, home, environ) / browser.config_dir


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
        if _used(root / browser.config_dir):
            found.append(browser)
        # A snap's command (or Ubuntu's wrapper around it) on PATH is not a browser we can serve.
        elif not snap and any(shutil.which(name, path=search_path) for name in browser.executables):
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
