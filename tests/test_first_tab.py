"""A session's first tab in tabsight's own browser (issue 31): made when a call first needs a tracked tab, and given
back (closed) when the session moves to another tab while it is still blank and unused. Against a fake browser
(tests/fakes.py); end to end, with real MCP clients: test_multiagent.py."""

from __future__ import annotations

import pytest

from fakes import FakeBrowser, fake_session
from harness.calls import payload
from tabsight.tools.dispatch import call

pytestmark = pytest.mark.anyio


def embedded_browser() -> FakeBrowser:
    browser = FakeBrowser()
    browser.hello.embedded = "token"
    browser.tabs = [{"id": 7, "title": "", "url": "about:blank", "active": True}]  # the start-up tab
    return browser


async def ok(session, tool: str, arguments: dict):
    answer = await call(session, tool, arguments)
    assert not answer.is_error, answer.content[0].text
    return answer


async def test_a_session_that_opens_a_tab_first_is_given_no_other():
    browser = embedded_browser()
    session = fake_session(browser)
    listing = payload(await ok(session, "observe", {"what": "tabs"}))  # listing needs no tab of its own
    assert browser.methods("tab.open") == [] and listing["tracked"].startswith("none yet: the first call that needs")
    await ok(session, "interact", {"action": "open_tab", "url": "http://127.0.0.1/work"})
    (opened,) = browser.methods("tab.open")
    assert opened["url"] == "http://127.0.0.1/work" and opened["window"] is True and "opener_tab_id" not in opened
    await ok(session, "observe", {"what": "page"})
    assert browser.methods("page.info") == [{"tab_id": 101}] and len(browser.methods("tab.open")) == 1


async def test_the_first_tab_goes_back_when_the_session_opens_another_while_it_is_still_blank():
    browser = embedded_browser()
    session = fake_session(browser)
    await ok(session, "observe", {"what": "page"})  # a call that needs a tab: the session's first, blank
    assert [tab["id"] for tab in browser.tabs] == [7, 101]
    await ok(session, "interact", {"action": "open_tab", "url": "http://127.0.0.1/work"})
    assert browser.methods("tab.close") == [{"tab_id": 101}]
    assert [tab["id"] for tab in browser.tabs] == [7, 102]
    # closing the tab it opened leaves it with none: a new one is made when a call needs it
    await ok(session, "interact", {"action": "close_tab"})
    await ok(session, "observe", {"what": "page"})
    assert browser.methods("page.info")[-1] == {"tab_id": 103} and [tab["id"] for tab in browser.tabs] == [7, 103]


async def test_the_first_tab_goes_back_when_the_session_tracks_another_tab():
    browser = embedded_browser()
    session = fake_session(browser)
    await ok(session, "screenshot", {})
    await ok(session, "configure", {"action": "track", "tab_id": 7})
    assert browser.methods("tab.close") == [{"tab_id": 101}]
    await ok(session, "configure", {"action": "track", "tab_id": 7})  # once
    assert len(browser.methods("tab.close")) == 1


@pytest.mark.parametrize(
    "work",
    [
        ("interact", {"action": "navigate", "url": "http://127.0.0.1/page"}),  # it shows a page
        ("interact", {"action": "execute", "script": "document.body.textContent = 'x'"}),  # acted on
        ("configure", {"action": "emulate", "emulation": {"color_scheme": "dark"}}),
    ],
)
async def test_a_first_tab_the_session_worked_in_is_kept(work):
    browser = embedded_browser()
    session = fake_session(browser)
    await ok(session, *work)
    await ok(session, "interact", {"action": "open_tab"})
    assert browser.methods("tab.close") == [] and [tab["id"] for tab in browser.tabs] == [7, 101, 102]
    # and close_tab of the new one goes back to it
    await ok(session, "interact", {"action": "close_tab"})
    await ok(session, "observe", {"what": "page"})
    assert browser.methods("page.info")[-1] == {"tab_id": 101}


async def test_in_the_users_browser_no_tab_is_made_or_closed():
    browser = FakeBrowser()  # the user's: the session follows the focused tab
    session = fake_session(browser)
    await ok(session, "observe", {"what": "page"})
    await ok(session, "interact", {"action": "open_tab"})
    (opened,) = browser.methods("tab.open")
    assert opened["opener_tab_id"] == 7 and browser.methods("tab.close") == []
