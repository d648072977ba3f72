"""Cheap forms of observe: the lean JSON map, the compact lines, the page's text as an outline, the
interactive elements outside the viewport, and a smaller annotated picture.

The formatting is tested on a fake browser (tests/fakes.py) against the contract of elements.find
(state, outside_viewport); the same forms are then checked end to end on Chromium."""

from __future__ import annotations

import base64
import io
import json
import re

import pytest
from PIL import Image

from conftest import mcp_client
from fakes import FakeBrowser, fake_session
from harness.calls import region
from tabsight import annotate
from tabsight.tools.dispatch import call
from tabsight.tools.observe import LINE_GRAMMAR

pytestmark = pytest.mark.anyio

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"  # a GitHub token, as redact knows them


def element(selector, tag, role, name, text="", hint="clickable", state=None, x=10, y=10) -> dict:
    found = {
        "selector": selector,
        "tag": tag,
        "role": role,
        "name": name,
        "text": text,
        "bounds": {"x": x, "y": y, "width": 80, "height": 24},
        "interactionHint": hint,
    }
    if state is not None:
        found["state"] = state
    return found


ELEMENTS = [
    element("#save", "button", "button", "Save", "Save"),
    element('[data-testid="mode"]', "button", "button", "Dark mode", "Dark mode", "toggleable", {"pressed": False}),
    element("#editor", "div", "textbox", "", "Edit me", "editable"),
    element(
        "#colour",
        "select",
        "combobox",
        "Colour",
        "Red",
        "selectable",
        {"value": "Red", "options": ["Red", "Green", "Blue"]},
    ),
    element("#agree", "input", "checkbox", "I agree", "", "toggleable", {"checked": True}),
    element("#key", "input", "textbox", "API key", "", "editable", {"value": f"key {TOKEN}"}),
    element("#search", "input", "combobox", "Search", "", "editable"),
    element("main > div.card:nth-of-type(2) >>> a", "a", "link", 'Say "hi" (now)', "Say hi", "navigable"),
    element("#mixed", "div", "checkbox", "All", "", "toggleable", {"checked": "mixed", "disabled": True}),
]

OUTSIDE = {
    "above": {"count": 1, "elements": [{"selector": "#top", "role": "link", "name": "Top"}]},
    "below": {
        "count": 7,
        "elements": [
            {"selector": "#more", "role": "button", "name": "Load more"},
            {"selector": "#next", "role": "link", "name": "Next page"},
        ],
    },
}


def text_of(result) -> str:
    """The answer's text (its JSON, or its compact form), from the page-content region it is."""
    assert not result.is_error, result.content[0].text
    return region(next(block.text for block in result.content if block.type == "text"))


def image_of(result) -> Image.Image:
    block = next(block for block in result.content if block.type == "image")
    return Image.open(io.BytesIO(base64.b64decode(block.data)))


def parse_line(line: str, labelled: bool = True) -> dict:
    """One compact line, read by the grammar the tool's description documents: `label role "name" (facts)` for a
    mark, `role "name" (facts) selector` for an element outside the viewport (not ``labelled``), role - for none,
    name a JSON string, facts `key` or `key=<JSON>`, the selector to the end."""
    decoder = json.JSONDecoder()
    parts = line.split(" ", 2 if labelled else 1)
    parsed = {"label": int(parts[0])} if labelled else {}
    parsed["role"], rest = parts[-2], parts[-1]
    parsed["name"], end = decoder.raw_decode(rest)
    rest = rest[end:]
    facts = {}
    if rest.startswith(" ("):
        rest = rest[2:]
        while not rest.startswith(")"):
            key = re.match(r"[a-z_]+", rest).group()
            rest = rest[len(key) :]
            if rest.startswith("="):
                facts[key], end = decoder.raw_decode(rest[1:])
                rest = rest[1 + end :]
            else:
                facts[key] = True
            rest = rest.removeprefix(" ")
        rest = rest[1:]
    parsed["facts"] = facts
    if labelled:
        assert rest == "", line
    else:
        assert rest.startswith(" "), line
        parsed["selector"] = rest[1:]
    return parsed


# -- the lean JSON map (annotation_format json) --------------------------------------------------------------


