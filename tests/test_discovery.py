"""Discovery: which elements an annotated screenshot marks, what it calls them, the state it reports,
the order of its numbers, and what lies above and below the viewport.

Through the real chain (MCP client, ``tabsight mcp``, the extension in a headless Chromium) on the
pages tests/pages/discovery-*.html, each written after the way component libraries draw controls.
What the page itself says (an input's ``checked``, the boxes of its elements, its ``window.record``)
is the reference a user would check the answer against.
"""

from __future__ import annotations

import json

import pytest

from conftest import mcp_client
from harness.calls import payload

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def goto(client, site, page: str) -> None:
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url(f"/{page}")}))


async def observe(client) -> dict:
    """An annotated look with its whole map, also when the page is unchanged since the last look."""
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "full_map": True}
    return payload(await client.call_tool("observe", arguments))


async def marks(client) -> dict[str, dict]:
    """The annotations of an annotated observe, by name (names are unique on these pages)."""
    annotations = (await observe(client))["annotations"]
    by_name = {a.get("name", ""): a for a in annotations}
    assert len(by_name) == len(annotations), [a.get("name") for a in annotations]
    return by_name


async def run(client, script: str):
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


async def box_of(client, css: str) -> dict:
    """The page's own rounded box of the element ``css`` selects."""
    return await run(
        client,
        f"const r = document.querySelector({json.dumps(css)}).getBoundingClientRect(); "
        "return {x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), "
        "height: Math.round(r.height)}",
    )


async def click(client, label: int) -> dict:
    return payload(await client.call_tool("interact", {"action": "click", "label": label}))


# -- visually hidden inputs, marked at what a user sees -------------------------------------------------

#: name -> (role, the element the page shows for it, the input behind it)
STAND_INS = {
    "Pen": ("radio", "label[for=pen]", "#pen"),
    "Eraser": ("radio", "label[for=eraser]", "#eraser"),
    "Text": ("radio", "label[for=text-tool]", "#text-tool"),
    "Bold": ("checkbox", "label[for=bold]", "#bold"),
    "Wi-Fi": ("switch", "label.switch", "#wifi"),
    "Accept terms": ("checkbox", "label[for=terms]", "#terms"),
    "Notifications": ("checkbox", "#notify", None),
}


async def checked(client) -> dict[str, bool]:
    return await run(
        client,
        "const notify = document.getElementById('notify').input; "
        "return Object.fromEntries([...document.querySelectorAll('input[type=radio], input[type=checkbox]')]"
        ".map((input) => [input.id, input.checked]).concat([['notify', notify.checked]]))",
    )


