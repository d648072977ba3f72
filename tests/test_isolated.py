"""TABSIGHT_ISOLATED (issue 21): each session works in an embedded browser of its own, like Playwright MCP's
``--isolated``: its cookies and storage are its alone, other sessions neither use nor list that browser, and it
ends with the session. Real MCP clients, each on its own `tabsight mcp`."""

from __future__ import annotations

import asyncio

import pytest

from conftest import front_env, mcp_client
from harness.calls import payload, refusal, script
from harness.processes import alive, host_pids, wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

ISOLATED = {"TABSIGHT_ISOLATED": "1"}
#: what a page keeps for its origin: a cookie, and an item in local storage
KEEP = "document.cookie = 'who=first; path=/; max-age=3600'; localStorage.setItem('who', 'first'); return 1"
READ = "return [document.cookie, localStorage.getItem('who')]"


async def browsers_listed(client) -> list[dict]:
    return payload(await client.call_tool("observe", {"what": "tabs"}))["browsers"]


async def test_isolated_sessions_keep_cookies_and_storage_to_themselves_and_end_with_their_browser(
    browser, site, runtime_dir
):
    page = site.url("/index.html")
    before = set(host_pids(runtime_dir))
    async with (
        mcp_client(front_env(**ISOLATED)) as first,
        mcp_client(front_env(**ISOLATED)) as second,
        mcp_client() as shared,
    ):
        for client in (first, second, shared):
            payload(await client.call_tool("interact", {"action": "navigate", "url": page}))
        assert await script(first, KEEP) == 1
        assert await script(first, READ) == ["who=first", "first"]
        assert await script(second, READ) == ["", None]  # another isolated session: nothing of first's
        assert await script(shared, READ) == ["", None]  # the shared embedded browser: nothing either

        # each isolated session sees its own browser alone; the others' sessions do not see it
        (own_first,) = await browsers_listed(first)
        (own_second,) = await browsers_listed(second)
        assert own_first["embedded"] and own_first["browser"] != own_second["browser"]
        listed_by_shared = {listed["browser"] for listed in await browsers_listed(shared)}
        assert not listed_by_shared & {own_first["browser"], own_second["browser"]}
        # nor can they move there
        message = refusal(
            await shared.call_tool(
                "configure", {"action": "track", "tab_id": own_first["tabs"][0]["id"], "browser": own_first["browser"]}
            )
        )
        assert "No tab with id" in message, message
        theirs = set(host_pids(runtime_dir)) - before
        assert len(theirs) == 2  # a browser (and its host) each

    # a session's browser ends with it, and its host's socket goes
    gone = lambda: not any(alive(pid) for pid in theirs) and not set(host_pids(runtime_dir)) & theirs  # noqa: E731
    assert await asyncio.to_thread(wait_until, gone, 20)


async def test_isolated_with_no_embedded_browser_allowed_says_how_to_fix_it():
    env = front_env(TABSIGHT_ISOLATED="1", TABSIGHT_BROWSER="never")
    async with mcp_client(env) as client:
        message = refusal(await client.call_tool("observe", {"what": "page"}))
        assert "TABSIGHT_ISOLATED" in message and "set TABSIGHT_BROWSER to auto or headed" in message, message
    async with mcp_client(front_env(TABSIGHT_ISOLATED="maybe")) as client:
        message = refusal(await client.call_tool("observe", {"what": "page"}))
        assert "TABSIGHT_ISOLATED is 'maybe'; allowed values: 1, true, yes, on" in message, message


@pytest.fixture
def launches(monkeypatch):
    """embedded.launch recorded, not run: which browsers this process would start."""
    from tabsight.browser import embedded

    started: list[dict] = []

    def launch(headless=True, url="about:blank", linger=None, isolated=False):
        started.append({"headless": headless, "isolated": isolated})
        return f"browser {len(started)}"

    monkeypatch.setattr(embedded, "launch", launch)
    monkeypatch.setattr(embedded, "_ahead", None)
    monkeypatch.setattr(embedded, "_isolated_started", False)
    return started


@pytest.mark.parametrize("ahead_first", [True, False])
def test_a_session_gets_one_isolated_browser_whichever_of_it_and_the_launch_ahead_comes_first(launches, ahead_first):
    from tabsight.browser import embedded

    if ahead_first:
        embedded.launch_ahead(True, isolated=True)
        assert embedded.isolated_browser(True) == "browser 1"  # the one started ahead
    else:  # the session asked before the thread that starts one ahead ran: that thread starts none
        assert embedded.isolated_browser(True) == "browser 1"
        embedded.launch_ahead(True, isolated=True)
    assert launches == [{"headless": True, "isolated": True}]
    assert embedded.isolated_browser(True) == "browser 2"  # its browser ended: a new one
