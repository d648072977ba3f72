"""Pages that crash or keep their main thread busy: every call answers in its time and leaves nothing open.

Pages in tests/pages/hostile-pages/ (the dialog pages are tested in test_dialogs.py).
"""

from __future__ import annotations

import json
import time

import pytest
from conftest import mcp_client

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def timed(client, tool: str, arguments: dict):
    started = time.monotonic()
    result = await client.call_tool(tool, arguments)
    return result, time.monotonic() - started


async def owned_windows(browser) -> list:
    return [tab for tab in (await browser.client.tabs())["tabs"] if tab.get("owned")]


@pytest.mark.parametrize("page", ["busy-after-load.html", "busy-while-loading.html"])
async def test_a_url_screenshot_of_a_busy_page_answers_within_its_timeout_with_its_window_closed(browser, site, page):
    async with mcp_client() as client:
        result, seconds = await timed(client, "screenshot", {"url": site.url(f"/hostile-pages/{page}"), "timeout": 5000})
        assert result.is_error and seconds < 5 + 2, (seconds, result.content[0].text)
        # the load timed out, or the busy page gave no frame to capture: either way the answer says so
        assert "timeout of 5000" in result.content[0].text.lower() or "no frame" in result.content[0].text
        assert browser.call(owned_windows(browser)) == []


async def test_a_crashed_tab_is_named_as_one_and_navigating_recovers_it(browser, site):
    async with mcp_client() as client:
        url = site.url("/index.html")
        await client.call_tool("interact", {"action": "navigate", "url": url})
        crash, seconds = await timed(client, "interact", {"action": "execute", "cdp": [{"method": "Page.crash", "params": {}}]})
        assert crash.is_error and "crashed" in crash.content[0].text and seconds < 2, (seconds, crash.content[0].text)
        for tool, arguments in [("observe", {"what": "page"}), ("screenshot", {}),
                                ("interact", {"action": "click", "x": 10, "y": 10})]:
            result, seconds = await timed(client, tool, arguments)
            assert result.is_error and seconds < 2, (tool, seconds)
            assert "crashed" in result.content[0].text and "navigate" in result.content[0].text, result.content[0].text
        recovered = await client.call_tool("interact", {"action": "navigate", "url": url})
        assert not recovered.is_error
        page = json.loads((await client.call_tool("observe", {"what": "page"})).content[0].text)
        assert page["title"] == "tabsight test page"


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
