"""Shared fixtures: an isolated runtime folder, a loopback site, a real embedded browser.

Every browser test drives the real chain: the SDK's MCP client starts
``tabsight mcp`` as a subprocess, which reaches the headless Chromium's
extension through the native host. One embedded browser is kept for the
whole session (the "keeper" holds a front connection to it) so tests do not
pay a browser start each; fault tests start browsers of their own in their
own runtime folders.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from contextlib import asynccontextmanager

import pytest
from hypothesis import settings
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from loopback_site import Site
from tabsight import config

# CI runs the property tests on a fixed sequence of examples: a red run there is one anyone can repeat
# (locally they draw new examples each run, to keep finding new inputs)
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def runtime_dir(tmp_path_factory):
    """Every test run gets its own runtime folder: it never meets the user's browsers."""
    path = tmp_path_factory.mktemp("runtime")
    os.chmod(path, 0o700)
    os.environ["TABSIGHT_RUNTIME_DIR"] = str(path)
    # nor the user's install: a machine where `tabsight install` ran would have every session say that it
    # works in tabsight's own browser, not theirs (browser/connection.py NOT_YOUR_BROWSER)
    data = tmp_path_factory.mktemp("data")
    os.environ["TABSIGHT_DATA_DIR"] = str(data)
    os.environ.pop("TABSIGHT_BROWSER", None)
    os.environ.pop("TABSIGHT_ISOLATED", None)  # the sessions share the keeper's browser unless a test says not
    # The tests' browsers hold a tab for a session only while its action runs (the hosts they start read it): a
    # test's in-process client, standing in for the user, and its MCP clients take turns on one tab, which a
    # lease's 10 s would refuse (test_multiagent tests leases with actions that overlap; test_tab_claims the 10 s)
    os.environ["TABSIGHT_LEASE_SECONDS"] = "0"
    # A session starts no browser as it opens (the sessions of tests that never call a tool, the clients' `mcp
    # list`, would each start a Chromium the suite does not need): a browser is started at the first call that
    # needs one, as before; tests/test_start_ahead.py sets it back on to test the default.
    os.environ["TABSIGHT_START_AHEAD"] = "0"
    config.reset()  # read at import (screenshot's defaults), before these: the session's fixtures read them anew
    return path


@pytest.fixture(autouse=True)
def fresh_config():
    """Each test reads tabsight's configuration from the environment as it finds it, and leaves none behind: a test
    that sets a TABSIGHT_* variable in-process calls ``config.reset()`` after it (its monkeypatch undoes the
    variable before this fixture ends)."""
    config.reset()
    yield
    config.reset()


@pytest.fixture(scope="module")
def realapps():
    """The real third-party apps of tests/realapps, served on 127.0.0.1: their base URL (pages under /pages/)."""
    from harness.realapps import REALAPPS, missing_apps
    from harness.servers import serve_folder

    missing = missing_apps()
    if missing and os.environ.get("CI"):
        pytest.fail(f"the real apps are not installed (under CI they must be): {missing}")
    if missing:
        pytest.skip(f"the real apps are not installed: {missing}")
    server = serve_folder(REALAPPS)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def site():
    with Site() as running:
        yield running


class Keeper:
    """Holds one front connection to an embedded browser for the session, in a thread."""

    def __init__(self) -> None:
        from tabsight.browser.connection import BrowserConnection

        self.browsers = BrowserConnection("keeper", own_tab=False)  # the user, as it were: the focused tab
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self.browsers.client(), self.loop)
        self.client = future.result(60)
        # its tab, kept: the browser's focused tab moves to the window an MCP session opens for itself
        self.tab = self.call(self.browsers.tab())[1]
        self.call(self.browsers.track_tab(self.tab))

    def call(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    @property
    def browser_pid(self) -> int:
        return self.browsers._launched.process.pid

    def stop(self) -> None:
        self.call(self.browsers.aclose(), 30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


@pytest.fixture(scope="module")
def desktop():
    """A desktop of the module's own for headed browsers (tests/harness/desktop.py)."""
    from harness.desktop import Desktop, missing_tools

    missing = missing_tools()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"missing {', '.join(missing)}: tests/desktop/install.sh installs them")
        pytest.skip(f"missing {', '.join(missing)} (tests/desktop/install.sh installs them)")
    running = Desktop()
    yield running
    running.close()


@pytest.fixture(scope="session")
def browser(runtime_dir):
    keeper = Keeper()
    keeper.start()
    yield keeper
    keeper.stop()


def front_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra)
    return env


def front_params(env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "tabsight", "mcp"], env=env or front_env())


@asynccontextmanager
async def mcp_client(env: dict[str, str] | None = None, server=None, **kwargs):
    """The official SDK client talking to a real ``tabsight mcp`` subprocess
    (or to ``server``, a transport such as ``stdio_client(front_params(), errlog=...)``)."""
    async with Client(server or front_params(env), **kwargs) as client:
        yield client


@asynccontextmanager
async def client_on(url: str):
    """An MCP client (on the shared embedded browser) whose tracked tab shows ``url``."""
    from harness.calls import payload

    async with mcp_client() as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": url}))
        yield client


@asynccontextmanager
async def users_browser(desktop, tmp_path, url: str | None = None):
    """A user's own browser (tests/harness/usersbrowser.py; headless for ``desktop`` None) with ``url`` in a tab
    of its own, in a runtime folder of its own, and an MCP client on it (``TABSIGHT_BROWSER=never``):
    ``(client, browser)``."""
    from harness.usersbrowser import UsersBrowser

    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, parents=True)
    browser = UsersBrowser(desktop, tmp_path / "profile", runtime)
    browser.start()
    try:
        if url:
            browser.open(url)
        async with mcp_client(front_env(TABSIGHT_BROWSER="never", TABSIGHT_RUNTIME_DIR=str(runtime))) as client:
            yield client, browser
    finally:
        browser.quit()


@asynccontextmanager
async def headed_client(desktop, tmp_path, url: str):
    """An MCP client whose tabsight runs a headed browser on the desktop (the ``desktop`` fixture), showing
    ``url``, its window in front; yields the client and the window."""
    from harness.calls import payload

    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = front_env(DISPLAY=desktop.display, TABSIGHT_BROWSER="headed", TABSIGHT_RUNTIME_DIR=str(runtime))
    # the desktop is the module's: the browser of the test before may still linger on it
    others = set(desktop.browser_windows())
    async with mcp_client(env) as client:
        shown = payload(await client.call_tool("interact", {"action": "navigate", "url": url}))
        window = desktop.new_browser_window(others, shown["title"])
        desktop.activate(window)
        yield client, window
