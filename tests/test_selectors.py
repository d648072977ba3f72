"""Selectors that survive: annotation selectors avoid generated ids and classes, anchor a row's control at
what tells the row apart (not at its position), and each matches exactly its element.

tests/pages/selectors-generated.html carries ids and classes that frameworks generate (and stable ones);
tests/pages/selectors-rows.html has a table and two lists whose rows differ only by a link, an avatar's
alt text or a data-key, each row with a Delete button like all the others.
"""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from conftest import mcp_client
from harness.calls import payload

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

# A part of each generated id or class that shows in a selector using it (escaped or not).
GENERATED_ON_CONTROLS = [
    "Qm9vaw",
    "r5",
    "4f5g6h",
    "fzXfMv",
    "react-select",
    "ember",
    "mui-",
    "f2504e0",
    "Card_title",
    "1093482",
    "kJhgTq",
]
STABLE_EXAMPLES = {
    "email": "#email",
    "main-nav": "#main-nav",
    "login-form": "#login-form",
    "btn-primary": "button.btn-primary",
    "todo-list": "ul.todo-list",
    "new-todo": "input.new-todo",
}
# each with the parts that would show in a selector using it, escaped or not
GENERATED_EXAMPLES = {
    "AxjJvtg=": ["AxjJvtg"],
    "css-1x2y3z": ["1x2y3z"],
    "sc-bdVaJa": ["bdVaJa"],
    "r:0:": ["r:0", "r\\:0"],
    ":r1:": ["r1"],
    "jsx-2930453": ["2930453"],
    "ember412": ["ember412"],
    "Button_root__a8Xz2": ["a8Xz2"],
    "mui-123": ["mui-123"],
    "react-select-3-input": ["react-select"],
    "9b2f4c1e-2a7d-4e8b-b3c6-5d1e0f7a9c42": ["2a7d-4e8b"],
}

# Where each selector leads in the page: how many elements it matches, and the one's box
MATCHES = """
return SELECTORS.map((selector) => {
  const all = document.querySelectorAll(selector);
  const box = all.length === 1 ? all[0].getBoundingClientRect() : null;
  return {count: all.length, bounds: box && {x: Math.round(box.x), y: Math.round(box.y),
    width: Math.round(box.width), height: Math.round(box.height)}};
});
"""
# The rows whose elements each selector matches now (none, one, or more)
ROWS = """
const rowName = (row) => row.querySelector('a')?.textContent ?? row.querySelector('img')?.alt
  ?? row.firstChild.data.trim();
return SELECTORS.map((selector) => [...document.querySelectorAll(selector)].map((el) => rowName(el.closest('tr, li'))));
"""


def images(result) -> list[Image.Image]:
    assert not result.is_error, result.content[0].text
    return [Image.open(io.BytesIO(base64.b64decode(block.data))) for block in result.content if block.type == "image"]


async def run(client, script: str, selectors: list[str] | None = None):
    if selectors is not None:
        script = f"const SELECTORS = {json.dumps(selectors)};\n{script}"
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


async def annotations(client, site, page: str, **arguments) -> list[dict]:
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url(page)}))
    observed = payload(
        await client.call_tool(
            "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json", **arguments}
        )
    )
    return observed["annotations"]


async def assert_each_selects_exactly_its_element(client, marks: list[dict]) -> None:
    found = await run(client, MATCHES, [mark["selector"] for mark in marks])
    for mark, match in zip(marks, found, strict=True):
        assert match == {"count": 1, "bounds": mark["bounds"]}, mark


async def test_controls_with_generated_ids_and_classes_get_selectors_by_what_is_stable(browser, site):
    async with mcp_client() as client:
        marks = await annotations(client, site, "/selectors-generated.html")
        assert len(marks) == 18  # 8 controls, 3 stable examples, 7 buttons with only a generated id
        for mark in marks:
            assert not [part for part in GENERATED_ON_CONTROLS if part in mark["selector"]], mark["selector"]
        await assert_each_selects_exactly_its_element(client, marks)
        by_name = {mark.get("name"): mark["selector"] for mark in marks}
        assert by_name["Send"] == '[aria-label="Send"]'
        assert by_name["Archive"] == 'button[title="Archive"]'
        assert by_name["Pick a flavour"] == 'input[placeholder="Pick a flavour"]'
        assert by_name["Help"] == 'a[href="/help.html"]'
        assert by_name["Publish"] == "#controls button.btn"  # a utility class, under the section's id
        assert by_name["Save draft"] == "#controls > button:nth-of-type(3)"  # nothing stable of its own


