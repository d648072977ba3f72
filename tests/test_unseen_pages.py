"""Pages of libraries tabsight's discovery was not written against (issue 30), driven as an agent would.

Each page of tests/realapps/unseen (Excalidraw 0.18, Material Web, Ionic, Fluent UI web components,
TodoMVC's AngularJS app, Naive UI, Blueprint; tom-select, choices.js and slim-select on one form) is served from tests/realapps/ and, through the MCP SDK
client on the embedded headless Chromium, a scripted agent: navigates to it and waits until it is quiet
(harness.realapps.load), observes it with an annotated screenshot, finds its target among the annotations
by role and name (harness.realapps.mark: a miss lists every annotation there was), acts on it by its
label with ``interact``, and checks what the page itself says happened (``interact execute``), as a user
would look.

The names expected are what a user reads there; for a control Chromium names too, Chromium's name. A
control with no role of its own (Naive UI's tabs, pagination items and options, Blueprint's carets) is
expected with no role (harness.realapps.NO_ROLE) and the name its text or title gives it.

The apps are npm packages, some bundled with esbuild (tests/realapps/install.sh installs and bundles
them). Without them these tests fail under CI and are skipped elsewhere.
"""

from __future__ import annotations

import json
import os

import pytest

from conftest import mcp_client
from harness.realapps import (
    NO_ROLE,
    REALAPPS,
    answer,
    describe_annotation,
    execute,
    load,
    mark,
    marks,
    missing_bundles,
    observe,
)
from harness.servers import serve_folder

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.realapps, pytest.mark.timeout(240)]

MISSING = missing_bundles()
if MISSING and not os.environ.get("CI"):
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture(scope="module")
def unseen():
    """tests/realapps served on 127.0.0.1: the base URL of its unseen/ pages."""
    if MISSING:
        pytest.fail(f"the real apps are not installed (under CI they must be): {MISSING}")
    server = serve_folder(REALAPPS)
    yield f"http://127.0.0.1:{server.server_address[1]}/unseen/"
    server.shutdown()
    server.server_close()


@pytest.fixture
async def agent(browser, unseen):
    """An MCP client on the embedded browser, and the base URL of the pages."""
    async with mcp_client(read_timeout_seconds=60) as client:
        yield client, unseen


async def opened(agent, page: str) -> tuple:
    """The client with ``page`` loaded and quiet, and the annotations of its annotated screenshot."""
    client, base = agent
    await load(client, base + page)
    return client, (await observe(client)).annotations


async def act(client, action: str, item: dict, **arguments) -> dict:
    """``interact`` ``action`` on the annotation ``item``, by its label."""
    return answer(await client.call_tool("interact", {"action": action, "label": item["label"], **arguments}))


async def page_says(client, expression: str, expected, seconds: float = 3):
    """What ``expression`` (JavaScript, in the page) is once it equals ``expected``, or after ``seconds``: what a
    user would look at after acting, given the time an app takes to answer."""
    source = f"""
      const read = () => {{ try {{ return ({expression}); }} catch (error) {{ return 'error: ' + error.message; }} }};
      const want = {json.dumps(expected)};
      for (const until = Date.now() + {seconds * 1000}; Date.now() < until;) {{
        if (JSON.stringify(read()) === JSON.stringify(want)) break;
        await new Promise((done) => setTimeout(done, 100));
      }}
      return read();"""
    return await execute(client, source)


def listing(annotations: list[dict]) -> str:
    return "".join(f"\n  - {describe_annotation(item)}" for item in annotations) or " (none)"


def point_in(item: dict, box: dict) -> bool:
    """Whether the centre of the annotation ``item``'s bounds lies in ``box`` (x, y, width, height)."""
    bounds = item["bounds"]
    x, y = bounds["x"] + bounds["width"] / 2, bounds["y"] + bounds["height"] / 2
    return box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]


# -- what each page says once acted on: (expression, the value expected) ---------------------------------------

