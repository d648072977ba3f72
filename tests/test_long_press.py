"""interact long_press (issue 32's action added in the new shape: a row and a handler on each side): a press held
for hold_ms, on a page of the npm library long-press-event (tests/realapps/actions/long-press.html: a message
deleted by holding its button), through the MCP SDK client on the embedded headless Chromium. A click there
is not enough, as for a user; a held press is."""

from __future__ import annotations

import pytest

from conftest import mcp_client
from harness.calls import refusal
from harness.realapps import answer, execute, load, mark, observe

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.realapps]

STATE = "[document.getElementById('status').textContent, !!document.getElementById('draft')]"


async def test_a_held_press_deletes_where_a_click_does_not(browser, realapps):
    async with mcp_client(read_timeout_seconds=60) as client:
        await load(client, f"{realapps}/actions/long-press.html")
        button = mark((await observe(client)).annotations, "button", "Hold to delete")
        clicked = answer(await client.call_tool("interact", {"action": "click", "label": button["label"]}))
        assert clicked["did"].startswith("click at")
        assert await execute(client, STATE) == ["hold the button to delete", True]

        held = answer(
            await client.call_tool("interact", {"action": "long_press", "label": button["label"], "hold_ms": 900})
        )
        assert held["did"].startswith("long press (900 ms) at"), held
        assert await execute(client, STATE) == ["deleted", False]


async def test_long_press_arguments_are_checked(browser):
    async with mcp_client() as client:
        for arguments, words in (
            ({"action": "long_press"}, "action 'long_press' needs a target: label, selector, or x and y"),
            ({"action": "long_press", "selector": "#x", "hold_ms": 50}, "'hold_ms' is 50"),
            ({"action": "click", "selector": "#x", "hold_ms": 900}, "'hold_ms' is for action 'long_press' only"),
        ):
            assert words in refusal(await client.call_tool("interact", arguments))
