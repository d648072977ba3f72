"""Which browser this host serves: its channel, its user data folder, and the profile in it.

The extension's hello names the browser's brand and version, but not its
channel (Chrome Beta says "Google Chrome" like Chrome) nor the profile it runs
in; the host reads those from the browser process that started it (its
parent) and from the files of that browser:

- the channel and the default user data folder, from the path of the
  browser's executable (``/opt/google/chrome-beta/chrome``, ``Google Chrome
  Beta.app``): ``tabsight/browsers.py``'s table, else (the channel only) the
  channel word a folder or app bundle name the table does not know ends in;
- the user data folder: the browser's ``--user-data-dir=`` flag, else (Linux)
  the folder of the extension storage the browser holds open, else that
  default;
- the profile folder (``Default``, ``Profile 2``): the one whose
  ``Local Extension Settings/<extension id>`` LevelDB files (what
  ``chrome.storage.local`` is made of) hold the extension's ``profile_id``,
  else the only profile whose preferences list the extension;
- the profile's name, from ``<user data>/Local State``
  (``profile.info_cache[<folder>].name``, the name the profile menu shows).

Every function takes the paths it reads as parameters (``proc``, ``home``,
``environ``), so the tests run it against folders of their own. Nothing here
raises for a missing or unreadable file: what cannot be known is left out.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tabsight.browsers import browser_of, user_data_dir

#: a profile name is the user's words, shown in every tab listing: kept short
MAX_NAME = 60
#: LevelDB files larger than this are not searched (tabsight's storage is a few KiB)
MAX_STORAGE_FILE = 16 << 20


@dataclass(frozen=True)
class Whoami:
    """What the host found out; ``None`` where it could not tell."""

    channel: str | None = None
    user_data_dir: str | None = None
    #: the profile's folder in the user data folder: ``Default``, ``Profile 1``...
    profile_dir: str | None = None
    #: the name the browser's profile menu shows: ``Person 1``, ``Work``...
    profile_name: str | None = None

    @property
    def settled(self) -> bool:
        """Nothing more to learn by looking again (a new profile's name reaches Local State seconds after start)."""
        return self.user_data_dir is None or self.profile_name is not None


# --- the executable: channel and default user data folder ------------------------


_CHANNEL_WORD = re.compile(r"(?:^|[-_ ])(beta|dev|unstable|canary|nightly|snapshot|sxs)$", re.IGNORECASE)


def _app_bundle(executable: str) -> str | None:
    """``Google Chrome Beta`` for ``/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta``."""
    for part in reversed(PurePosixPath(executable).parts):
        if part.endswith(".app"):
            return part[: -len(".app")]
    return None


def channel_of(executable: str, platform: str = sys.platform) -> str | None:
    """``stable``, ``beta``, ``dev``, ``canary``, ``nightly`` or ``snapshot``, when the path tells."""
    browser = browser_of(executable, platform)
    if browser:
        return browser.channel
    # an install the table does not know: its folder (Linux) or bundle (macOS) may still end in a channel
    place = _app_bundle(executable) if platform == "darwin" else PurePosixPath(executable).parent.name
    match = _CHANNEL_WORD.search(place or "")
    if not match:
        return None
    word = match.group(1).lower()
    return {"unstable": "dev", "sxs": "canary"}.get(word, word)


def default_user_data_dir(
    executable: str,
    platform: str = sys.platform,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Path | None:
    """The folder this browser uses without ``--user-data-dir``, if the table knows the install."""
    browser = browser_of(executable, platform)
    return user_data_dir(browser, home, environ) if browser else None


# --- the browser process ----------------------------------------------------------


def browser_process(pid: int, platform: str = sys.platform, proc: Path = Path("/proc")) -> tuple[str | None, list[str]]:
    """The executable and the arguments of process ``pid`` (the browser that started the host)."""
    if platform == "darwin":
        return _mac_process(pid)
    base = proc / str(pid)
    try:
        executable: str | None = os.readlink(base / "exe")
    except OSError:
        executable = None
    try:
        argv = [arg for arg in (base / "cmdline").read_bytes().decode(errors="replace").split("\0") if arg]
    except OSError:
        argv = []
    if executable is None and argv:
        executable = argv[0]
    return executable, argv


def _mac_process(pid: int) -> tuple[str | None, list[str]]:
    def ps(field: str) -> str:
        try:
            done = subprocess.run(
                ["ps", "-ww", "-o", f"{field}=", "-p", str(pid)], capture_output=True, text=True, timeout=5
            )
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip()

    executable = ps("comm") or None
    command = ps("args")
    if executable and command.startswith(executable):
        # ps joins the arguments with spaces: split where a flag begins, so a folder with spaces stays whole
        rest = command[len(executable) :]
        return executable, [executable, *(arg.strip() for arg in re.split(r" (?=--)", rest) if arg.strip())]
    return executable, [command] if command else []


def user_data_dir_flag(argv: list[str], cwd: Path | None = None) -> Path | None:
    """The folder of the browser's ``--user-data-dir=`` flag (the last one wins, as in Chrome)."""
    found = None
    for arg in argv[1:]:
        if arg.startswith("--user-data-dir="):
            found = arg[len("--user-data-dir=") :]
    if not found:
        return None
    path = Path(found)
    return path if path.is_absolute() or cwd is None else cwd / path


def storage_folder(profile: Path, extension_id: str) -> Path:
    """Where ``chrome.storage.local`` of the extension keeps its LevelDB files in ``profile``."""
    return profile / "Local Extension Settings" / extension_id


def open_profiles(fd_dir: Path, extension_id: str) -> list[Path]:
    """The profile folders whose storage of the extension process ``fd_dir/..`` holds open (Linux: its LevelDB LOCK)."""
    found: list[Path] = []
    try:
        fds = list(fd_dir.iterdir())
    except OSError:
        return []
    for fd in fds:
        try:
            target = Path(os.readlink(fd))
        except OSError:
            continue
        parts = target.parts
        for i in range(1, len(parts) - 1):
            if parts[i] == "Local Extension Settings" and parts[i + 1] == extension_id:
                profile = Path(*parts[:i])
                if profile not in found:
                    found.append(profile)
                break
    return found


# --- the profile ------------------------------------------------------------------


def profiles_of(user_data: Path) -> list[Path]:
    try:
        return sorted(child for child in user_data.iterdir() if child.is_dir())
    except OSError:
        return []


def profile_holding(user_data: Path, profile_id: str, extension_id: str) -> str | None:
    """The profile folder whose ``chrome.storage.local`` files of the extension contain ``profile_id``.

    LevelDB writes a new value to its ``.log`` as is, and compaction moves it to
    an ``.ldb`` table (Snappy-compressed, which in practice leaves a random
    id's characters as they are): a byte search finds it in either.
    """
    if not profile_id:
        return None
    needle = profile_id.encode()
    for profile in profiles_of(user_data):
        folder = storage_folder(profile, extension_id)
        try:
            files = [f for f in folder.iterdir() if f.suffix in (".log", ".ldb")]
        except OSError:
            continue
        for file in files:
            try:
                if file.stat().st_size <= MAX_STORAGE_FILE and needle in file.read_bytes():
                    return profile.name
            except OSError:
                continue
    return None


def profile_with_extension(user_data: Path, extension_id: str) -> str | None:
    """The profile whose preferences list the extension, when exactly one does."""
    found = []
    for profile in profiles_of(user_data):
        for name in ("Secure Preferences", "Preferences"):
            try:
                settings = json.loads((profile / name).read_text(encoding="utf-8"))["extensions"]["settings"]
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if isinstance(settings, dict) and isinstance(settings.get(extension_id), dict):
                found.append(profile.name)
                break
    return found[0] if len(found) == 1 else None


def profile_name(user_data: Path, profile_dir: str) -> str | None:
    """The name the profile menu shows for ``profile_dir``, from ``Local State``.

    A profile that kept its default name shows its Google account's given name
    when signed in (Chrome's ProfileAttributesEntry::GetName).
    """
    try:
        cache = json.loads((user_data / "Local State").read_text(encoding="utf-8"))["profile"]["info_cache"]
        info = cache[profile_dir]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(info, dict):
        return None
    name = info.get("name")
    if info.get("is_using_default_name"):
        name = info.get("gaia_given_name") or info.get("gaia_name") or name
    if not isinstance(name, str) or not name.strip():
        return None
    name = " ".join(name.split())
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


# --- all together -----------------------------------------------------------------


def identify(
    pid: int,
    profile_id: str,
    extension_id: str,
    *,
    platform: str = sys.platform,
    proc: Path = Path("/proc"),
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Whoami:
    """What can be told of the browser process ``pid`` whose extension has ``profile_id``."""
    if platform == "win32":
        return Whoami()
    executable, argv = browser_process(pid, platform, proc)
    channel = channel_of(executable, platform) if executable else None
    cwd = None
    if platform != "darwin":
        try:
            cwd = Path(os.readlink(proc / str(pid) / "cwd"))
        except OSError:
            pass
    user_data = user_data_dir_flag(argv, cwd)
    if user_data is None and platform != "darwin":
        held = open_profiles(proc / str(pid) / "fd", extension_id)
        if held:
            user_data = held[0].parent
    if user_data is None and executable:
        user_data = default_user_data_dir(executable, platform, home, environ)
    if user_data is None or not user_data.is_dir():
        return Whoami(channel=channel)
    profile = profile_holding(user_data, profile_id, extension_id) or profile_with_extension(user_data, extension_id)
    return Whoami(
        channel=channel,
        user_data_dir=str(user_data),
        profile_dir=profile,
        profile_name=profile_name(user_data, profile) if profile else None,
    )
