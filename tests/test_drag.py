"""Drag and drop (issue 20): interact's drag, from a label, selector or point to another, with trusted pointer
input through the debugger, and HTML5 drag events where the page starts an HTML5 drag.

tests/pages/drag.html has draggable cards, a drop zone that takes them (its drop reads the card's id from the
dataTransfer), and a slider that follows the held pointer; tests/realapps/pages/sortable.html is SortableJS
from npm, once with HTML5 drag and drop (its default) and once pointer-driven (forceFallback).
"""

from __future__ import annotations

import pytest

from conftest import client_on, mcp_client
from harness.calls import payload, refusal, script as run

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def drag(client, **arguments) -> dict:
    return payload(await client.call_tool("interact", {"action": "drag", **arguments}))


@pytest.fixture
async def drag_page(browser, site):
    async with client_on(site.url("/drag.html")) as client:
        yield client


async def test_an_html5_drop_onto_a_zone_carries_the_data(drag_page):
    answer = await drag(drag_page, selector="#apple", to_selector="#zone")
    assert answer["html5_drag"] is True
    assert answer["did"].startswith("dragged from (")
    assert answer["source"]["name"] == "Apple" and answer["destination"]["name"] == "Basket"
    assert await run(drag_page, "return window.dropped") == ["apple"]
    assert await run(drag_page, "return document.querySelector('#zone #apple') !== null")
    events = await run(drag_page, "return window.drags")
    assert [e["type"] for e in events] == ["dragstart", "dragenter", "dragover", "drop", "dragend"]
    assert all(e["trusted"] for e in events)
    assert answer["dom"]["removed"] >= 1 and answer["dom"]["added"] >= 1  # what changed: the card moved


async def test_a_pointer_drag_moves_a_slider_point_to_point(drag_page):
    box = await run(
        drag_page,
        "const t = document.getElementById('thumb').getBoundingClientRect();"
        "const k = document.getElementById('track').getBoundingClientRect();"
        "return {x: t.x + t.width / 2, y: t.y + t.height / 2, end: k.x + k.width * 0.75}",
    )
    answer = await drag(drag_page, x=box["x"], y=box["y"], to_x=box["end"], to_y=box["y"])
    assert answer["html5_drag"] is False
    assert answer["source"]["role"] == "slider"
    level = int(await run(drag_page, "return document.getElementById('level').textContent"))
    assert 70 <= level <= 80
    pointer = await run(drag_page, "return window.pointer")
    assert pointer["downs"] == 1 and pointer["ups"] == 1 and pointer["moves"] >= 5  # moved in steps


async def test_a_drag_by_labels_from_an_annotated_screenshot(drag_page):
    seen = payload(
        await drag_page.call_tool("observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"})
    )
    labels = {a.get("name"): a["label"] for a in seen["annotations"]}
    answer = await drag(drag_page, label=labels["Pear"], to_label=labels["Basket"])
    assert (answer["label"], answer["to_label"]) == (labels["Pear"], labels["Basket"])
    assert answer["html5_drag"] is True
    assert await run(drag_page, "return window.dropped") == ["pear"]


async def test_drag_arguments_are_checked(drag_page):
    for arguments, words in (
        (
            {"action": "drag", "selector": "#apple"},
            "action 'drag' needs a destination: to_label, to_selector, or to_x and to_y",
        ),
        (
            {"action": "drag", "selector": "#apple", "to_selector": "#zone", "to_x": 5, "to_y": 5},
            "not to_selector and to_x/to_y",
        ),
        ({"action": "drag", "to_selector": "#zone"}, "action 'drag' needs a target"),
        ({"action": "drag", "selector": "#apple", "to_x": 5}, "'to_x' and 'to_y' go together"),
        ({"action": "drag", "selector": "#apple", "to_label": 0}, "'to_label' is 0"),
        ({"action": "click", "selector": "#apple", "to_selector": "#zone"}, "'to_selector' is for action 'drag' only"),
        ({"action": "drag", "selector": "#apple", "to_selector": "#nowhere"}, "#nowhere"),
    ):
        message = refusal(await drag_page.call_tool("interact", arguments))
        assert words in message, message
    assert await run(drag_page, "return window.drags") == []  # nothing was dragged
    # and nothing was left behind: the next drag works as the first
    assert (
        payload(
            await drag_page.call_tool("interact", {"action": "drag", "selector": "#apple", "to_selector": "#zone"})
        )["html5_drag"]
        is True
    )


@pytest.mark.parametrize(
    ("list_id", "html5", "before", "after"),
    [
        ("native", True, ["One", "Two", "Three", "Four"], ["Two", "Three", "One", "Four"]),
        ("fallback", False, ["Red", "Green", "Blue", "Black"], ["Green", "Blue", "Red", "Black"]),
    ],
)
async def test_sortablejs_reorders_its_list(browser, realapps, list_id, html5, before, after):
    async with mcp_client() as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": f"{realapps}/pages/sortable.html"}))
        items = f"return [...document.querySelectorAll('#{list_id} li')].map(li => li.textContent)"
        assert await run(client, items) == before
        answer = await drag(client, selector=f"#{list_id} li:nth-child(1)", to_selector=f"#{list_id} li:nth-child(3)")
        assert answer["html5_drag"] is html5
        assert await run(client, items) == after
        assert await run(client, "return window.sorted") == [{"list": list_id, "from": 0, "to": 2}]
