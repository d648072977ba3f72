"""A browser as a user runs theirs: a headed Chromium on a desktop (tests/harness/desktop.py; or headless), with a
profile of its own that outlives it, tabsight's host registered in that profile as
``tabsight install --user-data-dir`` does, the extension loaded unpacked, and a page given on the command
line. Nothing of tabsight's embedded browser: its host answers fronts run with ``TABSIGHT_BROWSER=never``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from harness.processes import host_pids, wait_until
from tabsight.browser import embedded


class UsersBrowser:
    """On ``desktop`` (tests/harness/desktop.py), or headless without one."""

    def __init__(self, desktop, profile: Path, runtime: Path) -> None:
        self.desktop = desktop
        self.profile = profile
        self.runtime = runtime
        self.process: subprocess.Popen | None = None
        #: the pid of the browser's tabsight host
        self.host: int | None = None
        if not (profile / "NativeMessagingHosts").exists():
            profile.mkdir(parents=True, exist_ok=True)
            embedded._write_native_host(profile)

    def start(self) -> None:
        running = set(host_pids(self.runtime))  # another browser's (tabsight's embedded one)
        self.process = self._run("about:blank")
        if not wait_until(lambda: set(host_pids(self.runtime)) - running, 30):
            raise TimeoutError("the browser's tabsight host did not start")
        (self.host,) = set(host_pids(self.runtime)) - running

    def open(self, url: str, new_window: bool = False) -> None:
        """A new tab (or window) in front, as running the browser again with a URL does. (As root,
        Chromium needs --no-sandbox, whose warning bar sits on the start-up tab and would hide the
        viewport changes other bars make: pages are opened in tabs of their own.)"""
        self._run(url, *(["--new-window"] if new_window else [])).wait(15)

    def _run(self, url: str, *extra: str) -> subprocess.Popen:
        extension = str(embedded.extension_dir())
        if self.desktop:
            flags = [flag for flag in embedded.BASE_FLAGS if not flag.startswith("--screen-info")]  # a real screen
        else:
            flags = [*embedded.BASE_FLAGS, "--headless=new"]
        args = [embedded.find_browser(), *flags, f"--user-data-dir={self.profile}", f"--load-extension={extension}",
                *(["--no-sandbox"] if os.geteuid() == 0 else []), *extra, url]
        environ = self.desktop.env if self.desktop else os.environ
        return subprocess.Popen(
            args, env=dict(environ, TABSIGHT_RUNTIME_DIR=str(self.runtime)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )

    def quit(self) -> None:
        """As the user quits it: the browser ends, its profile stays."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(15)
        if not wait_until(lambda: self.host not in host_pids(self.runtime), 15):
            raise TimeoutError("the browser's tabsight host did not stop with it")