RECTANGLE_ACTIVE = (
    "[document.querySelector('[data-testid=toolbar-rectangle]').checked,"
    " window.excalidrawAPI.getAppState().activeTool.type]",
    [True, "rectangle"],
)
MD_BILLING_SELECTED = (
    "[document.getElementById('tabs').activeTabIndex, document.getElementById('tab-billing').selected]",
    [1, True],
)
MD_FILLED = (
    "['full-name', 'email'].map((id) => document.getElementById(id))"
    ".flatMap((field) => [field.value, field.shadowRoot.querySelector('input').value])",
    ["Ada Lovelace"] * 2 + ["ada@example.org"] * 2,
)
ION_GRID = ("document.getElementById('view').value", "grid")
FLUENT_TERMS = ("location.hash", "#terms")
TODOS_COMPLETED = (
    "[document.querySelectorAll('#todo-list li.completed').length,"
    " JSON.parse(localStorage.getItem('todos-angularjs')).filter((todo) => todo.completed).length]",
    [3, 3],
)
NAIVE_BILLING = (
    "[document.querySelector('.n-tabs-tab--active').textContent.trim(), document.querySelector('.pane').textContent]",
    ["Billing", "Billing settings"],
)
NAIVE_PAGE_2 = ("document.querySelector('#pager .n-pagination-item--active').textContent.trim()", "2")
NAIVE_TEAM = ("document.querySelector('#plan .n-base-selection-label').textContent.trim()", "Team")
NAIVE_BY_AGE = (
    "[...document.querySelectorAll('#people tbody tr')].map((row) => row.children[1].textContent.trim())",
    ["85", "72", "41", "36"],
)  # a first click sorts descending
BP_DOCS_EXPANDED = (
    "[...document.querySelectorAll('.bp6-tree-node-expanded > .bp6-tree-node-content .bp6-tree-node-label')]"
    ".map((label) => label.textContent)",
    ["docs"],
)

#: (page, interact arguments by selector, what the page then says): each label test's action and check, by selector
BY_SELECTOR = [
    ("excalidraw018.html", {"action": "click", "selector": "[data-testid=toolbar-rectangle]"}, RECTANGLE_ACTIVE),
    ("material.html", {"action": "click", "selector": "#tab-billing"}, MD_BILLING_SELECTED),
    (
        "material.html",
        {
            "action": "fill",
            "fields": [
                {"selector": "#full-name >>> input", "value": "Ada Lovelace"},
                {"selector": "#email >>> input", "value": "ada@example.org"},
            ],
        },
        MD_FILLED,
    ),
    ("ionic.html", {"action": "click", "selector": "ion-segment-button[value=grid]"}, ION_GRID),
    ("fluent.html", {"action": "click", "selector": "#terms"}, FLUENT_TERMS),
    ("todomvc-angularjs.html", {"action": "click", "selector": "#toggle-all"}, TODOS_COMPLETED),
    ("naive.html", {"action": "click", "selector": '.n-tabs-tab[data-name="billing"]'}, NAIVE_BILLING),
    ("naive.html", {"action": "click", "selector": "#pager .n-pagination-item:nth-child(3)"}, NAIVE_PAGE_2),
    ("naive.html", {"action": "click", "selector": ".n-base-select-option:nth-child(2)"}, NAIVE_TEAM),
    ("naive.html", {"action": "click", "selector": '#people th[data-col-key="age"]'}, NAIVE_BY_AGE),
    (
        "blueprint.html",
        {
            "action": "click",
            "selector": ".bp6-tree-root > li:nth-child(2) > .bp6-tree-node-content > .bp6-tree-node-caret",
        },
        BP_DOCS_EXPANDED,
    ),
]


@pytest.mark.parametrize(
    ("page", "arguments", "says"),
    BY_SELECTOR,
    ids=[f"{page}-{arguments.get('selector', 'fill')}" for page, arguments, _ in BY_SELECTOR],
)
async def test_each_pages_action_by_selector_gives_what_its_label_test_checks(agent, page, arguments, says):
    """The pages and the checks are sound: the action of each label test, aimed by a CSS selector instead of a
    label, leaves the page saying what that test expects (a label test that fails does so on its marks)."""
    client, base = agent
    await load(client, base + page)
    answer(await client.call_tool("interact", arguments))
    assert await page_says(client, *says) == says[1]


# -- Excalidraw 0.18 -----------------------------------------------------------------------------------------

#: its toolbar's tools, as Chromium names their radios
EXCALIDRAW_TOOLS = (
    "Selection",
    "Rectangle",
    "Diamond",
    "Ellipse",
    "Arrow",
    "Line",
    "Draw",
    "Text",
    "Insert image",
    "Eraser",
)


async def test_excalidraw_018_marks_its_tools_panel_and_corner_controls(agent):
    _, annotations = await opened(agent, "excalidraw018.html")
    for tool in EXCALIDRAW_TOOLS:
        mark(annotations, "radio", tool)
    # the selected rectangle's properties: its fill styles and stroke widths
    for fill in ("Hachure", "Cross-hatch"):
        mark(annotations, ("button", "radio"), fill, contains=True)
    for width in ("Thin", "Bold", "Extra bold"):
        mark(annotations, "radio", width)
    for control in ("Zoom out", "Reset zoom", "Zoom in", "Help"):
        mark(annotations, "button", control)
    mark(annotations, ("button", "checkbox", "switch"), "Library")
    # the hamburger at the top left: a button with no accessible name (only data-testid="main-menu-trigger")
    mark(annotations, "button", "menu", contains=True)