async def test_the_default_map_leaves_out_what_is_empty_or_repeats_another_field():
    browser = FakeBrowser()
    browser.elements = ELEMENTS
    result = await call(
        fake_session(browser), "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
    )
    data = json.loads(text_of(result))
    bounds = {"x": 10, "y": 10, "width": 80, "height": 24}
    assert data["annotations"] == [
        {"label": 1, "role": "button", "name": "Save", "selector": "#save", "bounds": bounds},
        {
            "label": 2,
            "role": "button",
            "name": "Dark mode",
            "state": {"pressed": False},
            "selector": '[data-testid="mode"]',
            "bounds": bounds,
            "interactionHint": "toggleable",
        },
        {"label": 3, "tag": "div", "role": "textbox", "text": "Edit me", "selector": "#editor", "bounds": bounds},
        {
            "label": 4,
            "role": "combobox",
            "name": "Colour",
            "state": {"value": "Red", "options": ["Red", "Green", "Blue"]},
            "selector": "#colour",
            "bounds": bounds,
        },
        {
            "label": 5,
            "role": "checkbox",
            "name": "I agree",
            "state": {"checked": True},
            "selector": "#agree",
            "bounds": bounds,
        },
        # a field's value is page text: a secret in it is masked like in any page field
        {
            "label": 6,
            "role": "textbox",
            "name": "API key",
            "state": {"value": "key [REDACTED]"},
            "selector": "#key",
            "bounds": bounds,
        },
        # an <input list>: a combobox whose tag and hint are not its role's
        {
            "label": 7,
            "tag": "input",
            "role": "combobox",
            "name": "Search",
            "selector": "#search",
            "bounds": bounds,
            "interactionHint": "editable",
        },
        {
            "label": 8,
            "role": "link",
            "name": 'Say "hi" (now)',
            "text": "Say hi",
            "selector": "main > div.card:nth-of-type(2) >>> a",
            "bounds": bounds,
        },
        {
            "label": 9,
            "tag": "div",
            "role": "checkbox",
            "name": "All",
            "state": {"checked": "mixed", "disabled": True},
            "selector": "#mixed",
            "bounds": bounds,
        },
    ]
    assert data["total_found"] == len(ELEMENTS) and "outside_viewport" not in data and "page_text" not in data


async def test_the_map_lists_what_is_outside_the_viewport_and_how_to_reach_it():
    browser = FakeBrowser()
    browser.elements = ELEMENTS[:1]
    browser.outside_viewport = {"above": {"count": 0, "elements": []}, "below": OUTSIDE["below"]}
    data = json.loads(
        text_of(
            await call(
                fake_session(browser),
                "observe",
                {"what": "page", "annotate_screenshot": True, "annotation_format": "json"},
            )
        )
    )
    assert data["outside_viewport"] == {
        "below": OUTSIDE["below"],
        "how": "act on any of them by selector: actions scroll their target into view",
    }
    browser.outside_viewport = {"above": {"count": 0, "elements": []}, "below": {"count": 0, "elements": []}}
    data = json.loads(
        text_of(
            await call(
                fake_session(browser),
                "observe",
                {"what": "page", "annotate_screenshot": True, "annotation_format": "json"},
            )
        )
    )
    assert "outside_viewport" not in data


async def test_the_default_look_is_the_compact_form():
    """A look costs about half the tokens in lines (issue 33): the default; the JSON map, bounds and all, is
    one argument away."""
    browser = FakeBrowser()
    browser.elements = ELEMENTS
    result = await call(fake_session(browser), "observe", {"what": "page", "annotate_screenshot": True})
    lines = text_of(result).split("\n")
    assert lines[1] == f'{len(ELEMENTS)} of {len(ELEMENTS)} found, a line each: label role "name" (state)'
    assert parse_line(lines[2]) == {"label": 1, "role": "button", "name": "Save", "facts": {}}


# -- the compact form -----------------------------------------------------------------------------


