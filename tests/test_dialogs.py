"""Page dialogs (alert, confirm, prompt, beforeunload) never wedge a tab: end to end on Chromium.

Pages in tests/pages/hostile-pages/. Each call is timed: a tab with a dialog
answers at once (within 2 s), never after a request timeout.
"""

from __future__ import annotations

import json
import time

import anyio
import pytest

from conftest import mcp_client
from harness.calls import region, tracked_tab

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: every call on a tab with a dialog answers within this (docs: within 2 s)
PROMPT = 2.0


async def timed(client, tool: str, arguments: dict):
    started = time.monotonic()
    result = await client.call_tool(tool, arguments)
    return result, time.monotonic() - started


def answer(result) -> dict:
    assert not result.is_error, result.content[0].text
    return json.loads(region(result.content[0].text))


async def page_text(client, selector: str) -> str:
    result = await client.call_tool(
        "interact", {"action": "execute", "script": f"document.querySelector('{selector}').textContent"}
    )
    return answer(result)["script"]["result"]


async def test_an_alert_on_load_is_accepted_by_the_default_policy_and_the_load_completes(browser, site):
    async with mcp_client() as client:
        result, seconds = await timed(
            client, "interact", {"action": "navigate", "url": site.url("/hostile-pages/dialog-on-load.html")}
        )
        nav = answer(result)
        assert seconds < 10 and nav["title"] == "Dialog on load: done"
        assert nav["dialogs"] == [
            {"type": "alert", "message": "Welcome! Please read the terms.", "answer": "accepted", "by": "policy"}
        ]
        page = answer(await client.call_tool("observe", {"what": "page"}))
        assert "dialog" not in page and page["title"] == "Dialog on load: done"


async def test_a_confirm_from_a_click_follows_the_policy(browser, site):
    async with mcp_client() as client:
        answer(
            await client.call_tool("interact", {"action": "navigate", "url": site.url("/hostile-pages/dialogs.html")})
        )
        clicked, seconds = await timed(client, "interact", {"action": "click", "selector": "#confirm"})
        assert seconds < PROMPT * 2 and answer(clicked)["dialogs"][0] == {
            "type": "confirm",
            "message": "Really delete everything?",
            "answer": "accepted",
            "by": "policy",
        }
        assert await page_text(client, "#result") == "confirm: true"

        configured = answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "dismiss"}))
        assert configured == {"dialogs": {"policy": "dismiss"}}
        answer(await client.call_tool("interact", {"action": "click", "selector": "#confirm"}))
        assert await page_text(client, "#result") == "confirm: false"

        answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "accept"}))
        prompted = answer(await client.call_tool("interact", {"action": "click", "selector": "#prompt"}))
        assert prompted["dialogs"][0]["prompt_text"] == "untitled"
        assert await page_text(client, "#result") == 'prompt: "untitled"'


async def test_with_the_report_policy_a_dialog_stays_open_every_call_names_it_and_the_agent_answers(browser, site):
    async with mcp_client() as client:
        answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "report"}))
        answer(
            await client.call_tool("interact", {"action": "navigate", "url": site.url("/hostile-pages/dialogs.html")})
        )

        clicked, seconds = await timed(client, "interact", {"action": "click", "selector": "#prompt"})
        assert clicked.is_error and seconds < PROMPT * 2
        assert "A prompt dialog opened during this call on tab" in clicked.content[0].text
        assert '"New name?"' in clicked.content[0].text and "interact({action:'dialog'" in clicked.content[0].text

        for tool, arguments in [
            ("screenshot", {}),
            ("interact", {"action": "click", "selector": "#alert"}),
            ("interact", {"action": "press", "key": "Escape"}),
            ("observe", {"what": "page", "annotate_screenshot": True}),
        ]:
            result, seconds = await timed(client, tool, arguments)
            assert result.is_error and seconds < PROMPT, (tool, seconds, result.content[0].text)
            assert "A prompt dialog is open" in result.content[0].text and '"New name?"' in result.content[0].text

        page, seconds = await timed(client, "observe", {"what": "page"})
        assert seconds < PROMPT
        assert answer(page)["dialog"] == {
            "type": "prompt",
            "message": "New name?",
            "default_prompt": "untitled",
            "url": site.url("/hostile-pages/dialogs.html"),
        }

        answered = answer(
            await client.call_tool("interact", {"action": "dialog", "accept": True, "prompt_text": "renamed"})
        )
        assert answered["answer"] == "accepted" and answered["prompt_text"] == "renamed"
        assert await page_text(client, "#result") == 'prompt: "renamed"'

        nothing = await client.call_tool("interact", {"action": "dialog"})
        assert nothing.is_error and "No dialog is open" in nothing.content[0].text
        answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "accept"}))


