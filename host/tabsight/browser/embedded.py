"""tabsight's own Chromium: started when no browser of the user's is connected.

It is an ordinary browser with the same extension and the same host, so there
is no second code path: a temporary profile gets the native-host manifest in
its ``NativeMessagingHosts/`` folder and the extension is loaded unpacked.
The browser's environment carries ``TABSIGHT_EMBEDDED`` (a token), which the
host reports in its hello so the front that started it can find it, and
which makes that host end the browser when its last front has gone; then the
host removes the profile, once the browser's last process has ended.

The browser's temp folder (``TMPDIR``) is ``tmp/`` in that profile: Chromium
leaves an ``org.chromium.Chromium.XXXXXX`` folder there for every run (its
process-singleton socket), which would otherwise pile up in the system's.
Its downloads go to ``Downloads/`` in the profile too, gone with it.

One launch at a time in a runtime folder (``LaunchLock``): fronts starting at
once share one browser. ``launch_ahead`` starts one before a session asks
(``tabsight mcp`` does on the first tool call, while the SDK still loads);
the session that finds its host takes it over (``take_ahead``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from .. import NATIVE_HOST_NAME, config, profiles
from ..errors import BrowserError, Code
from ..nativehost.manifest import write_launcher, write_manifest
from ..paths import extension_dir, host_socket_path, host_socket_paths, runtime_dir, write_private

log = logging.getLogger("tabsight.front")

CANDIDATES = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "brave-browser",
    "microsoft-edge",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)

#: Flags verified on Chromium 156 (docs/design.md §1); background networking off
#: because the browser must not phone home from a tool's sandbox.
BASE_FLAGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--window-size=1280,720",
    # Each MCP session works in a tab of its own, all but one in the background: their pages must run as a
    # page in front does (timers at full speed, the renderer not put aside), as Playwright's and Puppeteer's do
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # Headless Chromium's virtual screen is 800x600 and Chrome refuses window
    # bounds mostly off-screen, which would cap the viewports we can set.
    "--screen-info={3840x2160}",
)


#: how long a new embedded browser may take until its host is up
LAUNCH_TIMEOUT = 30.0
#: the embedded browsers' temporary profiles are folders named so in the temp folder
PROFILE_PREFIX = "tabsight-profile-"
#: Chromium makes its singleton socket at TMPDIR/<app id>.XXXXXX/SingletonSocket and aborts ("Socket path too
#: long") when that path does not fit in a sockaddr_un (its size, less the closing NUL)...
SOCKET_PATH_MAX = 103 if sys.platform == "darwin" else 107
#: ... after the temp folder's own path: this tail, with room for an app id of 26 characters
#: (``org.chromium.Chromium`` has 21, ``com.operasoftware.Opera`` 23)
SINGLETON_TAIL = len("/" + "x" * 26 + ".XXXXXX/SingletonSocket")


def find_browser() -> str:
    """The Chromium to run: ``TABSIGHT_CHROMIUM``, else the first one found.

    Branded Google Chrome 137+ ignores ``--load-extension``; Chromium is
    preferred for that reason and listed first.
    """
    configured = config.current()[config.TABSIGHT_CHROMIUM]
    if configured:
        return configured
    for name in CANDIDATES:
        found = shutil.which(name) or (name if os.path.isabs(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    raise BrowserError(Code.LAUNCH_FAILED, "Failed to launch browser: no Chromium-family browser found.")


@dataclass
class EmbeddedBrowser:
    process: subprocess.Popen
    profile: Path
    token: str

    def wait_up(self, timeout: float = LAUNCH_TIMEOUT) -> bool:
        """Wait until a host listens in the runtime folder (this browser's, once it started none before it);
        whether one does (False: the browser ended, or ``timeout`` passed)."""
        deadline = time.monotonic() + timeout
        while not host_socket_paths() and self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        return self.process.poll() is None and bool(host_socket_paths())

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = (self.profile / "browser.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 5.0) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.remove_profile()

    def remove_profile(self) -> None:
        """Delete the profile once every process of the browser has ended (blocks up to 10 s)."""
        profiles.remove_when_gone(self.profile, self.process.pid)

    def end_remains(self) -> None:
        """Once its main process has exited: end the rest at once (helpers winding down, its host) instead of
        waiting for them, then remove its profile and its host's socket (a killed host cannot). Where the
        processes cannot be listed (no ``/proc``), wait for them as ``remove_profile`` does."""
        members = profiles.end_group(self.process.pid)
        if not members and profiles.group_alive(self.process.pid):
            self.remove_profile()
            return
        for pid in members:
            host_socket_path(pid).unlink(missing_ok=True)
        shutil.rmtree(self.profile, ignore_errors=True)


def browser_temp(profile: Path) -> Path | None:
    """The browser's temp folder, made inside its profile (removed with it); None when the profile's path is too
    long for Chromium's singleton socket there (macOS's per-user temp folder): the browser keeps the system's."""
    temp = profile / "tmp"
    if len(os.fsencode(temp)) + SINGLETON_TAIL > SOCKET_PATH_MAX:
        log.info(
            "the browser's temp folder stays %s: %s is too long a path for its socket", tempfile.gettempdir(), temp
        )
        return None
    temp.mkdir()
    return temp


