"""The tab given on the command line beside --load-extension loads, at a first start and at a restart.

Chrome resets the profile's URL loader factories when it loads an extension with the webRequest
permission, and with --load-extension that happens while the command-line tab starts its load: the
load was dropped, the tab stayed "Untitled" and no request left (about a third of the launches, more at
a restart on the same profile). The extension loads such a tab again (extension/service-worker/startup-tabs.js).
Several launches, because it is a race.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from harness.processes import alive, descendants, wait_until
from tabsight.browser import embedded

pytestmark = pytest.mark.browser

#: profiles, each started twice; before the fix a launch lost its tab a third of the time or more, and 8 runs of
#: this test out of 8 failed
PROFILES = 5
#: seconds a command-line tab may take to be requested (a revived one: well under one)
LOAD_TIMEOUT = 10


def test_the_command_line_tab_loads_at_first_start_and_at_restart(tmp_path, site):
    runtime = tmp_path / "rt"  # the native host's, private: no other test's front meets these browsers
    runtime.mkdir(mode=0o700)
    extension = str(embedded.extension_dir())

    def launch(profile, label: str) -> None:
        url = site.url(f"/index.html?launch={label}")
        args = [
            embedded.find_browser(),
            *embedded.BASE_FLAGS,
            f"--user-data-dir={profile}",
            f"--load-extension={extension}",
            f"--disable-extensions-except={extension}",
            "--headless=new",
            *(["--no-sandbox"] if os.geteuid() == 0 else []),
            url,
        ]
        browser = subprocess.Popen(
            args,
            env=dict(os.environ, TABSIGHT_RUNTIME_DIR=str(runtime)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        family = set()
        try:
            requested = wait_until(lambda: requests(label) > 0, LOAD_TIMEOUT, 0.05)
            family = descendants(browser.pid)  # its native host among them
        finally:
            browser.terminate()
            browser.wait(15)
            wait_until(lambda: not any(alive(pid) for pid in family - {browser.pid}), 10)
        assert requested, f"launch {label}: the command-line tab never requested {url}"

    def requests(label: str) -> int:
        return sum(query.get("launch") == label for query, _ in site.requests_to("/index.html"))

    labels = []
    for n in range(PROFILES):
        profile = tmp_path / f"profile-{n}"
        profile.mkdir()
        embedded._write_native_host(profile)
        for kind in ("first", "restart"):  # a fresh profile, then the same profile started again
            labels.append(f"{n}-{kind}")
            launch(profile, labels[-1])

    # loaded once each: a load that was not dropped is never asked again
    assert {label: requests(label) for label in labels} == dict.fromkeys(labels, 1)