async def test_the_generated_id_detector_on_real_world_examples(browser, site):
    async with mcp_client() as client:
        marks = await annotations(
            client, site, "/selectors-generated.html", annotation_target="custom", annotation_selector="[data-example]"
        )
        assert len(marks) == len(STABLE_EXAMPLES) + len(GENERATED_EXAMPLES)
        examples = await run(
            client,
            "return SELECTORS.map((s) => document.querySelector(s).dataset.example);",
            [mark["selector"] for mark in marks],
        )
        selectors = dict(zip(examples, [mark["selector"] for mark in marks], strict=True))
        assert {token: selectors[token] for token in STABLE_EXAMPLES} == STABLE_EXAMPLES
        for token, parts in GENERATED_EXAMPLES.items():
            assert not [part for part in parts if part in selectors[token]], (token, selectors[token])
        await assert_each_selects_exactly_its_element(client, marks)


async def test_a_rows_delete_button_keeps_its_selector_when_a_row_above_is_deleted(browser, site):
    async with mcp_client() as client:
        marks = [
            mark for mark in await annotations(client, site, "/selectors-rows.html") if mark.get("name") == "Delete"
        ]
        assert len(marks) == 15
        await assert_each_selects_exactly_its_element(client, marks)
        rows = await run(client, ROWS, [mark["selector"] for mark in marks])
        third = {
            row: mark["selector"]
            for mark, [row] in zip(marks, rows, strict=True)
            if row in ("Chisel", "Alan Turing", "Call mum")
        }
        assert third == {
            "Chisel": 'tr:has(a[href="/items/42"]) button[aria-label="Delete"]',
            "Alan Turing": 'li:has(img[alt="Alan Turing"]) button',
            "Call mum": 'li[data-key="t-103"] button',
        }

        # the page deletes the first row of each list: positions shift, the selectors do not
        await run(
            client,
            "document.querySelector('tbody tr').remove(); "
            "for (const list of document.querySelectorAll('ul')) list.firstElementChild.remove();",
        )
        positional = "tbody > tr:nth-of-type(3) > td > button"
        assert await run(client, ROWS, [positional]) == [["Drill"]]  # where a path by position leads now
        assert await run(client, ROWS, list(third.values())) == [["Chisel"], ["Alan Turing"], ["Call mum"]]

        for name, selector in third.items():
            # every call site takes these selectors: interact (hover), wait_for, screenshot's selector
            hovered = payload(await client.call_tool("interact", {"action": "hover", "selector": selector}))
            assert hovered["target"]["name"] == "Delete" and await run(client, "return window.hovered;") == name
            payload(await client.call_tool("interact", {"action": "wait_for", "selector": selector, "timeout": 1000}))
            (match,) = await run(client, MATCHES, [selector])
            box = match["bounds"]
            (shot,) = images(await client.call_tool("screenshot", {"selector": selector, "format": "png"}))
            # the crop is the element's box, to the pixel it rounds to
            assert abs(shot.width - box["width"]) <= 1 and abs(shot.height - box["height"]) <= 1, (shot.size, box)

        # once its row is gone, a selector names nothing: never another row's button
        await run(
            client,
            "for (const row of document.querySelectorAll('tr, li')) "
            "if (['Chisel', 'Alan Turing', 'Call mum'].some((name) => row.textContent.includes(name))) "
            "row.remove();",
        )
        assert await run(client, ROWS, list(third.values())) == [[], [], []]
        missing = await client.call_tool("interact", {"action": "hover", "selector": third["Chisel"]})
        # (a selector copied from the annotation stands for the element it marked: that one is gone)
        assert missing.is_error and "the element it marked is gone from the page" in missing.content[0].text, (
            missing.content[0].text
        )


async def test_a_row_itself_is_named_by_what_tells_it_apart(browser, site):
    async with mcp_client() as client:
        marks = await annotations(
            client, site, "/selectors-rows.html", annotation_target="custom", annotation_selector="tr, li"
        )
        assert len(marks) == 15
        selectors = [mark["selector"] for mark in marks]
        assert {'tr:has(a[href="/items/42"])', 'li:has(img[alt="Alan Turing"])', 'li[data-key="t-103"]'} <= set(
            selectors
        )
        assert not [selector for selector in selectors if "nth-" in selector]
        await assert_each_selects_exactly_its_element(client, marks)
