"""Labels follow tabsight's own effects (issue 30): after an action on an element, the labels of that same live
node take the name and state the action gave it (the answer's ``label_now``), so the same label works again; a
node the page renames or replaces by itself is still refused. And fill, select and type answer each field's value
as the page holds it (a select: its option's value and text).

tests/pages/follow.html: a counter, Play/Pause, a checkbox, Save ("Saving…", then "Saved" by a timer of the
page's), a button a click replaces, one the page renames on a timer, and fields; window.record counts clicks.
"""

from __future__ import annotations

import pytest

from conftest import mcp_client
from harness.calls import payload, refusal, script as run

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def annotated(client, site) -> dict:
    """follow.html freshly loaded and annotated: its annotations by name."""
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/follow.html")}))
    observed = payload(
        await client.call_tool("observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"})
    )
    return {a["name"]: a for a in observed["annotations"]}


async def click(client, **target):
    return await client.call_tool("interact", {"action": "click", **target})


async def record(client) -> dict:
    return await run(client, "return window.record")


async def test_a_counter_clicked_twice_by_the_same_label(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        counter = marks["count: 0"]["label"]
        first = payload(await click(client, label=counter))
        assert first["target"]["name"] == "count: 0"  # what was clicked
        assert first["label_now"] == {"label": counter, "role": "button", "name": "count: 1"}
        second = payload(await click(client, label=counter))
        assert second["target"]["name"] == "count: 1"
        assert second["label_now"] == {"label": counter, "role": "button", "name": "count: 2"}
        assert await run(client, "return document.getElementById('counter').textContent") == "count: 2"
        assert (await record(client))["counts"] == 2


async def test_a_selector_from_the_annotation_follows_as_its_label_does(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        counter = marks["count: 0"]
        for count in (1, 2):
            answer = payload(await click(client, selector=counter["selector"]))
            assert answer["label_now"]["name"] == f"count: {count}"
        # and the label, after its selector was used
        payload(await click(client, label=counter["label"]))
        assert await run(client, "return document.getElementById('counter').textContent") == "count: 3"


async def test_play_and_pause_toggled_twice_by_the_same_label(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        play = marks["Play"]["label"]
        assert payload(await click(client, label=play))["label_now"]["name"] == "Pause"
        assert await run(client, "return document.querySelector('.player').textContent") == "Pause"
        assert payload(await click(client, label=play))["label_now"]["name"] == "Play"
        assert await run(client, "return document.querySelector('.player').textContent") == "Play"
        assert (await record(client))["plays"] == 2


async def test_a_checkbox_checked_then_unchecked_by_the_same_label(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        agree = marks["I agree"]
        assert agree["role"] == "checkbox" and agree["state"] == {"checked": False}
        checked = payload(await click(client, label=agree["label"]))
        assert checked["label_now"] == {
            "label": agree["label"],
            "role": "checkbox",
            "name": "I agree",
            "state": {"checked": True},
        }
        assert await run(client, "return document.getElementById('agree').checked") is True
        unchecked = payload(await click(client, label=agree["label"]))
        assert unchecked["label_now"]["state"] == {"checked": False}
        assert await run(client, "return document.getElementById('agree').checked") is False
        # fill by the same label: set, and read back
        filled = payload(
            await client.call_tool("interact", {"action": "fill", "fields": [{"label": agree["label"], "value": True}]})
        )
        assert filled["fields"][0]["value"] is True
        assert filled["fields"][0]["label_now"]["state"] == {"checked": True}
        assert await run(client, "return document.getElementById('agree').checked") is True


async def test_a_name_the_page_gives_later_by_itself_is_still_refused(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        save = marks["Save"]["label"]
        clicked = payload(await click(client, label=save))
        assert clicked["label_now"]["name"] == "Saving…"  # the click's own effect: followed
        # 2 s later the page says "Saved" by itself: not an effect of tabsight's action
        payload(await client.call_tool("interact", {"action": "wait_for", "text": "Saved"}))
        message = refusal(await click(client, label=save))
        assert f"label {save} is stale: observe again" in message
        assert '"Saving…", now <button> button "Saved"' in message
        assert (await record(client))["saves"] == 1


async def test_a_rename_by_a_timer_of_the_page_is_refused(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        tick = marks["tick 0"]
        await run(client, "window.renameLater(0); return true")
        payload(await client.call_tool("interact", {"action": "wait_for", "text": "tick 1"}))
        for target in ({"label": tick["label"]}, {"selector": tick["selector"]}):
            message = refusal(await click(client, **target))
            assert "is stale: observe again" in message and '"tick 0", now <button> button "tick 1"' in message
        assert (await record(client))["ticks"] == 0


async def test_a_node_the_action_replaced_is_refused_not_followed(browser, site):
    async with mcp_client() as client:
        marks = await annotated(client, site)
        more = marks["Load more"]["label"]
        answer = payload(await click(client, label=more))
        assert "label_now" not in answer
        assert await run(client, "return document.querySelector('.more').textContent") == "Load more (1)"
        message = refusal(await click(client, label=more))
        assert f"label {more} is stale: observe again" in message
        assert (await record(client))["more"] == 1


async def test_a_label_renamed_by_the_page_is_stale_until_an_answer_tells_its_new_name(browser, site):
    """A node the page renamed by itself: its label is refused until an answer's changes tell the agent the new
    name under that label (issue 33); then it acts on that node, which the agent now knows by its new name."""
    async with mcp_client() as client:
        marks = await annotated(client, site)
        tick = marks["tick 0"]["label"]
        renamed = "window.renameLater(0); await new Promise((r) => setTimeout(r, 50)); return document.getElementById('tick').textContent"
        assert await run(client, renamed) == "tick 1"
        assert f"label {tick} is stale" in refusal(await click(client, label=tick))
        assert (await record(client))["ticks"] == 0
        answer = payload(await click(client, selector="p > #tick"))  # not the annotation's selector: plain
        assert "label_now" not in answer
        told = {item["label"]: item for item in answer["changes"]["changed"]}
        assert told[tick]["name"] == "tick 1"
        payload(await click(client, label=tick))
        assert (await record(client))["ticks"] == 2


async def test_fill_select_and_type_answer_the_value_each_field_holds(browser, site):
    async with mcp_client() as client:
        await annotated(client, site)
        filled = payload(
            await client.call_tool(
                "interact",
                {
                    "action": "fill",
                    "fields": [
                        {"selector": "#name", "value": "Ada"},
                        {"selector": "#secret", "value": "hunter2"},
                        {"selector": "#plan", "value": "Pro plan"},
                        {"selector": "#toppings", "value": "olive"},
                    ],
                },
            )
        )
        by_field = {item["field"]: item for item in filled["fields"]}
        assert by_field["#name"]["value"] == "Ada"
        assert by_field["#secret"]["value"] is None  # never a password's
        assert "hunter2" not in str(filled)
        assert (by_field["#plan"]["value"], by_field["#plan"]["text"]) == ("pro", "Pro plan")
        assert (by_field["#toppings"]["value"], by_field["#toppings"]["text"]) == (["olive"], ["Olives"])

        selected = payload(
            await client.call_tool("interact", {"action": "select", "selector": "#plan", "value": "free"})
        )
        assert (selected["value"], selected["text"]) == ("free", "Free plan")
        typed = payload(await client.call_tool("interact", {"action": "type", "selector": "#name", "text": " King"}))
        assert typed["value"] == "Ada King"
        assert await run(
            client,
            "const $ = (id) => document.getElementById(id); return [$('name').value, "
            "$('plan').value, [...$('toppings').selectedOptions].map((o) => o.value)]",
        ) == ["Ada King", "free", ["olive"]]
