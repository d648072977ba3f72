"""Label identity: a label acts on the element its annotation marked, or on nothing.

tests/pages/list-app.html renders a list of two items with checkboxes; its filter links change
location.hash and render the list again with new elements in the same document (so the old CSS
paths now match the other item). The page records in window.record which item's checkbox changed.
"""

from __future__ import annotations

import json

import pytest

from conftest import mcp_client
from harness.calls import payload, refusal

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def run(client, script: str):
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


async def open_list(client, site) -> dict:
    """The list app, freshly loaded and annotated: its annotations by name."""
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/list-app.html")}))
    observed = payload(
        await client.call_tool("observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"})
    )
    return {a["name"]: a for a in observed["annotations"]}


async def page_state(client) -> dict:
    """What the page saw: the items toggled, and which checkboxes are ticked now."""
    return await run(
        client,
        "return {toggled: window.record.toggled, renders: window.record.renders, "
        "ticked: [...document.querySelectorAll('#list li')]"
        ".filter((li) => li.querySelector('input').checked).map((li) => li.dataset.item)}",
    )


async def click(client, label: int):
    return await client.call_tool("interact", {"action": "click", "label": label})


async def test_a_label_from_before_a_hash_route_render_is_refused_and_ticks_nothing(browser, site):
    async with mcp_client() as client:
        marks = await open_list(client, site)
        milk = marks["Buy milk"]
        assert milk["role"] == "checkbox"
        payload(await click(client, marks["Newest first"]["label"]))
        state = await page_state(client)
        assert state["renders"] == 2 and state["toggled"] == []
        # the trap: the selector the label was drawn with now names the other item's checkbox
        now = await run(
            client, f"return document.querySelector({json.dumps(milk['selector'])}).closest('li').dataset.item"
        )
        assert now == "Walk dog"

        message = refusal(await click(client, milk["label"]))
        assert f"Label {milk['label']} is from the annotation of {site.url('/list-app.html')}" in message
        assert f"label {milk['label']} is stale: observe again" in message
        assert "observe({what:'page', annotate_screenshot:true})" in message
        assert message.endswith("for fresh labels. [stale_label]")  # the refusal's code, last
        assert await page_state(client) == {"toggled": [], "renders": 2, "ticked": []}

        # observing again gives labels for the list as it is now
        fresh = payload(
            await client.call_tool(
                "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
            )
        )
        (milk_now,) = [a["label"] for a in fresh["annotations"] if a["name"] == "Buy milk"]
        clicked = payload(await click(client, milk_now))
        assert clicked["target"]["name"] == "Buy milk"
        assert await page_state(client) == {"toggled": ["Buy milk"], "renders": 2, "ticked": ["Buy milk"]}


async def test_a_label_still_works_after_a_harmless_scroll(browser, site):
    async with mcp_client() as client:
        marks = await open_list(client, site)
        dog = marks["Walk dog"]
        scrolled = payload(await client.call_tool("interact", {"action": "scroll", "delta_y": 30}))
        assert scrolled["did"] == "scrolled by (0, 30)"
        top = await run(
            client, "return document.querySelector('[data-item=\"Walk dog\"] input').getBoundingClientRect().top"
        )
        assert top < dog["bounds"]["y"]  # it moved: the page scrolled under the label

        clicked = payload(await click(client, dog["label"]))
        assert clicked["target"]["name"] == "Walk dog"
        assert await page_state(client) == {"toggled": ["Walk dog"], "renders": 1, "ticked": ["Walk dog"]}


async def test_a_label_whose_element_was_replaced_by_an_identical_one_is_refused(browser, site):
    async with mcp_client() as client:
        marks = await open_list(client, site)
        payload(await click(client, marks["Refresh"]["label"]))
        # the same list, drawn again: the label's selector still names a "Buy milk" checkbox, a new one
        again = await run(
            client,
            f"return document.querySelector({json.dumps(marks['Buy milk']['selector'])}).closest('li').dataset.item",
        )
        assert again == "Buy milk"

        message = refusal(await click(client, marks["Buy milk"]["label"]))
        assert f"label {marks['Buy milk']['label']} is stale: observe again" in message
        assert await page_state(client) == {"toggled": [], "renders": 2, "ticked": []}


async def test_a_label_whose_element_changed_its_name_is_refused(browser, site):
    """Renamed by the page, unknown to the agent: refused, never acted on."""
    async with mcp_client() as client:
        marks = await open_list(client, site)
        await run(client, "document.getElementById('rename').click(); return true")  # not an action of the agent's
        message = refusal(await click(client, marks["Buy milk"]["label"]))
        assert f"label {marks['Buy milk']['label']} is stale: observe again" in message
        assert '"Buy milk (renamed)"' in message
        assert await page_state(client) == {"toggled": [], "renders": 1, "ticked": []}


async def test_a_renamed_element_an_answer_told_of_keeps_its_label(browser, site):
    """The agent's own click renamed another element: the answer's changes tell the new name under its label,
    which then acts on that same element."""
    async with mcp_client() as client:
        marks = await open_list(client, site)
        milk = marks["Buy milk"]["label"]
        renamed = payload(await click(client, marks["Rename"]["label"]))
        told = {item["label"]: item for item in renamed["changes"]["changed"]}
        assert told[milk]["name"] == "Buy milk (renamed)" and told[milk]["role"] == "checkbox"
        payload(await click(client, milk))
        assert (await page_state(client))["ticked"] == ["Buy milk"]  # that same checkbox, whatever its text


async def test_a_selector_copied_from_the_annotation_stands_for_the_element_it_marked(browser, site):
    async with mcp_client() as client:
        marks = await open_list(client, site)
        milk = marks["Buy milk"]["selector"]
        payload(await click(client, marks["Newest first"]["label"]))
        # the list was drawn again: the selector may match a checkbox now, but not the one it marked
        message = refusal(await client.call_tool("interact", {"action": "click", "selector": milk}))
        assert f"Selector {milk} (label {marks['Buy milk']['label']}) is from the annotation of" in message
        assert "is stale: observe again" in message
        assert await page_state(client) == {"toggled": [], "renders": 2, "ticked": []}

        # on a new page it is a plain selector again
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/list-app.html")}))
        clicked = payload(await client.call_tool("interact", {"action": "click", "selector": milk}))
        assert clicked["target"]["role"] == "checkbox"
        assert (await page_state(client))["toggled"] == [
            await run(client, f"return document.querySelector({json.dumps(milk)}).closest('li').dataset.item")
        ]
