r"""The Chromium-family browsers tabsight knows, one row per browser and platform.

A row says where the browser keeps its user data folder, how it is started
(commands on PATH) and how the path of its main executable ends, its channel,
its Snap and Flatpak names, the other folders whose native-messaging hosts it
reads, and its registry key on Windows. ``tabsight install``/``doctor``
(``install/``) read it to find the user's browsers and register the host; the
host (``nativehost/whoami.py``) reads it to name the browser that started it.

Sources: Chrome's "Native messaging host location"
(developer.chrome.com/docs/extensions/develop/concepts/native-messaging),
Chromium's docs/user_data_dir.md and chrome/common/channel_info_posix.cc
(channel folders: -beta, -unstable, -canary), chrome_paths_linux.cc
(google-chrome-for-testing; ``CHROME_CONFIG_HOME``, then ``XDG_CONFIG_HOME``),
native_process_launcher_win.cc (Windows reads ``Software\Chromium`` in
Chromium-branded builds, then ``Software\Google\Chrome``, whatever the
browser), Microsoft's "Native messaging" page for Edge (``Microsoft Edge
{Beta,Dev,Canary}`` on macOS, ``Software\Microsoft\Edge`` on Windows),
brave-core's chromium_src/chrome/common/chrome_paths_linux.cc
(``BraveSoftware/Brave-Browser`` + channel), and the KeePassXC reports that
Brave on macOS reads Chrome's folder (keepassxc-browser #1442, #2328) and Brave
and Vivaldi on Windows Chrome's key (keepassxc-browser #48). Machine-wide folders
(Linux): chrome_paths_linux.cc (``/etc/opt/chrome``, ``/etc/chromium``: native
hosts, and policy under ``policies/managed``), Microsoft's Edge policy page
(``/etc/opt/edge``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Browser:
    """One browser on one platform.

    ``config_dir`` is the browser's user data folder relative to the
    platform's config root (see :func:`config_root`); it tells whether the
    browser has been used here and, outside Windows, holds the
    ``NativeMessagingHosts`` folder. ``executables`` are how the path of its
    main executable ends (the main process's ``argv[0]``): what tells a
    running browser (``doctor``) and the browser that started the host.
    """

    name: str
    #: stable, beta, dev, canary, nightly or snapshot; None for builds without channels (Chromium, Chrome for Testing)
    channel: str | None
    platform: str  # a sys.platform value: "linux", "darwin" or "win32"
    config_dir: str
    commands: tuple[str, ...] = ()  # the names it is started by on PATH
    executables: tuple[str, ...] = ()
    registry_path: str = ""  # Windows: vendor path under HKCU\Software
    snap: str = ""  # Linux: name of the snap that ships this browser
    flatpak_id: str = ""  # Linux: Flatpak application id
    also_reads: tuple[str, ...] = ()  # other user data folders whose NativeMessagingHosts it reads
    #: installs the packed extensions named in ``<user data folder>/External Extensions`` (Chromium builds on
    #: Linux compile that per-user folder in; Google Chrome reads only system folders and policy)
    external_extensions: bool = False
    #: Linux: the machine-wide folder it reads native hosts (``native-messaging-hosts``) and managed policy
    #: (``policies/managed``) from, which ``tabsight install --system`` writes (install/system.py)
    system_folder: str = ""


L, M, W = "linux", "darwin", "win32"


def _mac_app(name: str) -> tuple[str, ...]:
    return (f"/{name}.app/Contents/MacOS/{name}",)


#: macOS Brave has been seen reading Chrome's folder instead of its own (see the module docstring).
_BRAVE_MAC = ("Google/Chrome",)
#: What Chromium's Windows launcher reads whatever the browser (Brave, Vivaldi, Opera: they do not patch it).
_CHROME_KEY = r"Google\Chrome"

BROWSERS: tuple[Browser, ...] = (
    Browser(
        "Google Chrome",
        "stable",
        L,
        "google-chrome",
        ("google-chrome", "google-chrome-stable"),
        ("/opt/google/chrome/chrome",),
        system_folder="/etc/opt/chrome",
        flatpak_id="com.google.Chrome",
    ),
    Browser(
        "Google Chrome Beta",
        "beta",
        L,
        "google-chrome-beta",
        ("google-chrome-beta",),
        ("/opt/google/chrome-beta/chrome",),
        system_folder="/etc/opt/chrome",
    ),
    Browser(
        "Google Chrome Dev",
        "dev",
        L,
        "google-chrome-unstable",
        ("google-chrome-unstable",),
        ("/opt/google/chrome-unstable/chrome",),
        system_folder="/etc/opt/chrome",
        flatpak_id="com.google.ChromeDev",
    ),
    Browser(
        "Google Chrome Canary",
        "canary",
        L,
        "google-chrome-canary",
        ("google-chrome-canary",),
        ("/opt/google/chrome-canary/chrome",),
        system_folder="/etc/opt/chrome",
    ),
    Browser("Google Chrome for Testing", None, L, "google-chrome-for-testing", (), ("/chrome-linux64/chrome",)),
    # distribution builds: /usr/lib/chromium/chromium (Debian), /usr/lib/chromium-browser/chrome (Ubuntu's snap)...
    Browser(
        "Chromium",
        None,
        L,
        "chromium",
        ("chromium", "chromium-browser"),
        ("/chromium", "/chromium-browser", "/chromium/chrome", "/chromium-browser/chrome"),
        snap="chromium",
        flatpak_id="org.chromium.Chromium",
        external_extensions=True,
        system_folder="/etc/chromium",
    ),
    Browser(
        "Brave",
        "stable",
        L,
        "BraveSoftware/Brave-Browser",
        ("brave-browser", "brave"),
        ("/opt/brave.com/brave/brave",),
        snap="brave",
        flatpak_id="com.brave.Browser",
    ),
    Browser(
        "Brave Beta",
        "beta",
        L,
        "BraveSoftware/Brave-Browser-Beta",
        ("brave-browser-beta",),
        ("/opt/brave.com/brave-beta/brave",),
    ),
    Browser(
        "Brave Nightly",
        "nightly",
        L,
        "BraveSoftware/Brave-Browser-Nightly",
        ("brave-browser-nightly",),
        ("/opt/brave.com/brave-nightly/brave",),
    ),
    Browser(
        "Microsoft Edge",
        "stable",
        L,
        "microsoft-edge",
        ("microsoft-edge", "microsoft-edge-stable"),
        ("/opt/microsoft/msedge/msedge",),
        system_folder="/etc/opt/edge",
        flatpak_id="com.microsoft.Edge",
    ),
    Browser(
        "Microsoft Edge Beta",
        "beta",
        L,
        "microsoft-edge-beta",
        ("microsoft-edge-beta",),
        ("/opt/microsoft/msedge-beta/msedge",),
        system_folder="/etc/opt/edge",
    ),
    Browser(
        "Microsoft Edge Dev",
        "dev",
        L,
        "microsoft-edge-dev",
        ("microsoft-edge-dev",),
        ("/opt/microsoft/msedge-dev/msedge",),
        system_folder="/etc/opt/edge",
    ),
    Browser(
        "Vivaldi",
        "stable",
        L,
        "vivaldi",
        ("vivaldi", "vivaldi-stable"),
        ("/opt/vivaldi/vivaldi-bin",),
        flatpak_id="com.vivaldi.Vivaldi",
    ),
    Browser(
        "Vivaldi Snapshot",
        "snapshot",
        L,
        "vivaldi-snapshot",
        ("vivaldi-snapshot",),
        ("/opt/vivaldi-snapshot/vivaldi-bin",),
    ),
    Browser("Opera", "stable", L, "opera", ("opera",), ("/opera/opera",), snap="opera", flatpak_id="com.opera.Opera"),
    Browser("Google Chrome", "stable", M, "Google/Chrome", executables=_mac_app("Google Chrome")),
    Browser("Google Chrome Beta", "beta", M, "Google/Chrome Beta", executables=_mac_app("Google Chrome Beta")),
    Browser("Google Chrome Dev", "dev", M, "Google/Chrome Dev", executables=_mac_app("Google Chrome Dev")),
    Browser("Google Chrome Canary", "canary", M, "Google/Chrome Canary", executables=_mac_app("Google Chrome Canary")),
    Browser(
        "Google Chrome for Testing",
        None,
        M,
        "Google/Chrome for Testing",
        executables=_mac_app("Google Chrome for Testing"),
    ),
    Browser("Chromium", None, M, "Chromium", executables=_mac_app("Chromium")),
    Browser(
        "Brave",
        "stable",
        M,
        "BraveSoftware/Brave-Browser",
        executables=_mac_app("Brave Browser"),
        also_reads=_BRAVE_MAC,
    ),
    Browser(
        "Brave Beta",
        "beta",
        M,
        "BraveSoftware/Brave-Browser-Beta",
        executables=_mac_app("Brave Browser Beta"),
        also_reads=_BRAVE_MAC,
    ),
    Browser(
        "Brave Nightly",
        "nightly",
        M,
        "BraveSoftware/Brave-Browser-Nightly",
        executables=_mac_app("Brave Browser Nightly"),
        also_reads=_BRAVE_MAC,
    ),
    Browser("Microsoft Edge", "stable", M, "Microsoft Edge", executables=_mac_app("Microsoft Edge")),
    Browser("Microsoft Edge Beta", "beta", M, "Microsoft Edge Beta", executables=_mac_app("Microsoft Edge Beta")),
    Browser("Microsoft Edge Dev", "dev", M, "Microsoft Edge Dev", executables=_mac_app("Microsoft Edge Dev")),
    Browser(
        "Microsoft Edge Canary", "canary", M, "Microsoft Edge Canary", executables=_mac_app("Microsoft Edge Canary")
    ),
    Browser("Vivaldi", "stable", M, "Vivaldi", executables=_mac_app("Vivaldi")),
    Browser("Opera", "stable", M, "com.operasoftware.Opera", executables=_mac_app("Opera")),
    Browser("Opera GX", "stable", M, "com.operasoftware.OperaGX"),
    Browser("Arc", "stable", M, "Arc/User Data", executables=_mac_app("Arc")),
    # Every Chrome channel on Windows reads the same registry key, and so does every
    # Chromium fork that leaves Chromium's launcher alone; Edge reads its own first.
    Browser("Google Chrome", "stable", W, "Google/Chrome/User Data", ("chrome",), registry_path=_CHROME_KEY),
    Browser("Google Chrome Beta", "beta", W, "Google/Chrome Beta/User Data", registry_path=_CHROME_KEY),
    Browser("Google Chrome Dev", "dev", W, "Google/Chrome Dev/User Data", registry_path=_CHROME_KEY),
    Browser("Google Chrome Canary", "canary", W, "Google/Chrome SxS/User Data", registry_path=_CHROME_KEY),
    Browser("Chromium", None, W, "Chromium/User Data", ("chromium",), registry_path="Chromium"),
    Browser("Brave", "stable", W, "BraveSoftware/Brave-Browser/User Data", ("brave",), registry_path=_CHROME_KEY),
    Browser("Microsoft Edge", "stable", W, "Microsoft/Edge/User Data", ("msedge",), registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Beta", "beta", W, "Microsoft/Edge Beta/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Dev", "dev", W, "Microsoft/Edge Dev/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Microsoft Edge Canary", "canary", W, "Microsoft/Edge SxS/User Data", registry_path=r"Microsoft\Edge"),
    Browser("Vivaldi", "stable", W, "Vivaldi/User Data", ("vivaldi",), registry_path=_CHROME_KEY),
)


def browsers_for(platform: str = sys.platform) -> tuple[Browser, ...]:
    """The table's rows for one platform (any other Unix is treated as Linux)."""
    key = platform if platform in ("darwin", "win32") else "linux"
    return tuple(b for b in BROWSERS if b.platform == key)


def browser_of(executable: str, platform: str = sys.platform) -> Browser | None:
    """The row whose main executable ``executable`` is, if the table knows it."""
    return next((b for b in browsers_for(platform) if any(executable.endswith(end) for end in b.executables)), None)


def config_root(
    platform: str = sys.platform, home: Path | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The folder the browsers' user data folders live in.

    Linux browsers honour ``CHROME_CONFIG_HOME``, then ``XDG_CONFIG_HOME``;
    Windows browsers keep their data in ``LOCALAPPDATA``.
    """
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        return Path(environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    return Path(environ.get("CHROME_CONFIG_HOME") or environ.get("XDG_CONFIG_HOME") or home / ".config")


def user_data_dir(browser: Browser, home: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The browser's default user data folder (what it uses without ``--user-data-dir``)."""
    return config_root(browser.platform, home, environ) / browser.config_dir
