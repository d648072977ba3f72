"""Annotated screenshots and acting on their labels, through the real chain."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from conftest import mcp_client
from harness.calls import payload, region
from tabsight import annotate, vision
from tabsight.tools.observe import HINT_OF_ROLE

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

FOUND_IN_ORDER = [
    # (name, role, interactionHint), top to bottom, then left to right
    ("Home", "link", "navigable"),
    ("Other", "link", "navigable"),
    ("Save", "button", "clickable"),
    ("Cancel", "button", "clickable"),
    ("Close dialog", "button", "clickable"),
    ("Primary action", "button", "clickable"),
    ("Email address", "textbox", "editable"),
    ("Full name", "textbox", "editable"),
    ("Search the site", "searchbox", "editable"),
    ("Favourite colour", "combobox", "selectable"),
    ("Your notes", "textbox", "editable"),
    ("I agree", "checkbox", "toggleable"),
    ("Free plan", "radio", "toggleable"),
    ("ARIA button", "button", "clickable"),
    ("Dark mode", "switch", "toggleable"),
    ("Clickable div", "generic", "clickable"),
    ("Focusable span", "generic", "clickable"),
    ("", "textbox", "editable"),  # the contenteditable div: no name, text "Edit me"
    ("More details", "button", "toggleable"),
    ("Shadow button", "button", "clickable"),
    ("Frame button", "button", "clickable"),
    ("Disabled", "button", "clickable"),  # marked, with state {disabled: true}
]
NEVER_FOUND = {
    "Display none",
    "Invisible",
    "Transparent",
    "Zero",
    "Inert",
    "Below the fold",
    "Covered one",
    "Covered two",
}


def result_parts(result) -> tuple[Image.Image, dict]:
    assert not result.is_error, result.content[0].text
    block, data, *rest = result.content
    assert block.type == "image" and block.mime_type == "image/jpeg"
    # an alert may ride along (a slow interaction on a loaded machine is a performance alert): nothing else
    assert all(part.type == "text" and "_alerts" in part.text for part in rest), rest
    return Image.open(io.BytesIO(base64.b64decode(block.data))), json.loads(region(data.text))


async def annotated(client, **arguments):
    """The JSON map and its picture at the viewport's size (1280x720: a pixel is a CSS px), the whole map each
    time."""
    base = {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "max_width": 1280}
    return result_parts(await client.call_tool("observe", base | {"full_map": True} | arguments))


async def test_the_default_look_s_picture_fits_its_token_budget_and_keeps_css_bounds(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/annotate.html"))
        full, data = await annotated(client)
        small, again = await annotated(client, max_width=None)
        assert small.width * small.height / 750 <= vision.LOOK_TOKENS < full.width * full.height / 750
        assert abs(small.width / small.height - 1280 / 720) < 0.01
        assert again["annotations"] == data["annotations"]  # bounds in CSS px of the viewport, whatever the size


async def goto(client, url):
    payload(await client.call_tool("interact", {"action": "navigate", "url": url}))


def box_drawn(img: Image.Image, bounds: dict) -> bool:
    """Is a box drawn in a mark's colour along the left of this element (a
    1 px line 0-5 px outside it, where it crosses the fewest strokes)? JPEG
    blurs a thin line: the best pixel counts."""
    rgb = img.convert("RGB")
    strip = [
        rgb.getpixel((x, y))
        for x in range(max(0, bounds["x"] - 6), bounds["x"])
        for y in range(bounds["y"] + 2, bounds["y"] + max(3, bounds["height"] - 2))
    ]
    fills = (annotate.ON_LIGHT[0], annotate.ON_DARK[0])
    return min(sum(abs(a - b) for a, b in zip(pixel, fill)) for pixel in strip for fill in fills) < 90


async def test_a_page_with_blank_margins_is_pictured_without_them(browser, site):
    """form.html holds three fields in its top left corner: the default look pictures that part of the viewport
    (with FRAME_MARGIN around it), at LOOK_SCALE since it fits the budget; the answer says which part,
    labels still act on their element, and the badges sit on the picture where their elements are."""
    async with mcp_client() as client:
        await goto(client, site.url("/form.html"))
        img, data = await annotated(client, max_width=None)
        framed = data["page"]["picture"]
        # the first text is at x 40 (the body's padding), y 56 (and a paragraph's margin): nothing of it cut
        assert 0 < framed["x"] <= 40 and 0 < framed["y"] <= 56
        assert framed["x"] + framed["width"] < 640 and framed["y"] + framed["height"] < 360
        # a small region fits the budget: drawn at the look's largest scale
        scale = vision.LOOK_SCALE
        assert img.size == (int(framed["width"] * scale), int(framed["height"] * scale))
        for item in data["annotations"]:
            bounds = {
                "x": round((item["bounds"]["x"] - framed["x"]) * scale),
                "y": round((item["bounds"]["y"] - framed["y"]) * scale),
                "width": round(item["bounds"]["width"] * scale),
                "height": round(item["bounds"]["height"] * scale),
            }
            assert box_drawn(img, bounds), item
        compact = region(
            next(
                b.text
                for b in (await client.call_tool("observe", {"what": "page", "annotate_screenshot": True})).content
                if b.type == "text"
            )
        )
        first = compact.split("\n")[0]
        assert first.endswith(
            f"; picture of x {framed['x']}-{framed['x'] + framed['width']} "
            f"y {framed['y']}-{framed['y'] + framed['height']} (the rest is blank)"
        ), first
        button = next(item["label"] for item in data["annotations"] if item["name"] == "Sign up")
        clicked = await client.call_tool("interact", {"action": "click", "label": button})
        assert not clicked.is_error and "/greet" in payload(clicked).get("url", ""), payload(clicked)
        # a page that fills its viewport is pictured whole, and says nothing of it
        await goto(client, site.url("/annotate.html"))
        _, whole = await annotated(client, max_width=None)
        assert "picture" not in whole["page"]


async def test_every_kind_of_element_is_found_named_and_ordered(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/annotate.html"))
        img, data = await annotated(client)
        assert img.size == (1280, 720)
        assert data["page"]["readyState"] == "complete" and data["page"]["viewport"] == {"width": 1280, "height": 720}
        # the map leaves out empty fields, text equal to the name or value, and the hint the role implies
        annotations = [{"name": "", "role": "", **a} for a in data["annotations"]]
        for a in annotations:
            a.setdefault("interactionHint", HINT_OF_ROLE.get(a["role"], "clickable"))
        assert [(a["name"], a["role"], a["interactionHint"]) for a in annotations] == FOUND_IN_ORDER
        assert [a["label"] for a in annotations] == list(range(1, len(FOUND_IN_ORDER) + 1))
        assert data["total_found"] == len(FOUND_IN_ORDER)
        assert not NEVER_FOUND & {a["name"] for a in annotations} and not NEVER_FOUND & {
            a.get("text") for a in annotations
        }
        by_name = {a["name"]: a for a in annotations}
        assert by_name["Save"]["selector"] == '[data-testid="save-button"]'
        assert by_name["Cancel"]["selector"] == "#cancel"
        assert by_name["Close dialog"]["selector"] == '[aria-label="Close dialog"]'
        assert by_name["Shadow button"]["selector"] == "#widget >>> button.inner"
        assert by_name["Frame button"]["selector"] == "#frame >>> #in-frame"
        assert by_name["Disabled"]["state"] == {"disabled": True}
        colour = by_name["Favourite colour"]
        assert colour.get("text", colour.get("state", {}).get("value")) == "Red" and by_name[""]["text"] == "Edit me"

        for item in annotations:
            # a box is drawn at every element: its left edge has the mark's colour
            bounds = item["bounds"]
            assert box_drawn(img, bounds), item
            selector = item["selector"]
            if " >>> " in selector:
                # crossing a shadow root or a frame: hovering it finds that element
                hovered = payload(await client.call_tool("interact", {"action": "hover", "selector": selector}))
                assert hovered["target"]["name"] == item["name"]
                continue
            # the selector matches exactly this element, with the same box
            _img, alone = await annotated(client, annotation_target="custom", annotation_selector=selector)
            assert [a["bounds"] for a in alone["annotations"]] == [item["bounds"]], selector


async def test_max_annotations_total_found_and_reading_order(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/many.html"))
        _img, data = await annotated(client, max_annotations=100)
        assert data["total_found"] == 150
        assert [a["name"] for a in data["annotations"]] == [f"B{n}" for n in range(1, 101)]
        _img, data = await annotated(client)
        assert len(data["annotations"]) == 50 and data["total_found"] == 150


@pytest.mark.parametrize(
    ("page", "fill"),
    [("/many.html", annotate.ON_LIGHT[0]), ("/dense.html", annotate.ON_LIGHT[0]), ("/dark.html", annotate.ON_DARK[0])],
)
async def test_badges_are_legible_and_never_overlap(browser, site, page, fill):
    async with mcp_client() as client:
        await goto(client, site.url(page))
        _img, data = await annotated(client, max_annotations=100)
        shot = await client.call_tool("screenshot", {"format": "png"})
        raw = base64.b64decode(shot.content[0].data)
    # the front's drawing, on the same page and annotations, rendered losslessly
    drawn, badges = annotate.draw(raw, data["annotations"], 1280)
    assert len(badges) == len(data["annotations"]) > 0
    for n, badge in enumerate(badges):
        assert badge.fill == fill  # the palette that stands out from this page
        assert not any(badge.box.overlaps(other.box, margin=0) for other in badges[n + 1 :])
        inside = drawn.crop((badge.box.x, badge.box.y, badge.box.right, badge.box.bottom))
        colours = sorted(inside.getcolors(10_000), reverse=True)
        background = colours[0][1]
        digits = max((c for _, c in colours), key=lambda c: annotate.contrast(c, background))
        assert background == badge.fill
        assert annotate.contrast(digits, background) >= 4.5


async def test_a_page_with_nothing_interactive_gives_an_empty_map(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/tall?h=800"))
        img, data = await annotated(client)
        assert img.size == (1280, 720) and data["annotations"] == [] and data["total_found"] == 0


async def test_bad_annotation_arguments_are_named(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/annotate.html"))
        result = await client.call_tool(
            "observe",
            {
                "what": "page",
                "annotate_screenshot": True,
                "annotation_format": "json",
                "annotation_target": "custom",
                "annotation_selector": "div[[",
            },
        )
        assert result.is_error and 'Invalid annotation_selector "div[["' in result.content[0].text
        result = await client.call_tool(
            "observe",
            {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "annotation_target": "custom"},
        )
        assert result.is_error and "annotation_selector is needed" in result.content[0].text


async def test_labels_fill_and_submit_a_form_and_go_stale_after(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/form.html"))
        _img, data = await annotated(client)
        label = {a["name"]: a["label"] for a in data["annotations"]}

        typed = payload(await client.call_tool("interact", {"action": "type", "label": label["Name"], "text": "Ada"}))
        assert typed["label"] == label["Name"] and typed["target"]["name"] == "Name" and not typed["navigated"]
        # with a map of the page, what changed is told in its terms (the page's "Typing: 3" line is no mark)
        assert typed["changes"] == "none" and "dom" not in typed and "url" not in typed

        chosen = payload(
            await client.call_tool("interact", {"action": "select", "label": label["Colour"], "value": "Blue"})
        )
        assert chosen["did"] == 'selected "Blue" (value "blue")'

        clicked = payload(await client.call_tool("interact", {"action": "click", "label": label["Sign up"]}))
        assert clicked["navigated"] and clicked["title"] == "Welcome"
        assert clicked["url"] == site.url("/greet?name=Ada&colour=blue")
        page = payload(await client.call_tool("observe", {"what": "page"}))
        assert [h["text"] for h in page["headings"]] == ["Hello Ada"]

        stale = await client.call_tool("interact", {"action": "click", "label": label["Name"]})
        assert stale.is_error
        message = stale.content[0].text
        assert f"Label {label['Name']} is from the annotation of {site.url('/form.html')}" in message
        assert "observe({what:'page', annotate_screenshot:true})" in message


async def test_actions_by_selector_and_point(browser, site):
    async with mcp_client() as client:
        await goto(client, site.url("/form.html"))
        typed = payload(await client.call_tool("interact", {"action": "type", "selector": "#name", "text": "Bob"}))
        assert typed["target"]["name"] == "Name"
        retyped = payload(
            await client.call_tool(
                "interact", {"action": "type", "selector": "#name", "text": "Eve", "clear": True, "submit": True}
            )
        )
        assert retyped["navigated"] and retyped["url"] == site.url("/greet?name=Eve&colour=")

        await goto(client, site.url("/form.html"))
        waited = payload(await client.call_tool("interact", {"action": "wait_for", "text": "Sign up"}))
        assert waited["found"] == {"text": "Sign up"}
        missing = await client.call_tool("interact", {"action": "wait_for", "selector": "#never", "timeout": 300})
        assert missing.is_error and "wait_for timed out after 300 ms" in missing.content[0].text
        many = await client.call_tool("interact", {"action": "click", "selector": "p"})
        assert many.is_error and "matches 4 elements" in many.content[0].text

        # a point: the middle of the submit button, as an annotation reports it
        _img, data = await annotated(client)
        (button,) = [a["bounds"] for a in data["annotations"] if a["name"] == "Sign up"]
        x, y = button["x"] + button["width"] / 2, button["y"] + button["height"] / 2
        pressed = payload(await client.call_tool("interact", {"action": "click", "x": x, "y": y}))
        assert pressed["navigated"] and pressed["title"] == "Welcome" and pressed["target"] is None
        pressed_key = await client.call_tool("interact", {"action": "press", "key": "Hyper+K"})
        assert pressed_key.is_error and "unknown modifier Hyper" in pressed_key.content[0].text

        await goto(client, site.url("/tall?h=3000"))
        scrolled = payload(await client.call_tool("interact", {"action": "scroll", "delta_y": 1000}))
        assert scrolled["did"] == "scrolled by (0, 1000)"
        shot = await client.call_tool("screenshot", {"format": "png"})
        top = Image.open(io.BytesIO(base64.b64decode(shot.content[0].data))).convert("RGB").getpixel((640, 0))
        assert abs(top[0] - 255 * (1 - 1000 / 3000)) < 20, top  # the gradient as it is 1000 px down
