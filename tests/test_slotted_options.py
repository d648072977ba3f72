"""A listbox whose options are slotted into it, not its descendants: Shoelace's sl-select (npm, in
tests/realapps/pages/shoelace.html) keeps its sl-option elements in the light DOM and slots them into the listbox
of its shadow root. ``select`` finds them there, as the map's state does (page-library names.js
``listboxOptions``), through the MCP SDK client on the embedded headless Chromium."""

from __future__ import annotations

import pytest

from conftest import mcp_client
from harness.calls import payload
from harness.realapps import execute, load, mark

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.realapps]

TEAM = "return document.querySelector('sl-select[name=team]').value"


async def test_select_picks_an_option_slotted_into_a_shoelace_select(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/shoelace.html")
        arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
        found = payload(await client.call_tool("observe", arguments))
        team = mark(found["annotations"], "combobox", "Team")
        chosen = await client.call_tool("interact", {"action": "select", "label": team["label"], "value": "Platform"})
        assert not chosen.is_error, chosen.content[0].text
        assert await execute(client, TEAM) == "platform"
        # a name that is no option's: the error lists the slotted options
        wrong = await client.call_tool("interact", {"action": "select", "label": team["label"], "value": "Sales"})
        assert wrong.is_error
        assert all(name in wrong.content[0].text for name in ('"Design"', '"Platform"', '"Support"'))
        assert await execute(client, TEAM) == "platform"
