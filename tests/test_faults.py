"""Faults: a host killed mid-request, the browser closed, a client that walks away."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from contextlib import asynccontextmanager

import anyio
import pytest

from conftest import front_env, mcp_client
from harness.calls import notes, payload, refusal, region
from harness.processes import alive, host_pids, parent, wait_until
from harness.usersbrowser import UsersBrowser
from tabsight import config
from tabsight.browser.connection import BrowserConnection

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


@asynccontextmanager
async def on_a_browser_of_its_own(tmp_path, url: str):
    """A client whose front starts a browser in a private runtime folder, on ``url``; and that browser's host."""
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime))) as client:
        first = await client.call_tool("interact", {"action": "navigate", "url": url})
        assert not first.is_error, first.content[0].text
        (host,) = host_pids(runtime)
        yield client, runtime, host


async def test_host_killed_mid_request_errors_then_session_recovers(tmp_path, site):
    async with on_a_browser_of_its_own(tmp_path, site.url("/index.html")) as (client, runtime, host):

        async def kill_soon():
            await anyio.sleep(0.5)
            os.kill(host, signal.SIGKILL)

        started = time.monotonic()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(kill_soon)
            slow = await client.call_tool(
                "interact", {"action": "navigate", "url": site.url("/slow?ms=20000"), "timeout": 30000}
            )
        assert slow.is_error and "Lost the connection" in slow.content[0].text
        assert time.monotonic() - started < 10, "the in-flight request must fail fast, not wait for its timeout"

        # The extension starts a new host by itself; the same session then works again.
        page = await client.call_tool("observe", {"what": "page"})
        assert not page.is_error, page.content[0].text
        assert json.loads(region(page.content[0].text))["url"].startswith(site.base)
        assert host_pids(runtime) and host not in host_pids(runtime)


async def test_after_a_host_crash_an_agents_tabs_are_still_its_own(tmp_path, site):
    async with on_a_browser_of_its_own(tmp_path, site.url("/index.html")) as (other, runtime, host):
        async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime))) as owner:
            payload(await owner.call_tool("configure", {"action": "tabs", "on_end": "keep"}))
            mine = payload(await owner.call_tool("interact", {"action": "open_tab", "url": site.url("/other.html")}))
            os.kill(host, signal.SIGKILL)  # the claims die with the host; the extension starts a new one
            restarted = lambda: any(pid != host for pid in host_pids(runtime))  # noqa: E731
            assert await asyncio.to_thread(wait_until, restarted, 15)

            # the owner's next call finds the new host and says again which tabs are its own ...
            assert payload(await owner.call_tool("observe", {"what": "page"}))["url"] == site.url("/other.html")
            # ... so the other session may observe the tab, not act there
            payload(await other.call_tool("configure", {"action": "track", "tab_id": mine["tab_id"]}))
            message = refusal(await other.call_tool("interact", {"action": "reload"}))
            assert f"Tab {mine['tab_id']} belongs to " in message, message
            assert payload(await owner.call_tool("interact", {"action": "reload"}))["url"] == site.url("/other.html")
        # and its on_end 'keep' held too: the tab outlives the session, nobody's now
        (listing,) = payload(await other.call_tool("observe", {"what": "tabs"}))["browsers"]
        kept = {tab["id"]: tab for tab in listing["tabs"]}
        assert mine["tab_id"] in kept and "owner" not in kept[mine["tab_id"]]


async def test_closing_the_browser_stops_the_host_and_removes_its_socket(tmp_path, monkeypatch):
    runtime = tmp_path / "rt"
    monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(runtime))
    config.reset()
    browsers = BrowserConnection("fault-test")
    client = await browsers.client()
    host, socket_path = client.hello.pid, client.transport.path
    assert alive(host) and socket_path.exists()
    browsers._launched.process.terminate()
    assert await asyncio.to_thread(wait_until, lambda: not alive(host) and not socket_path.exists(), 15)
    await browsers.aclose()
    assert not browsers._launched.profile.exists()


async def test_client_leaving_mid_request_leaves_nothing_behind(browser, site):
    async def host_state():
        status = await browser.client.status()
        tabs = await browser.client.tabs()
        return status["fronts"], tabs["tabs"]

    fronts_before, tabs_before = browser.call(host_state())
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/busy.html")})
        with anyio.move_on_after(0.6):
            # webp goes through chrome.debugger; the busy page holds the capture up
            await client.call_tool("screenshot", {"format": "webp"})
        # leaving the block closes the client's stdin: the front exits mid-request

    def settled():
        fronts, tabs = browser.call(host_state())
        return fronts == fronts_before and not any(tab["debugger_attached"] for tab in tabs)

    assert await asyncio.to_thread(wait_until, settled, 10)
    _, tabs_after = browser.call(host_state())
    assert [t["id"] for t in tabs_after] == [t["id"] for t in tabs_before]


async def test_after_a_browser_restart_the_lost_tab_is_named_once_then_work_goes_on(tmp_path, site):
    async with on_a_browser_of_its_own(tmp_path, site.url("/form.html")) as (client, runtime, host):
        os.kill(parent(host), signal.SIGTERM)  # the user quits the browser
        assert await asyncio.to_thread(wait_until, lambda: not alive(host), 15)

        # a click must not land on whatever page the new browser shows
        click = await client.call_tool("interact", {"action": "click", "selector": "button"})
        assert click.is_error
        # it names the lost tab and says how to go on: call again, or pick a tab from the list
        assert "The tracked tab" in click.content[0].text and "Call again" in click.content[0].text
        assert "observe({what:'tabs'})" in click.content[0].text

        again = await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
        assert not again.is_error, again.content[0].text
        assert json.loads(region(again.content[0].text))["url"] == site.url("/index.html")
        assert host_pids(runtime) and host not in host_pids(runtime)


async def test_a_user_browser_restarted_with_its_profile_goes_on_in_its_focused_tab_with_one_note(tmp_path, site):
    # the user's own browser (a profile that outlives it, as a real one does), quit and started again:
    # the same profile id, but every tab id is new
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    browser = UsersBrowser(None, tmp_path / "profile", runtime)
    # (each page is loaded with navigate; tests/test_startup_tab.py covers a tab given on the command line)
    browser.start()
    try:
        async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_BROWSER="never")) as client:
            page = await client.call_tool("interact", {"action": "navigate", "url": site.url("/form.html")})
            assert not page.is_error, page.content[0].text

            await asyncio.to_thread(browser.quit)  # the user quits the browser...
            await asyncio.to_thread(browser.start)  # ...and starts it again
            moved = await client.call_tool("interact", {"action": "navigate", "url": site.url("/other.html")})
            assert not moved.is_error, moved.content[0].text
            (note,) = notes(moved)
            assert "was in a browser that restarted since" in note and "Now tracking its focused tab" in note
            page = await client.call_tool("observe", {"what": "page"})
            assert not notes(page)
            assert json.loads(region(page.content[0].text))["url"] == site.url("/other.html")
    finally:
        browser.quit()