async def test_excalidraw_018_a_click_on_the_rectangle_tools_label_makes_it_the_active_tool(agent):
    client, annotations = await opened(agent, "excalidraw018.html")
    await act(client, "click", mark(annotations, "radio", "Rectangle"))
    assert await page_says(client, *RECTANGLE_ACTIVE) == RECTANGLE_ACTIVE[1], (
        "the Rectangle tool's radio is not checked and the app's active tool is not rectangle after the click"
    )


# -- Material Web -------------------------------------------------------------------------------------------


async def test_material_web_tabs_are_marked_by_name_and_a_click_selects_billing(agent):
    client, annotations = await opened(agent, "material.html")
    for tab in ("Profile", "Security"):
        mark(annotations, "tab", tab)
    await act(client, "click", mark(annotations, "tab", "Billing"))
    assert await page_says(client, *MD_BILLING_SELECTED) == MD_BILLING_SELECTED[1], (
        "the Billing tab is not selected after the click"
    )


async def test_material_web_text_fields_are_textboxes_named_by_their_label_and_filled_by_it(agent):
    client, annotations = await opened(agent, "material.html")
    name, email = mark(annotations, "textbox", "Full name"), mark(annotations, "textbox", "Email")
    answer(
        await client.call_tool(
            "interact",
            {
                "action": "fill",
                "fields": [
                    {"label": name["label"], "value": "Ada Lovelace"},
                    {"label": email["label"], "value": "ada@example.org"},
                ],
            },
        )
    )
    assert await page_says(client, *MD_FILLED) == MD_FILLED[1], (
        "the fields' values (element, inner input) are not what fill put in by label"
    )


async def test_material_web_radios_and_slider_are_marked_by_name(agent):
    _, annotations = await opened(agent, "material.html")
    mark(annotations, "radio", "Personal")
    mark(annotations, "radio", "Business")
    mark(annotations, "slider", "Volume")


# -- Ionic ---------------------------------------------------------------------------------------------------


async def test_ionic_segment_buttons_and_the_selects_button_are_marked_and_a_segment_click_selects_it(agent):
    client, annotations = await opened(agent, "ionic.html")
    mark(annotations, "tab", "List")
    mark(annotations, "tab", "Map")
    mark(annotations, ("button", "combobox"), "Fruit", contains=True)
    await act(client, "click", mark(annotations, "tab", "Grid"))
    assert await page_says(client, *ION_GRID) == ION_GRID[1], (
        "the segment's value is not grid after the click on its Grid button"
    )


# -- Fluent UI web components --------------------------------------------------------------------------------


async def test_fluent_link_is_marked_as_a_link_by_name_and_followed(agent):
    client, annotations = await opened(agent, "fluent.html")
    mark(annotations, "link", "Privacy policy")
    await act(client, "click", mark(annotations, "link", "Read the terms"))
    assert await page_says(client, *FLUENT_TERMS) == FLUENT_TERMS[1], "the link was not followed"


# -- TodoMVC AngularJS ---------------------------------------------------------------------------------------


async def test_todomvc_angularjs_mark_all_as_complete_is_found_by_name_and_completes_every_todo(agent):
    client, annotations = await opened(agent, "todomvc-angularjs.html")
    # its <label for="toggle-all"> is display:none, so Chromium gives the checkbox no name: the app names it in
    # that label, and a user knows the chevron above the list by those words
    await act(client, "click", mark(annotations, "checkbox", "Mark all as complete"))
    assert await page_says(client, *TODOS_COMPLETED) == TODOS_COMPLETED[1], (
        "not every todo is completed after the click"
    )


# -- Naive UI ------------------------------------------------------------------------------------------------


async def test_naive_ui_roleless_billing_tab_is_marked_by_its_text_and_a_click_switches_to_it(agent):
    client, annotations = await opened(agent, "naive.html")
    mark(annotations, NO_ROLE, "Security")
    await act(client, "click", mark(annotations, NO_ROLE, "Billing"))
    assert await page_says(client, *NAIVE_BILLING) == NAIVE_BILLING[1], "the Billing tab is not active after the click"


async def test_naive_ui_roleless_pagination_item_is_marked_by_its_number_and_a_click_turns_the_page(agent):
    client, annotations = await opened(agent, "naive.html")
    mark(annotations, NO_ROLE, "3")
    await act(client, "click", mark(annotations, NO_ROLE, "2"))
    assert await page_says(client, *NAIVE_PAGE_2) == NAIVE_PAGE_2[1], "page 2 is not the active page after the click"


