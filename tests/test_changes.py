"""Answers that spare the next look (issue 33): an action's answer carries what it changed in the agent's map of
the page, in the map's own shape (marks added with new labels, changed with their labels, removed), and the
labels stay valid for the marks that did not change; a look at a page unchanged since the last one says so in a
line, and ``full_map`` returns the whole map again; ``image: false`` gives the map without the picture.

On TodoMVC's Vue app from npm (tests/realapps/pages/todomvc.html, two todos to begin with), through the MCP SDK
client on the embedded headless Chromium, as an agent uses them: each label given in a change is then acted on,
and the page is asked (``interact execute``) whether the right thing happened.
"""

from __future__ import annotations

import pytest

from conftest import mcp_client
from harness.calls import payload, refusal, region, text_of
from harness.realapps import execute, load, mark

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.realapps]

TODOS = "return [...document.querySelectorAll('#todo-list li')].map((li) => li.innerText.trim() + (li.classList.contains('completed') ? ' (done)' : ''))"


async def look(client, **extra) -> tuple[dict, list]:
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
    result = await client.call_tool("observe", arguments | extra)
    return payload(result), [block for block in result.content if block.type == "image"]


async def act(client, **arguments) -> dict:
    return payload(await client.call_tool("interact", arguments))


async def test_an_added_todo_comes_back_as_a_new_mark_whose_label_acts_on_it(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/todomvc.html")
        first, images = await look(client)
        assert len(images) == 1
        known = {item["label"] for item in first["annotations"]}
        field = mark(first["annotations"], "textbox", "What needs to be done?")
        typed = await act(client, action="type", label=field["label"], text="buy milk", submit=True)
        changes = typed["changes"]
        assert isinstance(changes, dict), changes
        added = changes["added"]
        # the new todo's checkbox and its label, under labels the map did not have
        toggle = next(item for item in added if item["role"] == "checkbox")
        assert toggle["label"] not in known and toggle["label"] > max(known)
        assert "selector" in toggle and "bounds" in toggle
        assert len(str(changes)) < 1_600  # within the budget of 400 tokens
        # the new label acts on the new todo
        await act(client, action="click", label=toggle["label"])
        assert "buy milk (done)" in await execute(client, TODOS)
        # and an old label still works on its element: the field
        await act(client, action="type", label=field["label"], text="walk dog", submit=True)
        assert "walk dog" in await execute(client, TODOS)


async def test_a_checked_todo_is_a_changed_mark_and_a_removed_todo_a_removed_label(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/todomvc.html")
        first, _ = await look(client)
        toggles = [item for item in first["annotations"] if item["selector"].startswith("li:")]  # not #toggle-all
        assert toggles, first["annotations"]
        clicked = await act(client, action="click", label=toggles[0]["label"])
        said = {item["label"]: item for item in clicked.get("changes", {}).get("changed", [])}
        if "label_now" in clicked:  # the action's own target: told once, as label_now
            said[clicked["label_now"]["label"]] = clicked["label_now"]
        assert said[toggles[0]["label"]]["state"]["checked"] is True
        # "Clear completed" appears with a completed todo: an added mark; clicking it removes the todo's marks
        clear = mark(clicked["changes"]["added"], "button", "Clear completed", contains=True)
        cleared = await act(client, action="click", label=clear["label"])
        assert toggles[0]["label"] in cleared["changes"]["removed"]
        assert clear["label"] in cleared["changes"]["removed"]
        # a removed label is refused, never acted on another element
        stale = await client.call_tool("interact", {"action": "click", "label": toggles[0]["label"]})
        assert "stale" in refusal(stale).lower() or "gone" in refusal(stale).lower()


async def test_a_look_at_an_unchanged_page_is_a_line_and_full_map_repeats_the_map(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/todomvc.html")
        first, _ = await look(client)
        again, images = await look(client)
        assert "annotations" not in again and again["unchanged"].startswith("unchanged since your last look")
        assert len(images) == 1  # the default look keeps its picture
        whole, _ = await look(client, full_map=True)
        assert whole["annotations"] == first["annotations"]
        # the labels of the map still act: the field takes a todo
        field = mark(whole["annotations"], "textbox", "What needs to be done?")
        answered = await act(client, action="type", label=field["label"], text="read", submit=True)
        assert answered["changes"]["added"]
        after, _ = await look(client)
        assert "annotations" in after  # changed since the last look (the new todo): the whole map


async def test_in_the_default_compact_form_changes_are_the_map_s_own_lines(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/todomvc.html")
        text = text_of(await client.call_tool("observe", {"what": "page", "annotate_screenshot": True}))
        lines = [line for line in region(text).split("\n")[2:] if line[:1].isdigit()]  # after the two headers
        field = next(line for line in lines if '"What needs to be done?"' in line)
        label = int(field.split(" ")[0])
        typed = await act(client, action="type", label=label, text="buy milk", submit=True)
        added = typed["changes"]["added"]
        # `label role "name" (facts) selector`, as the look's lines: the new todo's checkbox under a new label
        assert any(line.split(" ")[1] == "checkbox" and int(line.split(" ")[0]) > len(lines) for line in added), added
        new = next(int(line.split(" ")[0]) for line in added if line.split(" ")[1] == "checkbox")
        await act(client, action="click", label=new)
        assert "buy milk (done)" in await execute(client, TODOS)


async def test_a_look_without_its_image_and_an_action_on_an_unmapped_page(browser, realapps):
    async with mcp_client() as client:
        await load(client, f"{realapps}/pages/todomvc.html")
        mapped, images = await look(client, image=False)
        assert images == [] and mapped["annotations"]
        refused = await client.call_tool("observe", {"what": "page", "image": False})
        assert "annotate_screenshot" in refusal(refused)
        # on a new document the map is of the old one: an action there tells no changes (a look makes a new map)
        await load(client, f"{realapps}/pages/todomvc.html")
        clicked = await act(client, action="click", selector="#toggle-all")
        assert "changes" not in clicked
        assert "(done)" in (await execute(client, TODOS))[0]