async def test_compact_lines_follow_their_documented_grammar():
    browser = FakeBrowser()
    browser.elements = ELEMENTS
    browser.outside_viewport = OUTSIDE
    session = fake_session(browser)
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "compact"}
    lines = text_of(await call(session, "observe", arguments)).split("\n")
    assert lines[0] == 'page "Fake page" http://127.0.0.1/fake viewport 1280x720 complete'
    assert lines[1] == f"9 of 9 found, a line each: {LINE_GRAMMAR}"
    assert lines[2:11] == [
        '1 button "Save"',
        '2 button "Dark mode" (pressed=false)',
        '3 textbox "" (text="Edit me")',
        '4 combobox "Colour" (value="Red" options=["Red","Green","Blue"])',
        '5 checkbox "I agree" (checked)',
        '6 textbox "API key" (value="key [REDACTED]")',
        '7 combobox "Search" (hint="editable")',
        '8 link "Say \\"hi\\" (now)" (text="Say hi")',
        '9 checkbox "All" (checked="mixed" disabled)',
    ]
    parsed = [parse_line(line) for line in lines[2:11]]
    assert [(p["label"], p["role"], p["name"]) for p in parsed] == [
        (n, e["role"], e["name"]) for n, e in enumerate(ELEMENTS, 1)
    ]
    assert parsed[1]["facts"] == {"pressed": False} and parsed[3]["facts"]["options"] == [
        "Red",
        "Green",
        "Blue",
    ]
    assert parsed[8]["facts"] == {"checked": "mixed", "disabled": True}
    assert lines[11:] == [
        "above the viewport: 1 more (1 listed, nearest first; act on any of them by selector: actions scroll "
        "their target into view):",
        '  link "Top" #top',
        "below the viewport: 7 more (2 listed, nearest first; act on any of them by selector: actions scroll "
        "their target into view):",
        '  button "Load more" #more',
        '  link "Next page" #next',
    ]
    assert parse_line(lines[-1].strip(), labelled=False) == {
        "role": "link",
        "name": "Next page",
        "facts": {},
        "selector": "#next",
    }
    # labels from a compact answer act like any others
    await call(session, "interact", {"action": "click", "label": 5})
    assert browser.methods("element.act")[-1]["selector"] == "#agree"


async def test_compact_masks_page_fields_and_says_which_element_has_no_role():
    browser = FakeBrowser()
    browser.tabs[0]["title"] = f"Token {TOKEN}"
    browser.elements = [element("#x", "div", "", f"name {TOKEN}", f"text {TOKEN}", "clickable")]
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "compact"}
    text = text_of(await call(fake_session(browser), "observe", arguments))
    assert TOKEN not in text
    assert text.split("\n")[2] == '1 - "name [REDACTED]" (text="text [REDACTED]")'


# -- the page's text ------------------------------------------------------------------------------


async def test_page_text_is_masked_cut_to_its_budget_and_says_what_it_left_out():
    browser = FakeBrowser()
    browser.outline = {"text": f"# Orders\nToken: {TOKEN}\n" + "x" * 500, "above": 12, "below": 3400}
    session = fake_session(browser)
    data = json.loads(text_of(await call(session, "observe", {"what": "page", "page_text": 100})))
    assert browser.methods("page.outline")[-1] == {"tab_id": 7, "max_chars": 100}
    text, note = data["page_text"].rsplit("\n", 1)
    assert text.startswith("# Orders\nToken: [REDACTED]\nxxx") and TOKEN not in data["page_text"]
    assert note == (
        "[not shown: 457 more characters in the viewport, past page_text=100; 12 characters above the "
        "viewport; 3400 characters below the viewport (scroll down to read them)]"
    )
    assert data["url"] == "http://127.0.0.1/fake"  # the page's summary is still there

    browser.outline = {"text": "", "below": 0}
    data = json.loads(text_of(await call(session, "observe", {"what": "page", "page_text": 100})))
    assert data["page_text"] == "[no text in the viewport]"

    browser.outline = {"text": "Hello", "below": 80, "partial": True}
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "compact", "page_text": 500}
    lines = text_of(await call(session, "observe", arguments)).split("\n")
    assert lines[-3:] == [
        "page text:",
        "Hello",
        "[not shown: at least 80 characters below the viewport (scroll down to read them)]",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"what": "tabs", "page_text": 100},
            "'page_text' is for what 'page' only, not 'tabs'; what 'tabs' takes no other argument",
        ),
        (
            {"what": "page", "annotation_format": "json"},
            "'annotation_format' needs 'annotate_screenshot' (what 'page'): set 'annotate_screenshot' to true",
        ),
        (
            {"what": "page", "max_width": 640},
            "'max_width' needs 'annotate_screenshot' (what 'page'): set 'annotate_screenshot' to true",
        ),
        (
            {"what": "page", "annotate_screenshot": True, "annotation_format": "yaml"},
            "'annotation_format' is 'yaml'; allowed values: 'json' or 'compact'",
        ),
        ({"what": "page", "page_text": 20_000}, "'page_text' is 20000; allowed range: 0 to 10000"),
    ],
)
async def test_bad_arguments_name_the_argument_and_what_is_allowed(arguments, message):
    result = await call(fake_session(FakeBrowser()), "observe", arguments)
    assert result.is_error and message in result.content[0].text


# -- a smaller picture ----------------------------------------------------------------------------


