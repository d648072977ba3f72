"""A browser as a user runs theirs: a headed Chromium on a desktop (tests/harness/desktop.py; or headless), with a
profile of its own that outlives it, tabsight's host registered in that profile as
``tabsight install --user-data-dir`` does, the extension loaded unpacked (or, ``unpacked=False``, as that
install leaves it: packed, named in the profile's External Extensions), and a page given on the command line. Nothing of tabsight's embedded browser: its host answers fronts run with ``TABSIGHT_BROWSER=never``.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from harness.desktop import Started
from harness.processes import alive, host_pids, wait_until
from tabsight.browser import embedded

#: how long the browser may take to start its host, to hand a URL over, to quit: a few seconds on an idle
#: machine, many times that with other work on its two cores
BROWSER_TIMEOUT = 60


class UsersBrowser:
    """On ``desktop`` (tests/harness/desktop.py), or headless without one."""

    def __init__(
        self, desktop, profile: Path, runtime: Path, unpacked: bool = True, namespace: int | None = None
    ) -> None:
        self.desktop = desktop
        #: the pid of a process whose mount namespace the browser runs in (tests of `install --system`), which
        #: runs it with background networking on, as a user's browser has it: the extension updater, which
        #: installs what policy forces, is background networking
        self.namespace = namespace
        self.profile = profile
        self.runtime = runtime
        #: the extension loaded unpacked (--load-extension); False: as ``tabsight install`` installed it
        self.unpacked = unpacked
        #: the browser as started: its first process, which the user quits, and its stderr
        self.started: Started | None = None
        #: the pid of the browser's tabsight host
        self.host: int | None = None
        self._runs = 0
        if unpacked and not (profile / "NativeMessagingHosts").exists():
            profile.mkdir(parents=True, exist_ok=True)
            embedded._write_native_host(profile)

    def start(self, url: str = "about:blank") -> None:
        """Started on ``url`` (headless, the only way to give it a page: a headless browser takes no URL from a
        second run), waited on until the browser's extension started its tabsight host, which listens in the
        runtime folder, or the browser ended."""
        running = set(host_pids(self.runtime))  # another browser's (tabsight's embedded one)
        self.started = browser = self._run(url)
        wait_until(lambda: set(host_pids(self.runtime)) - running or not browser.running(), BROWSER_TIMEOUT)
        new_hosts = set(host_pids(self.runtime)) - running
        if not new_hosts:
            if browser.running():  # it must not outlive the test; its start put it in a process group of its own
                os.killpg(browser.process.pid, signal.SIGKILL)
                browser.process.wait()
            raise TimeoutError(
                f"the browser's tabsight host did not start in {BROWSER_TIMEOUT} s: "
                f"{browser.account()}; hosts in the runtime folder: {sorted(running)}"
            )
        (self.host,) = new_hosts

    def open(self, url: str, new_window: bool = False) -> None:
        """A new tab (or window) in front, as running the browser again with a URL does. (As root,
        Chromium needs --no-sandbox, whose warning bar sits on the start-up tab and would hide the
        viewport changes other bars make: pages are opened in tabs of their own.) Waited on until that
        second process ended, having handed the URL to the running browser, which opens the tab a moment
        later."""
        handing = self._run(url, *(["--new-window"] if new_window else []))
        try:
            handing.process.wait(BROWSER_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise TimeoutError(
                f"the browser run again with {url} did not end in {BROWSER_TIMEOUT} s: {handing.account()}"
            ) from None

    def _run(self, url: str, *extra: str) -> Started:
        extension = str(embedded.extension_dir())
        if self.desktop:
            flags = [flag for flag in embedded.BASE_FLAGS if not flag.startswith("--screen-info")]  # a real screen
        else:
            flags = [*embedded.BASE_FLAGS, "--headless=new"]
        if self.namespace:
            flags.remove("--disable-background-networking")
        args = [
            *(["nsenter", "-t", str(self.namespace), "-m", "--"] if self.namespace else []),
            embedded.find_browser(),
            *flags,
            f"--user-data-dir={self.profile}",
            *([f"--load-extension={extension}"] if self.unpacked else []),
            *(["--no-sandbox"] if os.geteuid() == 0 else []),
            *extra,
            url,
        ]
        environ = self.desktop.env if self.desktop else os.environ
        self._runs += 1
        return Started(
            args,
            self.profile.with_name(f"{self.profile.name}-chromium-{self._runs}.log"),
            env=dict(environ, TABSIGHT_RUNTIME_DIR=str(self.runtime)),
            start_new_session=True,
        )

    def quit(self) -> None:
        """As the user quits it: the browser ends, its profile stays. Waited on until the browser's first
        process ended, and its host after it (its socket in the runtime folder gone)."""
        browser = self.started
        if browser and browser.running():
            browser.process.terminate()
            try:
                browser.process.wait(BROWSER_TIMEOUT)
            except subprocess.TimeoutExpired:
                # what is left of it must not outlive the test; its start put it in a process group of its own
                os.killpg(browser.process.pid, signal.SIGKILL)
                browser.process.wait()
                raise TimeoutError(
                    f"the browser did not quit in {BROWSER_TIMEOUT} s of a SIGTERM (killed): {browser.account()}"
                ) from None
        if not wait_until(lambda: self.host not in host_pids(self.runtime), BROWSER_TIMEOUT):
            state = "still running" if alive(self.host) else "gone, its socket left"
            raise TimeoutError(f"the browser's tabsight host (pid {self.host}) did not stop with it: {state}")
