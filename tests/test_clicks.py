"""Clicks as users make them (issue 20): double and triple clicks, the right and middle buttons, modifier keys
held; trusted input through the debugger, guarded like a plain click (the hit-target check).

tests/pages/clicks.html keeps every mouse event its button receives, and opens a menu of its own under the
pointer on a right click; tests/realapps/pages/todomvc.html is TodoMVC's Vue app from npm, whose items are
edited by a double-click.
"""

from __future__ import annotations

import pytest

from conftest import client_on, mcp_client
from harness.calls import payload, refusal, script as run

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def click(client, **arguments) -> dict:
    return payload(await client.call_tool("interact", {"action": "click", **arguments}))


async def seen(client) -> list[tuple]:
    return [(e["type"], e["button"], e["detail"]) for e in await run(client, "return window.seen")]


@pytest.fixture
async def clicks_page(browser, site):
    async with client_on(site.url("/clicks.html")) as client:
        yield client


async def test_a_double_click_is_two_clicks_and_a_dblclick(clicks_page):
    answer = await click(clicks_page, selector="#target", click_count=2)
    assert answer["did"].startswith("double-click at ")
    assert await seen(clicks_page) == [
        ("mousedown", 0, 1),
        ("mouseup", 0, 1),
        ("click", 0, 1),
        ("mousedown", 0, 2),
        ("mouseup", 0, 2),
        ("click", 0, 2),
        ("dblclick", 0, 2),
    ]
    assert all(e["trusted"] for e in await run(clicks_page, "return window.seen"))


async def test_a_triple_click_selects_the_paragraph(clicks_page):
    answer = await click(clicks_page, selector="#para", click_count=3)
    assert answer["did"].startswith("triple-click at ")
    selected = await run(clicks_page, "return getSelection().toString()")
    assert selected.strip() == "The first sentence of a paragraph. The second sentence of it."


async def test_a_right_click_opens_the_pages_menu_under_the_pointer_and_is_not_a_miss(clicks_page):
    answer = await click(clicks_page, selector="#target", button="right")
    assert answer["did"].startswith("right click at ")
    events = await seen(clicks_page)
    assert [e[:2] for e in events if e[0] == "contextmenu"] == [("contextmenu", 2)]
    assert [e for e in events if e[0] == "mousedown"] == [("mousedown", 2, 1)]  # once: not tried again
    assert await run(clicks_page, "return document.getElementById('menu').classList.contains('open')")
    assert await run(clicks_page, "return window.menuGotRelease === true")  # the page's menu had the release


async def test_a_middle_click_is_an_auxclick(clicks_page):
    answer = await click(clicks_page, selector="#target", button="middle")
    assert answer["did"].startswith("middle click at ")
    assert ("auxclick", 1, 1) in await seen(clicks_page)
    assert ("click", 0, 1) not in await seen(clicks_page)


async def test_modifier_keys_are_held_during_the_click(clicks_page):
    answer = await click(clicks_page, selector="#target", modifiers=["Shift", "ControlOrMeta"])
    assert answer["did"].startswith("click with Shift+Control at ")  # Linux: ControlOrMeta is Control
    events = [e for e in await run(clicks_page, "return window.seen") if e["type"] == "click"]
    assert [(e["shift"], e["ctrl"], e["alt"], e["meta"]) for e in events] == [(True, True, False, False)]


async def test_a_point_click_with_another_button_says_what_received_it(clicks_page):
    box = await run(
        clicks_page,
        "const r = document.getElementById('target').getBoundingClientRect();"
        "return {x: r.x + r.width / 2, y: r.y + r.height / 2}",
    )
    answer = await click(clicks_page, x=box["x"], y=box["y"], button="middle")
    assert answer["received"]["tag"] == "button" and answer["received"]["name"] == "Target"


async def test_click_arguments_are_checked(clicks_page):
    for arguments, words in (
        ({"action": "hover", "selector": "#target", "button": "right"}, "'button' is for action 'click' only"),
        ({"action": "type", "text": "x", "click_count": 2}, "'click_count' is for action 'click' only"),
        ({"action": "click", "selector": "#target", "click_count": 4}, "click_count"),
        ({"action": "click", "selector": "#target", "button": "back"}, "'left', 'right' or 'middle'"),
        ({"action": "click", "selector": "#target", "modifiers": ["Hyper"]}, "ControlOrMeta"),
    ):
        message = refusal(await clicks_page.call_tool("interact", arguments))
        assert words in message, message
    assert await seen(clicks_page) == []  # nothing was clicked


async def test_todomvc_edits_an_item_on_a_double_click(browser, realapps):
    async with mcp_client() as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": f"{realapps}/pages/todomvc.html"}))
        await click(client, selector="#todo-list li:nth-child(1) label", click_count=2)
        assert await run(client, "return document.querySelector('#todo-list li').classList.contains('editing')")
        assert await run(client, "return document.activeElement.className") == "edit"
        typed = payload(
            await client.call_tool(
                "interact", {"action": "type", "text": "Buy oat milk", "clear": True, "submit": True}
            )
        )
        assert typed["value"] == "Buy oat milk"
        titles = await run(client, "return [...document.querySelectorAll('#todo-list label')].map(l => l.textContent)")
        assert titles == ["Buy oat milk", "Walk dog"]