def _write_native_host(profile: Path) -> None:
    """The same launcher and manifest `tabsight install` writes, inside the temporary profile."""
    hosts = profile / "NativeMessagingHosts"
    hosts.mkdir()
    write_manifest(hosts / f"{NATIVE_HOST_NAME}.json", write_launcher(profile))


def _write_download_folder(profile: Path) -> None:
    """Downloads go to ``Downloads/`` in the profile, removed with it, never to the user's ``~/Downloads``: a
    page's ``<a download>`` (a click of the agent's, or a script's) would otherwise leave its file in the user's
    home for good. The profile's preferences, written before the browser's first start, say so; no prompt,
    which a headless browser could not show."""
    downloads = profile / "Downloads"
    downloads.mkdir(mode=0o700)
    (profile / "Default").mkdir(mode=0o700)
    preferences = {
        "download": {"default_directory": str(downloads), "prompt_for_download": False},
        "savefile": {"default_directory": str(downloads)},
    }
    write_private(profile / "Default" / "Preferences", json.dumps(preferences).encode())


def sweep_stale_profiles(min_age: float = 60.0) -> list[Path]:
    """Remove the temporary profiles of embedded browsers that are gone; the paths removed.

    The browser's host removes the profile (its temp folder with it) when the
    browser ends (``tabsight shot`` waits for that too); when the host was
    killed with it (SIGKILL, a crash, a power cut), nobody is left to, and the
    profile would stay in the temp folder for good. A running Chromium keeps a
    ``SingletonLock`` symlink ("hostname-pid") in its profile: a profile of
    ours whose lock names a process of this machine that is gone, or that has
    no lock a minute after it was made (a browser that never started), is
    left over.
    """
    if os.name != "posix":
        return []  # os.kill(pid, 0) would end the process on Windows; the front is POSIX-only today
    removed = []
    now, me = time.time(), socket.gethostname()
    for profile in Path(tempfile.gettempdir()).glob(f"{PROFILE_PREFIX}*"):
        try:
            info = profile.lstat()
            if not profile.is_dir() or info.st_uid != os.getuid() or now - info.st_mtime < min_age:
                continue
            lock = os.readlink(profile / "SingletonLock")
        except FileNotFoundError:
            lock = None
        except OSError:
            continue
        if lock is not None:
            host, _, pid = lock.rpartition("-")
            if host != me or not pid.isdigit() or profiles.running(int(pid)):
                continue
        shutil.rmtree(profile, ignore_errors=True)
        removed.append(profile)
    return removed


def isolated_mode() -> bool:
    """TABSIGHT_ISOLATED: whether each session gets an embedded browser of its own (off by default)."""
    return config.current()[config.TABSIGHT_ISOLATED]


