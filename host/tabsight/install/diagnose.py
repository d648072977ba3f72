"""What ``tabsight doctor`` concludes from what it finds.

Which browsers run (their main processes, from a process list), which user
data folder each one uses, whether the extension is in one of its profiles,
whether tabsight's host manifest is where that browser reads it, and which of
them a live host serves. Everything but :func:`list_processes` and
:func:`scan_hosts` is a function of paths and plain data, so the tests feed
it a temporary HOME and a made-up process list.

The verdict is one line per browser that is running without a working host
(or per case below), each with its fix:

- no browser is running;
- a browser runs without the extension;
- the extension is there but the host is not registered for that browser;
- the host is registered but none answers (a stale socket, a host that died);
- all good: the live hosts, with browser, versions and profile.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tabsight import NATIVE_HOST_NAME, __version__
from tabsight.browser.embedded import PROFILE_PREFIX
from tabsight.browsers import Browser, browser_of, browsers_for, user_data_dir
from tabsight.protocol.frames import Hello

INSTALL_FIX = "run `tabsight install`"
NO_HOST_FIX = "open the browser with the tabsight extension loaded, or let `tabsight mcp` start its embedded browser"
RELOAD = "click the reload button of tabsight's card at chrome://extensions"

#: Executables of Chromium-family browsers the table does not name (Playwright's, a custom build...).
GENERIC_EXECUTABLES = ("chrome", "chromium", "chromium-browser", "msedge", "brave", "vivaldi-bin", "opera")


# --- one line of the report --------------------------------------------------


@dataclass(frozen=True)
class Check:
    status: Literal["ok", "FAIL", "note"]
    what: str
    fix: str = ""

    def line(self) -> str:
        return f"{self.status:<4}  {self.what}" + (f"  -> fix: {self.fix}" if self.fix else "")


def ok(what: str) -> Check:
    return Check("ok", what)


def fail(what: str, fix: str) -> Check:
    return Check("FAIL", what, fix)


# --- the manifest --------------------------------------------------------------


def manifest_checks(label: str, where: str, path: Path | None, origins: Sequence[str]) -> Iterator[Check]:
    """One line per thing the browser needs from the manifest at ``path`` (``where`` names it for the report)."""
    if path is None or not path.is_file():
        yield fail(f"{label}: no host manifest at {where}", INSTALL_FIX)
        return
    yield ok(f"{label}: manifest at {where}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as error:
        yield fail(f"{label}: {path} is not valid JSON ({error})", INSTALL_FIX)
        return
    yield ok(f"{label}: manifest is valid JSON")
    for field, expected in (("name", NATIVE_HOST_NAME), ("type", "stdio")):
        yield _expect_field(label, manifest, field, expected)
    launcher = Path(str(manifest.get("path", "")))
    if launcher.is_absolute() and launcher.is_file() and os.access(launcher, os.X_OK):
        yield ok(f"{label}: launcher {launcher} is executable")
    else:
        yield fail(f"{label}: launcher {launcher} is missing or not executable", INSTALL_FIX)
    yield _expect_field(label, manifest, "allowed_origins", list(origins))


def _expect_field(label: str, manifest: dict, field: str, expected: object) -> Check:
    value = manifest.get(field)
    if value == expected:
        return ok(f"{label}: {field} is {value!r}")
    return fail(f"{label}: {field} is {value!r}, expected {expected!r}", INSTALL_FIX)


def manifest_problem(paths: Sequence[Path], origins: Sequence[str]) -> str:
    """'' when one of ``paths`` holds a right manifest, else what is wrong with the first."""
    problems = []
    for path in paths:
        failures = [check.what for check in manifest_checks("", str(path), path, origins) if check.status == "FAIL"]
        if not failures:
            return ""
        problems.append(failures[0].removeprefix(": "))
    return problems[0] if problems else "not registered (no registry key names a manifest)"


def launcher_of(path: Path) -> str:
    """The launcher a manifest names ('' if unreadable), for the "run it by hand" fix."""
    try:
        return str(json.loads(path.read_text(encoding="utf-8")).get("path", ""))
    except (OSError, ValueError, AttributeError):
        return ""


# --- the extension in a user data folder ---------------------------------------


@dataclass(frozen=True)
class ProfileExtension:
    """tabsight's extension in one profile (``Default``, ``Profile 1``...) of a user data folder."""

    profile: str
    enabled: bool
    path: str  # where it was loaded from