async def test_naive_ui_open_selects_options_are_marked_by_their_text(agent):
    client, annotations = await opened(agent, "naive.html")
    for option in ("Free", "Team", "Enterprise"):
        mark(annotations, NO_ROLE + ("option",), option)
    await act(client, "click", mark(annotations, NO_ROLE + ("option",), "Team"))
    assert await page_says(client, *NAIVE_TEAM) == NAIVE_TEAM[1], (
        "the select does not show Team after its option's click"
    )


async def test_naive_ui_sortable_column_header_is_marked_and_a_click_sorts_by_it(agent):
    client, annotations = await opened(agent, "naive.html")
    header = marks(annotations, NO_ROLE + ("columnheader", "button"), "Age", contains=True)
    assert len(header) == 1, (
        f"the sortable 'Age' column header is not marked once; the annotations:{listing(annotations)}"
    )
    await act(client, "click", header[0])
    assert await page_says(client, *NAIVE_BY_AGE) == NAIVE_BY_AGE[1], (
        "the table is not sorted by age (descending: a first click's order) after the click on its header"
    )


# -- Blueprint -----------------------------------------------------------------------------------------------


async def test_blueprint_tree_carets_are_marked_and_a_click_expands_the_node(agent):
    client, annotations = await opened(agent, "blueprint.html")
    # a caret: a span with no role holding an svg titled "Expand group"; one per folder (src, docs, tests)
    carets = marks(annotations, NO_ROLE + ("button",), "Expand group")
    assert len(carets) == 3, (
        "the tree's three carets are not marked with no role and the name 'Expand group' "
        f"(their icon's title); the annotations:{listing(annotations)}"
    )
    box = await execute(
        client,
        """
      const caret = [...document.querySelectorAll('.bp6-tree-node')]
        .find((node) => node.querySelector(':scope > .bp6-tree-node-content .bp6-tree-node-label')?.textContent === 'docs')
        .querySelector('.bp6-tree-node-caret').getBoundingClientRect();
      return {x: caret.x, y: caret.y, width: caret.width, height: caret.height};""",
    )
    (docs,) = [caret for caret in carets if point_in(caret, box)]
    await act(client, "click", docs)
    assert await page_says(client, *BP_DOCS_EXPANDED) == BP_DOCS_EXPANDED[1], (
        "the docs folder is not expanded after its caret's click"
    )


# -- select-replacement widgets: tom-select, choices.js, slim-select -------------------------------------------

#: each widget's <select>, the option to pick (its text), its value, and what the widget shows of its choice
SELECT_WIDGETS = [
    ("Room", "#room", "Cygnus", "c", "document.querySelector('.ts-control .item')?.textContent"),
    ("Floor", "#floor", "Third", "3", "document.querySelector('.choices__list--single .choices__item')?.textContent"),
    ("Wing", "#wing", "East", "e", "document.querySelector('.ss-main .ss-single')?.textContent"),
    ("Meal", "#meal", "Vegetarian", "veg", "document.getElementById('meal').selectedOptions[0].text"),
]


def picked(selector: str, shows: str) -> str:
    return f"[document.querySelector({selector!r}).value, {shows}]"


@pytest.mark.parametrize(
    ("name", "selector", "option", "value", "shows"), SELECT_WIDGETS, ids=[w[0] for w in SELECT_WIDGETS]
)
async def test_select_on_a_widgets_hidden_select_picks_through_the_widget_so_the_page_shows_it(
    agent, name, selector, option, value, shows
):
    """Before: ``select`` on the <select> a widget hides set it natively; the form held the option and the widget
    went on showing the old one (none of these libraries follows its <select>). Now the widget is operated as a
    user does, and the answer comes once the <select> holds the option: both say it."""
    client, _ = await opened(agent, "select-widgets.html")
    done = answer(await client.call_tool("interact", {"action": "select", "selector": selector, "value": option}))
    assert done["value"] == value, done
    assert await page_says(client, picked(selector, shows), [value, option]) == [value, option]


@pytest.mark.parametrize(
    ("name", "selector", "option", "value", "shows"), SELECT_WIDGETS, ids=[w[0] for w in SELECT_WIDGETS]
)
async def test_select_on_a_widgets_label_picks_the_option_the_page_then_shows(
    agent, name, selector, option, value, shows
):
    """The mark an agent reads for each field (its role and its label's name: tom-select's hidden <select>,
    choices.js's dropdown listbox, slim-select's combobox), selected by its label, ends with the page showing
    the option and the form holding it. slim-select's list scales open as the pointer comes: the option is
    aimed at again once it holds still."""
    client, annotations = await opened(agent, "select-widgets.html")
    field = mark(annotations, ("combobox", "listbox"), name)
    await act(client, "select", field, value=option)
    assert await page_says(client, picked(selector, shows), [value, option]) == [value, option]
