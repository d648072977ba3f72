"""No answer grows with the page: a 5 MB title, 2 MB of text, a 100 KB URL, a script returning 50 MB."""

from __future__ import annotations

import json
import time

import pytest

from conftest import mcp_client
from harness.calls import region
from tabsight.bounded import ANSWER_CHARS

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def text_size(result) -> int:
    return sum(len(block.text) for block in result.content if block.type == "text")


async def test_a_huge_title_text_and_url_give_bounded_answers(browser, site):
    async with mcp_client() as client:
        url = site.url("/hostile-pages/huge-title.html")
        nav = await client.call_tool("interact", {"action": "navigate", "url": url})
        assert not nav.is_error and text_size(nav) <= ANSWER_CHARS
        for tool, arguments in [
            ("observe", {"what": "page"}),
            ("observe", {"what": "tabs"}),
            ("observe", {"what": "page", "annotate_screenshot": True}),
            ("interact", {"action": "click", "selector": "#go"}),
            ("screenshot", {}),
        ]:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, result.content[0].text[:300])
            assert text_size(result) <= ANSWER_CHARS, (tool, text_size(result))
        page = json.loads(region((await client.call_tool("observe", {"what": "page"})).content[0].text))
        assert page["title"].endswith(f"… [truncated: {5 * 1024 * 1024} chars]")
        assert "… [truncated:" in page["url"]


async def test_a_script_result_of_50_mb_is_cut_with_its_length_and_the_budget_is_configurable(browser, site):
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
        started = time.monotonic()
        result = await client.call_tool("interact", {"action": "execute", "script": "'x'.repeat(50 * 1000 * 1000)"})
        seconds = time.monotonic() - started
        assert not result.is_error and text_size(result) <= ANSWER_CHARS
        script = json.loads(region(result.content[0].text))["script"]
        assert script["result"].endswith("… [truncated: 50000000 chars]") and seconds < 20

        configured = await client.call_tool("configure", {"action": "answers", "max_answer_chars": 300_000})
        assert json.loads(region(configured.content[0].text)) == {"answers": {"max_answer_chars": 300_000}}
        larger = await client.call_tool("interact", {"action": "execute", "script": "'x'.repeat(1000 * 1000)"})
        assert ANSWER_CHARS < text_size(larger) <= 300_000