async def test_max_width_shrinks_the_picture_but_not_its_badges_nor_the_bounds():
    browser = FakeBrowser()
    browser.color = (255, 255, 255)
    browser.elements = ELEMENTS[:1]
    session = fake_session(browser)
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "max_width": 640}
    result = await call(session, "observe", arguments)
    assert image_of(result).size == (640, 360)
    assert json.loads(text_of(result))["annotations"][0]["bounds"] == ELEMENTS[0]["bounds"]  # CSS px of the viewport
    result = await call(session, "observe", arguments | {"max_width": 1000, "max_height": 300})
    assert image_of(result).size == (533, 300)


def test_badges_on_a_shrunk_picture_shrink_less_than_it():
    out = io.BytesIO()
    Image.new("RGB", (1280, 720), "white").save(out, "PNG")
    marks = [{"label": 42, "bounds": {"x": 400, "y": 300, "width": 100, "height": 30}}]
    full, (big,) = annotate.draw(out.getvalue(), marks, viewport_width=1280)
    small, (badge,) = annotate.draw(out.getvalue(), marks, viewport_width=1280, size=(320, 180))
    assert small.size == (320, 180)
    # a quarter of the page's size, but the badge keeps BADGE_MIN_SCALE of its own (digits still legible)
    assert badge.box.height < big.box.height and badge.box.width < big.box.width
    assert badge.box.height >= big.box.height * annotate.BADGE_MIN_SCALE - 2
    assert annotate.contrast(badge.fill, badge.digits) >= 4.5
    # the digits are drawn: the badge holds pixels of its fill and of its digits' colour (anti-aliased, at 11 px)
    pixels = {
        colour for _, colour in small.crop((badge.box.x, badge.box.y, badge.box.right, badge.box.bottom)).getcolors()
    }
    assert badge.fill in pixels and any(sum(abs(a - b) for a, b in zip(p, badge.digits)) < 12 for p in pixels)
    # the box is drawn where the element is on the smaller picture (400 / 4 = 100), GAP CSS px out
    assert small.getpixel((100 - round(annotate.GAP / 4) - 1, 75 + 3)) == badge.fill


# -- end to end -----------------------------------------------------------------------------------


async def navigate(client, url):
    result = await client.call_tool("interact", {"action": "navigate", "url": url})
    assert not result.is_error, result.content[0].text