async def test_beforeunload_never_traps_a_navigation_the_agent_asked_for(browser, site):
    async with mcp_client() as client:
        answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "dismiss"}))
        answer(
            await client.call_tool(
                "interact", {"action": "navigate", "url": site.url("/hostile-pages/beforeunload.html")}
            )
        )
        answer(await client.call_tool("interact", {"action": "type", "selector": "#draft", "text": "unsaved work"}))
        result, seconds = await timed(client, "interact", {"action": "navigate", "url": site.url("/index.html")})
        nav = answer(result)
        assert seconds < 10 and nav["url"] == site.url("/index.html")
        assert [d["type"] for d in nav.get("dialogs", [])] in ([], ["beforeunload"])
        answer(await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "accept"}))


async def test_a_dialog_between_calls_is_answered_by_the_policy_without_the_debugger(browser, site):
    async with mcp_client() as client:
        tab_id = await tracked_tab(client)  # (before the page: observe answers carry its alerts)
        answer(
            await client.call_tool(
                "interact", {"action": "navigate", "url": site.url("/hostile-pages/dialog-later.html?after=4000")}
            )
        )
        await anyio.sleep(5.0)  # the load's attachment is released 3 s after it: the timer fires unattached
        tabs = {tab["id"]: tab for tab in browser.call(browser.client.tabs())["tabs"]}
        assert not tabs[tab_id]["debugger_attached"]
        page, seconds = await timed(client, "observe", {"what": "page"})
        assert seconds < PROMPT and answer(page)["dialogs"] == [
            {"type": "confirm", "message": "Still there?", "answer": "accepted", "by": "policy"}
        ]
        assert await page_text(client, "#result") == "confirm: true"


async def test_a_dialog_that_opened_before_any_policy_is_named_and_a_navigation_closes_it(browser, site):
    # a tab no session has acted on yet: its alert is shown natively, and only the page announced it
    url = site.url("/hostile-pages/dialog-on-load.html")
    _client, own_tab = browser.call(browser.browsers.tab())
    opened = browser.call(
        browser.client.execute(own_tab, f"!!window.open({json.dumps(url)}, '', 'popup,width=800,height=600')", [], 5000)
    )
    assert opened["script"]["result"] is True, opened
    await anyio.sleep(1.5)
    (tab,) = [t for t in browser.call(browser.client.tabs())["tabs"] if t["url"] == url]
    async with mcp_client() as client:
        page, seconds = await timed(client, "observe", {"what": "page", "tab_id": tab["id"]})
        assert seconds < PROMPT and answer(page)["dialog"]["message"] == "Welcome! Please read the terms."
        shot, seconds = await timed(client, "screenshot", {"tab_id": tab["id"]})
        assert shot.is_error and seconds < PROMPT and "An alert dialog is open" in shot.content[0].text
        unanswerable = await client.call_tool("interact", {"action": "dialog", "tab_id": tab["id"]})
        assert unanswerable.is_error and "opened while tabsight was not attached" in unanswerable.content[0].text
        assert "navigate" in unanswerable.content[0].text
        moved = answer(
            await client.call_tool(
                "interact", {"action": "navigate", "url": site.url("/index.html"), "tab_id": tab["id"]}
            )
        )
        assert moved["title"] == "tabsight test page"
    browser.call(browser.client.execute(tab["id"], "window.close()", [], 5000))  # it was opened by a script
    await anyio.sleep(0.5)
    listing = browser.call(browser.client.tabs())
    assert tab["id"] not in {t["id"] for t in listing["tabs"]} and listing["focused_tab_id"] == own_tab