def extension_profiles(
    user_data: Path, extension_ids: Sequence[str], extension_paths: Sequence[Path]
) -> list[ProfileExtension]:
    """The profiles of ``user_data`` whose preferences list the extension, by one of its ids (the packaged key's,
    this machine's: paths.extension_ids) or its folders (loaded unpacked from the package or the installed copy).

    Chrome keeps an extension's settings under ``extensions.settings.<id>`` in
    the profile's ``Secure Preferences`` (Windows, macOS) or ``Preferences``
    (Linux), with ``path`` the folder an unpacked extension was loaded from.
    """
    found = []
    try:
        profiles = sorted(child for child in user_data.iterdir() if child.is_dir())
    except OSError:
        return []
    for profile in profiles:
        for name in ("Secure Preferences", "Preferences"):
            entry = _extension_entry(profile / name, extension_ids, [str(path) for path in extension_paths])
            if entry is not None:
                found.append(ProfileExtension(profile.name, not _disabled(entry), str(entry.get("path", ""))))
                break
    return found


def _extension_entry(preferences: Path, extension_ids: Sequence[str], extension_paths: Sequence[str]) -> dict | None:
    try:
        settings = json.loads(preferences.read_text(encoding="utf-8"))["extensions"]["settings"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(settings, dict):
        return None
    entry = next((settings[i] for i in extension_ids if isinstance(settings.get(i), dict)), None)
    if entry is None:
        entry = next((e for e in settings.values() if isinstance(e, dict) and e.get("path") in extension_paths), None)
    return entry


def _disabled(entry: dict) -> bool:
    """Turned off at chrome://extensions: ``disable_reasons`` set (``state`` 0 in older Chromes)."""
    return bool(entry.get("disable_reasons")) or entry.get("state") == 0


# --- processes ----------------------------------------------------------------


@dataclass(frozen=True)
class Process:
    """One process: ``argv`` as the kernel has it (on Linux) or as ``ps`` prints it, split before each ``--flag``."""

    pid: int
    ppid: int
    argv: tuple[str, ...]


def list_processes(platform: str = sys.platform, proc: Path = Path("/proc")) -> list[Process] | None:
    """The current user's processes; None where doctor cannot list them (Windows)."""
    if platform == "win32":
        return None
    if proc.is_dir() and platform.startswith("linux"):
        return _proc_processes(proc)
    try:
        listing = subprocess.run(
            ["ps", "-x", "-o", "pid=,ppid=,command="], capture_output=True, text=True, timeout=10, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_ps(listing)


def _proc_processes(proc: Path) -> list[Process]:
    uid = os.getuid()
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # it ended meanwhile, or is not ours to read
        if argv and argv[-1] == b"":
            argv.pop()
        found.append(Process(int(entry.name), ppid, tuple(os.fsdecode(arg) for arg in argv)))
    return found


def parse_ps(listing: str) -> list[Process]:
    """``ps -o pid=,ppid=,command=`` lines; paths may hold spaces, so arguments are split only before ``--``."""
    found = []
    for line in listing.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            found.append(Process(int(parts[0]), int(parts[1]), tuple(re.split(r" (?=--)", parts[2].strip()))))
    return found


@dataclass(frozen=True)
class Running:
    """A browser's main process."""

    pid: int
    name: str
    browser: Browser | None  # None: a Chromium-family executable the table does not name
    user_data: Path | None  # --user-data-dir, else the browser's default; None if unknown
    explicit: bool = False  # user_data came from --user-data-dir
    confined: str = ""  # "Snap" or "Flatpak": such a browser cannot start tabsight's host

    @property
    def embedded(self) -> bool:
        """An embedded browser of tabsight's (its temporary profile says so)."""
        return self.explicit and self.user_data is not None and self.user_data.name.startswith(PROFILE_PREFIX)


def running_browsers(
    processes: Sequence[Process],
    platform: str = sys.platform,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[Running]:
    """The browsers' main processes among ``processes`` (helpers carry ``--type=``; they are left out)."""
    rows = browsers_for(platform)
    found = []
    for process in processes:
        if not process.argv or any(arg.startswith("--type=") for arg in process.argv[1:]):
            continue
        executable, name = process.argv[0], Path(process.argv[0]).name
        flag = _user_data_flag(process.argv)
        given = Path(flag) if flag else None
        if executable.startswith("/snap/"):
            snap = executable.split("/")[2]
            row = next((b for b in rows if b.snap == snap), None)
            if row or name in GENERIC_EXECUTABLES:
                found.append(
                    Running(process.pid, f"{row.name if row else snap} (Snap)", row, given, bool(flag), "Snap")
                )
            continue
        if executable.startswith("/app/") and name in GENERIC_EXECUTABLES:
            found.append(Running(process.pid, f"{name} (Flatpak)", None, given, bool(flag), "Flatpak"))
            continue
        row = browser_of(executable, platform)
        if row is not None:
            found.append(Running(process.pid, row.name, row, given or user_data_dir(row, home, environ), bool(flag)))
        elif name in GENERIC_EXECUTABLES:
            found.append(Running(process.pid, name, None, given, bool(flag)))
    return found


def _user_data_flag(argv: Sequence[str]) -> str:
    for arg in argv[1:]:
        if arg.startswith("--user-data-dir="):
            return arg.split("=", 1)[1].strip().strip('"')
    return ""


def started_by(pid: int, parents: Mapping[int, int], candidates: set[int], depth: int = 4) -> int | None:
    """The first of ``candidates`` among the ancestors of ``pid`` (the browser that started a host)."""
    for _ in range(depth):
        pid = parents.get(pid, 0)
        if pid in candidates:
            return pid
        if pid <= 1:
            return None
    return None


# --- running hosts ---------------------------------------------------------------


@dataclass(frozen=True)
class HostScan:
    """The hosts that answered, and the sockets in the runtime folder that did not."""

    hellos: tuple[Hello, ...] = ()
    dead: tuple[str, ...] = ()  # "host-123.sock refused connections: ...", one phrase each
    #: host ids of the hosts reached through a forward (``ssh -R``, a container's bind mount): not this machine's
    forwarded: frozenset[str] = frozenset()


def scan_hosts(timeout: float = 1.0) -> HostScan:
    """Ask every socket in the runtime folder for its host's hello (a refused one is removed, as fronts do)."""
    import functools

    import anyio

    from tabsight.browser.hosts import probe_hosts
    from tabsight.paths import host_socket_paths

    sockets = host_socket_paths()
    answers = anyio.run(functools.partial(probe_hosts, timeout=timeout))
    answered = {path.name for path, _, _ in answers}
    dead = tuple(
        f"{path.name} does not answer: its host may be hung"
        if path.exists()
        else f"{path.name} refused connections: its host is gone, doctor removed the socket"
        for path in sockets
        if path.name not in answered
    )
    hellos = tuple(hello for _, hello, _ in answers)
    return HostScan(hellos, dead, frozenset(hello.host_id or "" for _, hello, forwarded in answers if forwarded))


# --- the verdict -----------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A user data folder and what tabsight needs in it."""

    label: str  # "Google Chrome", or the folder
    user_data: Path
    manifest: str  # '' when the browser finds a right manifest, else what is wrong
    launcher: str  # the launcher the manifest names, if any
    profiles: tuple[ProfileExtension, ...]
    custom: bool = False  # a --user-data-dir folder: the fix is `tabsight install --user-data-dir`

    @property
    def install(self) -> str:
        return f"tabsight install --user-data-dir {_quote(self.user_data)}" if self.custom else "tabsight install"

    @property
    def enabled(self) -> list[str]:
        return [p.profile for p in self.profiles if p.enabled]


def load_extension_fix(browser: str, extension: Path) -> str:
    return f"in {browser} open chrome://extensions, turn on Developer mode, click Load unpacked and pick {extension}"


def verdict(
    scan: HostScan,
    running: Sequence[tuple[Running, Place | None]] | None,
    places: Sequence[Place],
    parents: Mapping[int, int],
    extension: Path,
    origin: str,
    failed_before: bool = False,
) -> list[Check]:
    """The diagnosis: a line per live host, then one per running browser no host serves, or why nothing runs.

    ``running`` pairs each browser's main process with its user data folder
    (None when unknown), or is None when the processes could not be listed.
    ``failed_before``: an earlier check failed, so this is not "all good".
    """
    checks: list[Check] = []
    browser_pids = {browser.pid for browser, _ in running or ()}
    served: set[int] = set()
    healthy = 0
    for hello in scan.hellos:
        pid = None if hello.host_id in scan.forwarded else started_by(hello.pid or 0, parents, browser_pids)
        entry = next(((b, p) for b, p in running or () if b.pid == pid), None)
        if pid is not None:
            served.add(pid)
        host_lines = list(_host_checks(hello, entry, forwarded=hello.host_id in scan.forwarded))
        healthy += all(check.status == "ok" for check in host_lines)
        checks += host_lines
    severity: Literal["FAIL", "note"] = "note" if healthy else "FAIL"
    dead = f" ({'; '.join(scan.dead)})" if scan.dead else ""
    unserved = [(browser, place) for browser, place in running or () if browser.pid not in served]
    for browser, place in unserved:
        checks.append(_browser_verdict(browser, place, severity, dead, extension, origin))
    if not scan.hellos and all(browser.embedded for browser, _ in unserved):
        ready = [place.label for place in places if place.enabled and not place.manifest and not place.custom]
        start = (
            f"start {' or '.join(ready)} (the extension starts the host)"
            if ready
            else (f"start your browser and load the extension ({load_extension_fix('it', extension)})")
        )
        nothing = (
            "no tabsight host is running; doctor cannot list processes here to tell whether a browser is open"
            if running is None
            else "no browser of yours is running, so no tabsight host either"
        )
        checks.append(fail(nothing + dead, f"{start}, or let `tabsight mcp` start its embedded browser"))
    if scan.dead and not any(dead in check.what for check in checks):  # no line above named them
        checks += [Check("note", f"socket {phrase}") for phrase in scan.dead]
    if healthy and not failed_before and not any(check.status == "FAIL" for check in checks):
        checks.append(ok(f"all good: tabsight reaches {healthy} browser{'s' if healthy > 1 else ''}"))
    return checks


def _host_checks(hello: Hello, entry: tuple[Running, Place | None] | None, forwarded: bool = False) -> Iterator[Check]:
    label = f"host pid {hello.pid}" + (
        " (forwarded: on another machine or outside this container)"
        if forwarded
        else " (tabsight's embedded browser)"
        if hello.embedded
        else ""
    )
    if hello.version != __version__:
        yield fail(f"{label} runs tabsight {hello.version}, this is {__version__}", "restart the browser")
    extension = hello.extension
    if extension is None:
        yield fail(f"{label}: no extension connected", f"{RELOAD}, or restart the browser")
    elif extension.version != __version__:
        yield fail(f"{label}: extension {extension.version} connected, expected {__version__}", RELOAD)
    else:
        where = ""
        if entry is not None:
            browser, place = entry
            where = f", browser pid {browser.pid}"
            if browser.user_data is not None:
                where += f", user data dir {browser.user_data}"
            if place is not None and place.enabled:
                where += f", profile {', '.join(place.enabled)}"
        name = f"{extension.browser.name} {extension.browser.version}".strip()
        yield ok(f"connected: {name}{where} (profile id {extension.profile_id}); {label} runs tabsight {hello.version}")


def _browser_verdict(
    browser: Running, place: Place | None, severity: Literal["FAIL", "note"], dead: str, extension: Path, origin: str
) -> Check:
    folder = f", user data dir {browser.user_data}" if browser.user_data else ""
    who = f"{browser.name} is running (pid {browser.pid}{folder})"
    if browser.embedded:
        return Check(
            "note",
            f"tabsight's embedded browser (pid {browser.pid}{folder}) has no host in this runtime "
            "folder: it is starting or stopping, or belongs to another TABSIGHT_RUNTIME_DIR",
        )
    if browser.confined:
        return Check(
            severity,
            f"{who} but is confined by {browser.confined} and cannot start tabsight's host",
            "use a non-Snap, non-Flatpak build of the browser, or let `tabsight mcp` start its embedded browser",
        )
    if place is None:
        return Check(
            severity,
            f"{who} but doctor cannot tell its user data folder, and no host answers{dead}",
            f"{load_extension_fix(browser.name, extension)}; start it with --user-data-dir DIR and run "
            "`tabsight install --user-data-dir DIR`",
        )
    register = f"; then run `{place.install}`" if place.manifest else ""
    if not place.profiles:
        return Check(
            severity, f"{who} without the tabsight extension", load_extension_fix(browser.name, extension) + register
        )
    if not place.enabled:
        off = ", ".join(p.profile for p in place.profiles)
        return Check(
            severity,
            f"{who}; the tabsight extension is turned off in profile {off}",
            f"turn it on at chrome://extensions in {browser.name}" + register,
        )
    has = f"{browser.name} has the tabsight extension (profile {', '.join(place.enabled)}, pid {browser.pid}{folder})"
    if place.manifest:
        return Check(
            severity,
            f"{has} but tabsight's host is not registered for it: {place.manifest}",
            f"run `{place.install}`, then {RELOAD}",
        )
    by_hand = f"`{_quote(place.launcher)} {origin} </dev/null`" if place.launcher else "the launcher"
    return Check(
        severity,
        f"{has} and the host is registered, but no host answers{dead}",
        f"{RELOAD} (it starts the host); if none appears, run {by_hand} to see why the host cannot start",
    )


def _quote(path: Path | str) -> str:
    return shlex.quote(str(path))