async def test_a_hidden_input_is_marked_at_its_stand_in_with_its_role_name_and_state(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-standins.html")
        found = await marks(client)
        for name, (role, shown, _input) in STAND_INS.items():
            mark = found[name]
            assert mark["role"] == role, mark
            assert mark["state"]["checked"] is (name == "Pen"), mark
            # the box is where the page shows the control, and the selector names that element
            assert mark["bounds"] == await box_of(client, shown), (name, mark)
            assert await run(
                client,
                f"return document.querySelector({json.dumps(mark['selector'])}) === "
                f"document.querySelector({json.dumps(shown)})",
            ), mark
        upload = found["Upload file"]
        assert upload["role"] == "button" and upload["bounds"] == await box_of(client, "label.upload")
        # a checkbox a user sees is marked itself, once, not at its label
        assert found["Remember me"]["bounds"] == await box_of(client, "#remember")
        assert [a for a in found.values() if "label" in a["selector"] and "Remember" in a.get("name", "")] == []


async def test_clicking_a_stand_in_label_operates_its_input(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-standins.html")
        found = await marks(client)
        for name in ("Eraser", "Bold", "Wi-Fi", "Accept terms", "Notifications"):
            clicked = await click(client, found[name]["label"])
            assert clicked["target"]["name"] == name and clicked["target"]["role"] == STAND_INS[name][0]
        assert await run(client, "return window.record") == ["eraser", "bold", "wifi", "terms", "notify"]
        state = await checked(client)
        assert state == {
            "pen": False,
            "eraser": True,
            "text-tool": False,
            "bold": True,
            "wifi": True,
            "terms": True,
            "remember": False,
            "notify": True,
        }

        # the Pen label of that first annotation still stands for the Pen radio: its state changed, not its identity
        await click(client, found["Pen"]["label"])
        assert (await checked(client))["pen"] is True
        again = await marks(client)
        assert {name: again[name]["state"]["checked"] for name in STAND_INS} == {
            "Pen": True,
            "Eraser": False,
            "Text": False,
            "Bold": True,
            "Wi-Fi": True,
            "Accept terms": True,
            "Notifications": True,
        }


async def test_names_come_from_slotted_text_shadow_roots_and_labels(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-standins.html")
        found = await marks(client)
        # a web component's button, named by the text slotted into it; marked once, at its inner button
        submit = found["Submit request"]
        assert submit["role"] == "button" and submit["selector"].startswith("#submit >>> ")
        assert found["Large"]["role"] == "radio" and found["Large"]["state"]["checked"] is True
        assert found["Small"]["state"]["checked"] is False
        # aria-labelledby pointing at an id inside the same shadow root
        quantity = found["Quantity"]
        assert quantity["role"] == "textbox" and quantity["state"]["value"] == "3"
        # a form-associated custom element, named by its <label for>
        assert found["Stars"]["role"] == "slider" and found["Stars"]["selector"] == "#stars"
        # text hidden by CSS or aria-hidden is no part of a name
        assert found["Save"]["selector"] == "#hidden-parts"
        # no mark for a tabindex=-1 element, a wrapper of a button, or a button inside a link
        names = set(found)
        assert "Only a tabindex of -1" not in names
        assert found["Wrapped button"]["selector"] == "#wrapped"
        assert not any(a["selector"] == "#wrapper" for a in found.values())
        assert found["Open nested"]["selector"] == "#nested-link"


# -- state --------------------------------------------------------------------------------------------------


async def test_each_mark_carries_the_state_a_user_reads(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-state.html")
        found = await marks(client)
        state = {name: mark.get("state", {}) for name, mark in found.items()}
        assert state["Subscribed"] == {"checked": True}
        assert state["Some selected"] == {"checked": "mixed"}
        assert state["Partly done"] == {"checked": "mixed"} and state["Not done"] == {"checked": False}
        assert state["Overview"] == {"selected": True} and state["Details"] == {}
        assert state["More options"] == {"expanded": False}
        assert state["Shipping"] == {"expanded": True} and state["Returns"] == {"expanded": False}
        assert state["Bold"] == {"pressed": True} and state["Italic"] == {"pressed": False}
        # disabled controls are marked, and say so
        assert state["Delete"] == {"disabled": True} and state["Archive"] == {"disabled": True}
        assert state["Locked field"] == {"disabled": True, "value": "fixed"}
        assert state["Full name"] == {"value": "Ada Lovelace"}
        assert state["Password"] == {} and state["Empty field"] == {}  # a password's value never leaves the page
        assert state["Long text"]["value"] == "x" * 100 + "… [truncated: 150 chars]"
        assert state["Month"] == {
            "value": "July",
            "options_total": 12,
            "options": [
                "January",
                "February",
                "March",
                "April",
                "May",
                "June",
                "July",
                "August",
                "September",
                "October",
            ],
        }
        assert state["Volume"] == {"value": "30"}
        assert state["City"] == {"expanded": False, "value": "Paris"}
        assert state["Fruit"] == {"options": ["Apple", "Banana", "Cherry"]}
        assert state["Banana"] == {"selected": True} and state["Apple"] == {}


# -- code editors -----------------------------------------------------------------------------------------


async def test_a_code_editor_is_one_editable_mark(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-editors.html")
        annotations = (await observe(client))["annotations"]
        assert [a["selector"] for a in annotations] == ["#before", "#ace", "#cm5", "#cm6", "#monaco", "#after"]
        editors = annotations[1:5]
        for editor in editors:
            assert editor["role"] == "textbox" and editor.get("interactionHint", "editable") == "editable", editor
            assert editor["bounds"] == await box_of(client, editor["selector"])
        # the text an editor holds, its lines in order (Monaco keeps them in any order in its DOM)
        assert [e["state"]["value"] for e in editors] == [
            "function ace() { return 1; }",
            "function cm5() { return 5;",
            "const cm6 = 6; export default cm6;",
            "function monaco() { return monaco;",
        ]
        assert editors[2]["name"] == "Script" and editors[3]["name"] == "Editor content"


# -- overlays and modals ------------------------------------------------------------------------------


async def test_an_open_menu_is_numbered_first_and_its_opener_stays(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-overlays.html")
        await click(client, (await marks(client))["Actions"]["label"])
        annotations = (await observe(client))["annotations"]
        names = [a.get("name") for a in annotations]
        assert names[:4] == ["Duplicate", "Rename", "Archive", "Delete"]
        assert all(a["role"] == "menuitem" for a in annotations[:4])
        opener = annotations[names.index("Actions")]
        assert opener["state"] == {"expanded": True}
        # the rows the menu covers are not marked; the ones beside and below it are, after the menu
        assert "Edit 12" in names[4:] and "Edit 1" not in names

        # a dropdown whose menu is the element next to its button (no aria-controls)
        await click(client, opener["label"])
        await click(client, (await marks(client))["Sort"]["label"])
        names = [a.get("name") for a in (await observe(client))["annotations"]]
        assert names[:2] == ["By name", "By date"] and "Sort" in names[2:]

        # an open popover
        await goto(client, site, "discovery-overlays.html?popover")
        await click(client, (await marks(client))["Share"]["label"])
        names = [a.get("name") for a in (await observe(client))["annotations"]]
        assert names[:2] == ["Copy link", "Email"] and "Share" in names[2:]


async def test_nothing_under_a_modal_is_marked(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-overlays.html")
        found = await marks(client)
        await click(client, found["Open dialog"]["label"])
        observed = await observe(client)
        assert [a.get("name") for a in observed["annotations"]] == ["Title", "Save", "Cancel"]
        assert "outside_viewport" not in observed

        await goto(client, site, "discovery-overlays.html?drawer")
        found = await marks(client)
        await click(client, found["Open drawer"]["label"])
        observed = await observe(client)
        # the drawer leaves the rows visible on the left, but they are under it: not there to act on
        assert [a.get("name") for a in observed["annotations"]] == ["Only open", "Apply filters"]
        assert await run(client, "return document.elementFromPoint(40, 300).closest('.row') !== null")


# -- outside the viewport ------------------------------------------------------------------------------


async def test_outside_viewport_counts_and_lists_the_nearest(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "discovery-outside.html")
        await run(client, "scrollTo(0, 1500)")
        observed = await observe(client)
        page = await run(
            client,
            "const steps = [...document.querySelectorAll('#steps button')]; return {"
            "above: steps.filter((b) => b.getBoundingClientRect().bottom <= 0).map((b) => b.textContent), "
            "shown: steps.filter((b) => { const r = b.getBoundingClientRect(); "
            "return r.bottom > 0 && r.top < innerHeight; }).map((b) => b.textContent), "
            "below: steps.filter((b) => b.getBoundingClientRect().top >= innerHeight).map((b) => b.textContent)}",
        )
        assert [a["name"] for a in observed["annotations"]] == page["shown"]
        outside = observed["outside_viewport"]
        # hidden, transparent and off-to-the-side buttons are not counted
        assert outside["above"]["count"] == len(page["above"]) == 15
        assert outside["below"]["count"] == len(page["below"]) == 17
        assert [e["name"] for e in outside["above"]["elements"]] == page["above"][::-1][:5]
        assert [e["name"] for e in outside["below"]["elements"]] == page["below"][:5]
        assert all(e["role"] == "button" for side in ("above", "below") for e in outside[side]["elements"])

        # what it lists can be acted on by its selector: the action scrolls it into view
        nearest_below = outside["below"]["elements"][0]
        payload(await client.call_tool("interact", {"action": "click", "selector": nearest_below["selector"]}))
        assert await run(client, "return window.record") == [nearest_below["name"]]
