"""Pages that crash or keep their main thread busy: every call answers in its time and leaves nothing open.

Pages in tests/pages/hostile-pages/ (the dialog pages are tested in test_dialogs.py).
"""

from __future__ import annotations

import json
import time

import anyio
import pytest

from conftest import mcp_client
from harness.calls import region

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def timed(client, tool: str, arguments: dict):
    started = time.monotonic()
    result = await client.call_tool(tool, arguments)
    return result, time.monotonic() - started


@pytest.mark.parametrize("page", ["busy-after-load.html", "busy-while-loading.html"])
async def test_a_url_screenshot_of_a_busy_page_answers_within_its_timeout_with_its_window_closed(browser, site, page):
    async with mcp_client() as client:
        # the bound is the capture's: the front's own loading (its first request after the opening one waits for
        # the SDK and the tools, some 0.7-1.2 s on this machine) is not timed
        await client.list_tools()
        result, seconds = await timed(
            client, "screenshot", {"url": site.url(f"/hostile-pages/{page}"), "timeout": 5000}
        )
        assert result.is_error and seconds < 5 + 2, (seconds, result.content[0].text)
        # the load timed out, or the busy page gave no frame to capture: either way the answer says so
        assert "timeout of 5000" in result.content[0].text.lower() or "no frame" in result.content[0].text
        # its window is gone, and the page's busy loop does not hold up another tab of the same site
        assert not [tab for tab in browser.call(browser.client.tabs())["tabs"] if page in tab["url"]]
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
        _result, seconds = await timed(client, "observe", {"what": "page"})
        assert seconds < 2


async def test_a_crashed_tab_is_named_as_one_and_navigating_recovers_it(browser, site):
    # a tab of its own, on another site (localhost, not 127.0.0.1) so that it has a renderer process of its own:
    # the crash must not take the suite's shared tab with it; opened by a script so that it can close itself
    url = site.url("/index.html").replace("127.0.0.1", "localhost")
    _client, own_tab = browser.call(browser.browsers.tab())
    opened = browser.call(
        browser.client.execute(
            own_tab, f"!!window.open({json.dumps(url + '?crash')}, '', 'popup,width=800,height=600')", [], 5000
        )
    )
    assert opened["script"]["result"] is True, opened
    await anyio.sleep(1.0)
    (tab,) = [t["id"] for t in browser.call(browser.client.tabs())["tabs"] if t["url"].endswith("?crash")]
    async with mcp_client() as client:
        crash, seconds = await timed(
            client, "interact", {"action": "execute", "tab_id": tab, "cdp": [{"method": "Page.crash", "params": {}}]}
        )
        assert crash.is_error and "crashed" in crash.content[0].text and seconds < 2, (seconds, crash.content[0].text)
        for tool, arguments in [
            ("observe", {"what": "page", "tab_id": tab}),
            ("screenshot", {"tab_id": tab}),
            ("interact", {"action": "click", "x": 10, "y": 10, "tab_id": tab}),
        ]:
            result, seconds = await timed(client, tool, arguments)
            assert result.is_error and seconds < 2, (tool, seconds)
            assert "crashed" in result.content[0].text and "navigate" in result.content[0].text, result.content[0].text
        recovered = await client.call_tool("interact", {"action": "navigate", "url": url, "tab_id": tab})
        assert not recovered.is_error
        page = json.loads(region((await client.call_tool("observe", {"what": "page", "tab_id": tab})).content[0].text))
        assert page["title"] == "tabsight test page"
    browser.call(browser.client.execute(tab, "window.close()", [], 5000))
    await anyio.sleep(0.5)
    assert tab not in {t["id"] for t in browser.call(browser.client.tabs())["tabs"]}


SECRETS = ("ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", "tok_9f8e7d6c5b4a3f2e1d0c", "sk_live_4eC39HqLyjWDarjtT1zdp7dc")


async def test_page_urls_and_titles_are_masked_in_every_answer(browser, site):
    async with mcp_client() as client:
        seen = []
        for tool, arguments in [
            ("interact", {"action": "navigate", "url": site.url("/hostile-pages/secrets.html")}),
            ("observe", {"what": "page"}),
            ("observe", {"what": "tabs"}),
            ("observe", {"what": "page", "annotate_screenshot": True}),
            ("screenshot", {"format": "jpeg"}),
            ("interact", {"action": "click", "selector": "#go"}),
            ("observe", {"what": "page"}),
        ]:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, result.content[0].text)
            seen += [block.text for block in result.content if block.type == "text"]
        everything = "\n".join(seen)
        assert not [secret for secret in SECRETS if secret in everything]
        assert "[REDACTED]" in everything and "page=2" in everything and "user=ann" in everything
