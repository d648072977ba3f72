"""The browser starts as the session opens (issue "The first call answers at once"): ``TABSIGHT_START_AHEAD``, on
by default, starts tabsight's own browser at the MCP client's opening request when it is the browser calls will
use; the session links to it once it is up, so it ends as after any session, its linger time after the client
quits (a session that quits before then ends it at once: nobody used it). None is started when a browser of the user's is connected, or with the setting off.

Real ``tabsight mcp`` processes through the SDK's client, each on a runtime folder of its own (the suite's other
sessions share one browser, and run with the setting off: tests/conftest.py).
"""

from __future__ import annotations

import base64
import io
import time

import anyio
import pytest
from PIL import Image

from conftest import front_env, mcp_client
from harness.processes import alive, host_pids, wait_until
from harness.usersbrowser import UsersBrowser
from tabsight.browser.client import BrowserClient
from tabsight.browser.link import HostLink

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: seconds a browser stays after its last session (TABSIGHT_EMBEDDED_LINGER here)
LINGER = 3.0
#: how long a browser may take to start its host on a busy machine, or to end after its linger time
WITHIN = 60


def session_env(runtime, **extra: str) -> dict[str, str]:
    settings = {
        "TABSIGHT_RUNTIME_DIR": str(runtime),
        "TABSIGHT_START_AHEAD": "1",
        "TABSIGHT_EMBEDDED_LINGER": str(LINGER),
    }
    return front_env(**(settings | extra))


@pytest.fixture
def runtime(tmp_path):
    folder = tmp_path / "runtime"
    folder.mkdir(mode=0o700)
    return folder


async def test_a_session_that_only_lists_tools_gets_a_browser_which_ends_after_the_linger(runtime):
    async with mcp_client(session_env(runtime)) as client:
        await client.list_tools()
        assert wait_until(lambda: host_pids(runtime), WITHIN), "no browser was started as the session opened"
        (host,) = host_pids(runtime)
        await linked(runtime)
    quit_at = time.monotonic()
    assert alive(host), "the browser ended with the session: it should linger"
    assert wait_until(lambda: not alive(host), LINGER + 20), "the browser outlived its linger time"
    assert time.monotonic() - quit_at >= LINGER - 0.5  # it lingered, as after any session


async def linked(runtime) -> None:
    """Wait until the session has linked to the browser started ahead: its host counts it, besides this look."""
    (path,) = runtime.glob("host-*.sock")
    link = await HostLink.open(path, "test-look", 5)
    try:
        with anyio.fail_after(WITHIN):
            while (await BrowserClient(link).status())["fronts"] < 2:
                await anyio.sleep(0.05)
    finally:
        await link.close()


async def test_the_first_call_uses_the_browser_started_ahead(runtime, site):
    async with mcp_client(session_env(runtime)) as client:
        assert wait_until(lambda: host_pids(runtime), WITHIN)
        (host,) = host_pids(runtime)
        shot = await client.call_tool("screenshot", {"url": site.url("/form.html"), "format": "png"})
        assert not shot.is_error, shot.content[0].text
        (block,) = [block for block in shot.content if block.type == "image"]
        assert Image.open(io.BytesIO(base64.b64decode(block.data))).size == (1280, 720)
        assert host_pids(runtime) == [host]  # no second browser


async def test_no_browser_is_started_ahead_with_the_setting_off(runtime):
    async with mcp_client(session_env(runtime, TABSIGHT_START_AHEAD="0")) as client:
        await client.list_tools()
        await anyio.sleep(3)  # a browser started ahead has its host up by now (about 1 s)
        assert not host_pids(runtime)


async def test_no_browser_is_started_ahead_when_the_user_s_is_connected(runtime, tmp_path):
    users = UsersBrowser(None, tmp_path / "profile", runtime)
    users.start()  # its extension started its host
    try:
        async with mcp_client(session_env(runtime)) as client:
            await client.list_tools()
            await anyio.sleep(3)
            assert host_pids(runtime) == [users.host]
            tabs = await client.call_tool("observe", {"what": "tabs"})
            assert not tabs.is_error and "Chromium" in tabs.content[0].text
            assert host_pids(runtime) == [users.host]  # the session works in the user's
    finally:
        users.quit()