def launch(
    headless: bool = True,
    url: str = "about:blank",
    linger: float | None = None,
    isolated: bool = False,
) -> EmbeddedBrowser:
    """Start the embedded browser; its host appears in the runtime folder shortly after.

    ``linger``: seconds it outlives its last front (default: ``TABSIGHT_EMBEDDED_LINGER``, else 2).
    ``isolated``: for one session alone (its host says so in its hello, and other sessions' fronts leave it be).
    """
    executable = find_browser()
    profile = Path(tempfile.mkdtemp(prefix=PROFILE_PREFIX))
    _write_native_host(profile)
    _write_download_folder(profile)
    extension = str(extension_dir())
    args = [
        executable,
        *BASE_FLAGS,
        f"--user-data-dir={profile}",
        f"--load-extension={extension}",
        f"--disable-extensions-except={extension}",
    ]
    # a headed one shows no "started debugging" bar (and its viewport keeps its size); headless shows none anyway
    args.append("--silent-debugger-extension-api")
    if headless:
        args.append("--headless=new")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Chromium refuses to run as root with its sandbox; --test-type keeps away the "unsupported command-line
        # flag" bar that --no-sandbox brings to the first tab, 56 px that the first tab's viewport would lack and
        # every later tab (each session's own) would have
        args += ["--no-sandbox", "--test-type"]
    args.append(url)
    token = uuid.uuid4().hex
    env = dict(
        os.environ,
        TABSIGHT_EMBEDDED=token,
        TABSIGHT_EMBEDDED_PROFILE=str(profile),
        TABSIGHT_RUNTIME_DIR=str(runtime_dir()),
    )
    if linger is not None:
        env["TABSIGHT_EMBEDDED_LINGER"] = str(linger)
    if isolated:
        env["TABSIGHT_EMBEDDED_ISOLATED"] = "1"
    temp = browser_temp(profile)
    if temp is not None:
        env["TMPDIR"] = str(temp)  # base::GetTempDir on Linux
        env["MAC_CHROMIUM_TMPDIR"] = str(temp)  # on macOS, before NSTemporaryDirectory()
    try:
        with open(profile / "browser.log", "wb") as browser_log:
            process = subprocess.Popen(
                args,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=browser_log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
    except OSError as exc:
        shutil.rmtree(profile, ignore_errors=True)
        raise BrowserError(
            Code.LAUNCH_FAILED, f"Failed to launch browser: {executable}: {exc.strerror or exc}."
        ) from None
    # in a thread of its own, not before or in the way: removing old profiles (a Chromium profile is thousands
    # of files) has nothing to do with this launch, and a sweep cut short by the process's end is finished later
    threading.Thread(target=_sweep, name="tabsight sweep", daemon=True).start()
    return EmbeddedBrowser(process, profile, token)


def _sweep() -> None:
    for stale in sweep_stale_profiles():
        log.info("removed the profile of an embedded browser that is gone: %s", stale)


class LaunchLock:
    """One embedded browser launch at a time in a runtime folder: a lock on the folder itself, so that no lock
    file is left in it. Without flock (Windows), concurrent launches are merely wasteful."""

    def __init__(self) -> None:
        self._descriptor: int | None = None

    def try_acquire(self) -> bool:
        """Takes the lock if no launch holds it; whether it did."""
        try:
            import fcntl
        except ImportError:
            return True
        descriptor = os.open(runtime_dir(), os.O_RDONLY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            return False
        self._descriptor = descriptor
        return True

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing it lets go of the lock
            self._descriptor = None


#: a browser ``launch_ahead`` started, until a session takes it over
_ahead: EmbeddedBrowser | None = None
#: this process's session has (or had) its isolated browser: none is started ahead any more
_isolated_started = False
_ahead_lock = threading.Lock()


def launch_ahead(headless: bool, linger: float | None = None, isolated: bool = False) -> None:
    """Start the embedded browser before any session asks, if nothing else can serve: no host in the runtime
    folder, no launch under way. Returns once it is started. Like a session's launch, it holds the launch lock
    until the browser's host is up (or the browser has ended; a thread of its own waits), so a session that
    wants a browser meanwhile waits for it and finds it. An ``isolated`` one is started in any case, with no
    lock: nothing else can serve such a session, and no other session waits for its browser. Never raises: a
    failure is the session's own launch to meet, and to report."""
    global _ahead, _isolated_started
    if isolated:
        with _ahead_lock:  # the session's isolated_browser() may have been quicker than this thread
            if _isolated_started:
                return
            _isolated_started = True
            try:
                _ahead = launch(headless, linger=linger, isolated=True)
            except Exception as exc:  # noqa: BLE001 - see the docstring
                log.info("did not start the browser ahead: %s", exc)
        return
    lock = LaunchLock()
    try:
        if not lock.try_acquire():
            return
        if host_socket_paths():
            lock.release()  # a browser may be reachable: the session looks, as always
            return
        browser = launch(headless, linger=linger)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        log.info("did not start the browser ahead: %s", exc)
        lock.release()
        return
    with _ahead_lock:
        _ahead = browser
    threading.Thread(target=_hold_until_up, args=(browser, lock), name="tabsight launch", daemon=True).start()


def _hold_until_up(browser: EmbeddedBrowser, lock: LaunchLock) -> None:
    browser.wait_up()
    lock.release()


def isolated_browser(headless: bool, linger: float | None = None) -> EmbeddedBrowser:
    """A browser for this process's session alone (``TABSIGHT_ISOLATED``): the one ``launch_ahead`` started, else
    a new one; none is started ahead afterwards (a launch ahead still to come would be a second browser)."""
    global _ahead, _isolated_started
    with _ahead_lock:
        _isolated_started = True
        browser, _ahead = _ahead, None
        return browser or launch(headless, linger=linger, isolated=True)


def started_ahead() -> EmbeddedBrowser | None:
    """The browser ``launch_ahead`` started, if no session has taken it yet (it stays there)."""
    with _ahead_lock:
        return _ahead


def take_ahead(token: str | None = None) -> EmbeddedBrowser | None:
    """The browser ``launch_ahead`` started, for the session that found it (its host's hello carries
    ``token``; None: whichever), once."""
    global _ahead
    with _ahead_lock:
        browser = _ahead
        if browser is None or (token is not None and browser.token != token):
            return None
        _ahead = None
        return browser