@pytest.mark.browser
async def test_page_text_outlines_what_the_viewport_shows(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/outline.html"))
        data = json.loads(text_of(await client.call_tool("observe", {"what": "page", "page_text": 2000})))
        lines = data["page_text"].split("\n")
        assert lines == [
            "Home",
            "Help",
            "# Order lookup",
            "Find an order by its number. Only orders from this year are kept.",
            "Order number: A-1042",
            "Password: (password, not shown)",
            "[x] Include archived",
            "[ ] Email me updates",  # its checkbox is transparent: its label stands for it
            "Region: South",
            "[Search]",
            "3 orders found for A-1042",
            "## Results",
            "Order | Status",
            "A-1042-1 | Shipped",
            "A-1042-2 | Pending",
            "- Support hours: 9 to 5",
            "- Token for the API: [REDACTED]",
            lines[-1],
        ]
        assert re.fullmatch(r"\[not shown: \d+ characters below the viewport \(scroll down to read them\)\]", lines[-1])
        assert "hunter2" not in data["page_text"] and "ghp_" not in data["page_text"]

        # a budget: what fits, then how much more the viewport shows
        cut = json.loads(text_of(await client.call_tool("observe", {"what": "page", "page_text": 60})))["page_text"]
        shown, note = cut.rsplit("\n", 1)
        assert len(shown) <= 60 and shown.startswith("Home\nHelp\n# Order lookup\nFind an order")
        assert re.fullmatch(
            r"\[not shown: \d+ more characters in the viewport, past page_text=60; \d+ characters "
            r"below the viewport \(scroll down to read them\)\]",
            note,
        )

        # scrolled to the end: the fine print is in view, the form above it
        await client.call_tool("interact", {"action": "scroll", "selector": "#back-to-top"})
        data = json.loads(text_of(await client.call_tool("observe", {"what": "page", "page_text": 2000})))
        assert "Far below: the fine print of the order policy." in data["page_text"]
        assert "Order number" not in data["page_text"]
        assert re.search(r"\[not shown: \d+ characters above the viewport\]$", data["page_text"])


@pytest.mark.browser
@pytest.mark.parametrize("page", ["/outline.html", "/annotate%2Ehtml", "/many%2Ehtml", "/form%2Ehtml"])
async def test_compact_is_at_most_half_the_json_and_its_selectors_name_their_elements(browser, site, page):
    # Other tests' pages at URLs of their own (%2E is the dot): Web Vitals baselines are kept per URL, and a
    # load here must not become theirs (a later slower load would add a regression alert to their answers).
    async with mcp_client() as client:
        await navigate(client, site.url(page))
        # the whole viewport's picture (max_width): the map's two forms compared, not the picture's framing
        base = {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "max_annotations": 100}
        base |= {"max_width": 1280}
        as_json = text_of(await client.call_tool("observe", base))
        as_compact = text_of(await client.call_tool("observe", base | {"annotation_format": "compact"}))
        assert len(as_compact) <= len(as_json) / 2, (len(as_compact), len(as_json))
        annotations = json.loads(as_json)["annotations"]
        assert len(annotations) >= 3
        lines = as_compact.split("\n")[2 : 2 + len(annotations)]
        parsed = [parse_line(line) for line in lines]
        assert [(p["label"], p["role"], p["name"]) for p in parsed] == [
            (a["label"], a.get("role") or "-", a.get("name", "")) for a in annotations
        ]


@pytest.mark.browser
async def test_compact_labels_act_and_a_smaller_picture_keeps_css_bounds(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/outline.html"))
        arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "compact", "max_width": 640}
        result = await client.call_tool("observe", arguments)
        assert image_of(result).size == (640, 360)
        marks = [parse_line(line) for line in text_of(result).split("\n")[2:] if line[:1].isdigit()]
        lines = {mark["name"]: mark for mark in marks}
        assert lines["Include archived"]["facts"] == {"checked": True}
        assert lines["Region"]["facts"] == {"value": "South", "options": ["North", "South"]}
        typed = await client.call_tool(
            "interact", {"action": "type", "label": lines["Order number"]["label"], "text": "B-7", "clear": True}
        )
        assert not typed.is_error, typed.content[0].text
        full = json.loads(
            text_of(
                await client.call_tool(
                    "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
                )
            )
        )
        small = await client.call_tool(
            "observe",
            {
                "what": "page",
                "annotate_screenshot": True,
                "annotation_format": "json",
                "max_width": 640,
                "full_map": True,
            },
        )
        assert json.loads(text_of(small))["annotations"] == full["annotations"]  # bounds in CSS px of the viewport
        data = json.loads(text_of(await client.call_tool("observe", {"what": "page", "page_text": 500})))
        assert "Order number: B-7" in data["page_text"]


@pytest.mark.browser
async def test_interactive_elements_below_the_viewport_are_counted_and_reachable(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/outline.html"))
        base = {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
        data = json.loads(text_of(await client.call_tool("observe", base)))
        below = data["outside_viewport"]["below"]
        assert below["count"] == 2 and [e["name"] for e in below["elements"]] == ["Load more orders", "Back to top"]
        assert "above" not in data["outside_viewport"]
        compact = text_of(await client.call_tool("observe", base | {"annotation_format": "compact"})).split("\n")
        at = compact.index(next(line for line in compact if line.startswith("below the viewport: 2 more")))
        reach = parse_line(compact[at + 1].strip(), labelled=False)
        assert reach["name"] == "Load more orders"
        clicked = await client.call_tool("interact", {"action": "click", "selector": reach["selector"]})
        assert not clicked.is_error, clicked.content[0].text


async def test_an_unchecked_box_says_nothing_of_checked_and_a_toggle_button_no_toggleable_hint():
    browser = FakeBrowser()
    browser.elements = [
        element("#news", "input", "checkbox", "News", "", "toggleable", {"checked": False}),
        element("#on", "div", "switch", "Wi-Fi", "", "toggleable", {"checked": True}),
        element("#bold", "button", "button", "Bold", "", "toggleable", {"pressed": True}),
        element("#more", "div", "button", "More", "", "toggleable", {"expanded": False}),
        element("#opt", "div", "option", "Small", "", "", {"checked": False}),
    ]
    session = fake_session(browser)
    lines = text_of(await call(session, "observe", {"what": "page", "annotate_screenshot": True})).split("\n")
    assert lines[2:] == [
        '1 checkbox "News"',
        '2 switch "Wi-Fi" (checked)',
        '3 button "Bold" (pressed)',
        '4 button "More" (expanded=false hint="toggleable")',
        '5 option "Small" (checked=false)',  # an option is not checkable by its role: its false is news
    ]
