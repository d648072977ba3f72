"""observe: look at the browser: the page's state, an annotated screenshot, the
tabs, the page's telemetry (errors, logs, network, vitals), pending alerts, and
the elements the user pointed the agent at (what=picked; nativehost/picks.py).

Every answer but what=alerts ends with the session's pending alerts, if
any, as an ``_alerts`` block (drained there): the passive channel every MCP
client sees.
"""

from __future__ import annotations

import base64
import json
from typing import Any, Literal

from pydantic import Field

from .. import images, redact, vision
from ..browser.client import BrowserClient
from ..limits import MAX_BODY_CHARS
from ..session.state import Session
from .base import Params, Tool, detail
from .modes import Meaning, Mode
from .response import Response, page_fields, page_text

#: the most page_text may ask for, in characters
PAGE_TEXT_MAX = 10_000

#: the parts of a request's detail (observe network with request_id)
RequestPart = Literal["request_headers", "response_headers", "request_body", "response_body"]
REQUEST_PARTS: tuple[RequestPart, ...] = ("request_headers", "response_headers", "request_body", "response_body")

#: the interactionHint each role implies; any other role implies "clickable". An annotation leaves its
#: hint out when it is the one its role implies.
HINT_OF_ROLE = {
    "link": "navigable",
    **dict.fromkeys(("textbox", "searchbox"), "editable"),
    **dict.fromkeys(("combobox", "listbox", "option"), "selectable"),
    **dict.fromkeys(("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"), "toggleable"),
}
#: the tag each role implies, besides the tag named as the role (button, option...): an annotation leaves
#: its tag out when its role implies it
TAG_OF_ROLE = {
    "link": "a",
    **dict.fromkeys(("textbox", "searchbox", "checkbox", "radio", "slider", "spinbutton"), "input"),
    **dict.fromkeys(("combobox", "listbox"), "select"),
}
#: the keys of an element's state, in the order an answer gives them (the browser may send them in any)
STATE_KEYS = ("checked", "selected", "expanded", "pressed", "disabled", "value", "options", "options_total")
#: the most of a state's text (a value, an option) an answer carries, as of a name (the page clips both to 100)
STATE_TEXT_CHARS = 1_000
#: how an agent reaches an element outside the viewport
REACH = "act on any of them by selector: actions scroll their target into view"
#: what an answer without picks tells the agent to ask of the user
PICK_HOW = (
    "no pick yet: ask the user to press Alt+Shift+K in their browser (or right-click the element and choose "
    "'Point tabsight at this'), click the element, and type a note if they like"
)
#: the grammar of the compact form's lines, as its header states it
LINE_GRAMMAR = 'label role "name" (state)'
#: roles whose lines leave checked=false out: they are checkable, so no `checked` says unchecked
CHECKABLE_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
#: what docs/tools.md says of annotation_format's forms (the schema says what compact is for)
ANNOTATION_FORMAT = (
    "json: {page, annotations:[{label, tag, role, name, name_from, text, state, selector, "
    "bounds, interactionHint}], total_found, outside_viewport?, left_out?}; left_out: what discovery did not look "
    "into (cross-origin frames, what a huge page left past its time); role generic: a clickable without a role (a "
    "pointer cursor or a click listener), named by its text; name_from when the name is not Chrome's accessible "
    "name (which is empty): label (its label's text, though hidden) or nearby text (the caption before a field). "
    "Fields are left out when empty or repeating another: text equal to name or state.value; the tag the role "
    "implies (the same word; link a; textbox, searchbox, checkbox, radio, slider, spinbutton input; combobox, "
    "listbox select); the interactionHint the role implies (link navigable; textbox, searchbox editable; combobox, "
    "listbox, option selectable; checkbox, radio, switch toggleable; others clickable). compact (the default): plain "
    "text at a third of the characters or less, every field but selector and bounds (a mark is acted on by its "
    "label, and the picture shows where it is; json has both); one line per "
    f"element: {LINE_GRAMMAR}, where role is - when there is none, name is a JSON string, the optional parenthesised "
    "part is space-separated facts, each `key` (true) or `key=` and a JSON value (name_from, checked, selected, "
    "expanded, pressed, disabled, value, options, options_total, text when it differs from name and value, hint "
    "when it is not the role's nor toggleable for one with pressed); checked=false is left out for checkbox, radio, "
    "switch and checkable menu items (the answer's second line states "
    'this grammar). Elements above and below the viewport follow as lines `role "name" selector` under a count: '
    "they have no label, their selector is how to act on them."
)


class ObserveParams(Params):
    #: what to look at: one of the rows' names (the tool makes it their Literal)
    what: str
    tab_id: int | None = Field(default=None, json_schema_extra=detail("Default: the tracked tab."))
    since: int = Field(
        default=0,
        ge=0,
        description="A cursor from an answer.",
        json_schema_extra=detail("Only what came after this cursor."),
    )
    limit: int = Field(
        default=20, ge=1, le=200, description="Newest first.", json_schema_extra=detail("At most this many.")
    )
    url: str | None = Field(default=None, min_length=1, max_length=2048, description="Only URLs containing this.")
    requests: Literal["failed", "all"] = "failed"
    request_id: int | None = Field(default=None, ge=0)
    include: list[RequestPart] = Field(default=list(REQUEST_PARTS), min_length=1)
    max_body_chars: int = Field(default=10_000, ge=0, le=MAX_BODY_CHARS)
    binary_bodies: bool = False
    annotate_screenshot: bool = False
    annotation_target: Literal["interactive", "all_visible", "custom"] = "interactive"
    annotation_selector: str | None = Field(default=None, min_length=1, max_length=1024)
    max_annotations: int = Field(default=50, ge=1, le=100)
    annotation_format: Literal["json", "compact"] = "compact"
    image: bool = True
    full_map: bool = False
    page_text: int = Field(default=0, ge=0, le=PAGE_TEXT_MAX)
    max_width: int | None = Field(default=None, ge=16, le=8000)
    max_height: int | None = Field(default=None, ge=16, le=8000)


async def _alerts(session: Session, params: ObserveParams, response: Response) -> None:
    block = session.inbox.drain() or {"_alerts": []}
    response.result = {"alerts": block["_alerts"]}
    if "_alerts_dropped" in block:
        response.result["dropped"] = block["_alerts_dropped"]


async def _tabs(session: Session, params: ObserveParams, response: Response) -> None:
    response.include_alerts()
    response.result = await session.browsers.list_tabs()


async def _telemetry(session: Session, params: ObserveParams, response: Response) -> None:
    response.include_alerts()
    client, tab_id = await session.browsers.tab(params.tab_id)
    if params.request_id is not None:
        detail = await client.network_detail(
            tab_id, params.request_id, params.include, params.max_body_chars, params.binary_bodies
        )
        response.result = {"what": "network", "tab_id": tab_id, "request": detail}
        return
    found = await client.telemetry(
        tab_id, params.what, params.since, params.limit, params.url, requests=params.requests
    )
    response.result = {"what": params.what, "tab_id": tab_id, **found}


async def _page(session: Session, params: ObserveParams, response: Response) -> None:
    response.include_alerts()
    client, tab_id = await session.browsers.tab(params.tab_id)
    if params.annotate_screenshot:
        await _annotate(session, client, tab_id, params, response)
        return
    info = await client.page_info(tab_id)
    answer_selectors(info.get("forms", []))
    response.result = {"tab_id": tab_id, **info}
    if params.page_text:
        response.result["page_text"] = outline_text(
            await client.page_outline(tab_id, params.page_text), params.page_text
        )


def warm_drawing() -> None:
    """Loads what drawing a look needs (numpy, Pillow's JPEG encoder, the badges' fonts), ahead of the first
    look; in a thread of its own (server/app.py)."""
    from .. import annotate  # here, not at the top: numpy costs every front ~11 MB, and a front that only takes
    # screenshots never annotates

    images.encode(annotate.warm(), "annotated")


async def _annotate(
    session: Session, client: BrowserClient, tab_id: int, params: ObserveParams, response: Response
) -> None:
    latest = session.labels.annotation
    since = (
        latest.id
        if latest is not None
        and not params.full_map
        and (latest.browser, latest.tab_id, latest.form) == (client.id, tab_id, params.annotation_format)
        else None
    )
    found_by = (params.annotation_target, params.annotation_selector, params.max_annotations)
    found = await client.find_elements(tab_id, *found_by, since=since)
    taken = images.ENCODINGS["annotated_capture"]
    shot = await client.capture(tab_id, taken.format, taken.quality) if params.image else None
    outline = await client.page_outline(tab_id, params.page_text) if params.page_text else None
    page = found["page"]
    answer_selectors(found["elements"])
    for side in (found.get("outside_viewport") or {}).values():
        answer_selectors(side.get("elements", []))
    annotations = [{"label": n, **element} for n, element in enumerate(found["elements"], 1)]
    session.labels.remember(
        client,
        tab_id,
        page,
        [item["selector"] for item in annotations],
        found["annotation"],
        found_by,
        params.annotation_format,
    )
    if shot is not None:
        from .. import annotate  # (loaded by now, mostly: warm_drawing)

        sized = params.max_width or params.max_height
        picture, region = annotate.draw_look(
            annotate.decode(shot.image),
            annotations,
            page["viewport"]["width"],
            lambda width, height: vision.look_size(width, height, session.vision, params.max_width, params.max_height),
            crop=not sized,
        )
        if region is not None:
            page["picture"] = {"x": region.x, "y": region.y, "width": region.width, "height": region.height}
        response.remember_screenshot(shot.image)
        session.screenshots.saw_viewport(client.id, tab_id, page["viewport"])
        response.add_image(images.encode(picture, "annotated"), images.ENCODINGS["annotated"].mime_type)
    if params.annotation_format == "compact":
        response.result = compact(found, annotations, outline, params.page_text)
        return
    response.result = {
        "page": {key: page[key] for key in ("url", "title", "viewport", "picture") if key in page}
        | {"readyState": page["ready_state"]},
        **(
            {"unchanged": unchanged_line(len(annotations))}
            if found.get("unchanged")
            else {"annotations": [lean(item) for item in annotations]}
        ),
        "total_found": found["total_found"],
    }
    if outside := outside_viewport(found.get("outside_viewport")):
        response.result["outside_viewport"] = outside
    if left_out := found.get("left_out"):
        response.result["left_out"] = left_out
    if outline is not None:
        response.result["page_text"] = outline_text(outline, params.page_text)


async def _picked(session: Session, params: ObserveParams, response: Response) -> None:
    """The user's newest picks, newest first; each one's picture is an image of the answer, in the same order
    (``image``: its place among them, from 1, and its size in pixels)."""
    response.include_alerts()
    client = await session.browsers.client()
    found = await client.picks(params.since, params.limit if "limit" in params.model_fields_set else 1)
    picks = []
    for pick in found["items"]:
        image = pick.pop("image", None)
        if image:
            response.add_image(base64.b64decode(image["data"]), image["mime_type"])
            pick["image"] = {"number": len(response.images), "width": image["width"], "height": image["height"]}
        picks.append({key: value for key, value in pick.items() if value not in ("", None, {})})
    response.result = {"what": "picked", "picks": picks, "cursor": found["cursor"]}
    if not picks:
        response.result["how"] = PICK_HOW


# -- the forms of an answer -----------------------------------------------------------------------


def answer_selectors(items: list[dict[str, Any]]) -> None:
    """Each item's ``selector`` made the one an answer carries (``redact.selector``: its structural one when
    redaction would mask something in its own), in place, before labels remember it."""
    for item in items:
        item["selector"] = redact.selector(item["selector"], item.pop("structural_selector", None))


def lean(item: dict[str, Any]) -> dict[str, Any]:
    """An annotation without what is empty or repeats another field: text equal to the name or the value, the
    tag the role implies, the interactionHint the role implies. Values in its state are page text, masked as
    such."""
    role = item.get("role") or ""
    shown = {
        "label": item["label"],
        "tag": item.get("tag"),
        "role": role,
        "name": item.get("name"),
        "name_from": item.get("name_from"),
        "text": item.get("text"),
        "state": _state(item.get("state")),
        "selector": item["selector"],
        "bounds": item["bounds"],
        "interactionHint": item.get("interactionHint"),
    }
    if shown["tag"] in (role, TAG_OF_ROLE.get(role)):
        del shown["tag"]
    if shown["text"] in (shown["name"], shown["state"].get("value")):
        del shown["text"]
    if shown["interactionHint"] == HINT_OF_ROLE.get(role, "clickable"):
        del shown["interactionHint"]
    return {key: value for key, value in shown.items() if value not in ("", None, {})}


def _state(state: dict[str, Any] | None) -> dict[str, Any]:
    """An element's state with the page's own words in it (a field's value, a select's options) masked."""
    if not state:
        return {}
    shown = {key: state[key] for key in STATE_KEYS if key in state} | state
    if isinstance(shown.get("value"), str):
        shown["value"] = page_text(shown["value"], STATE_TEXT_CHARS)
    if isinstance(shown.get("options"), list):
        shown["options"] = [
            page_text(option, STATE_TEXT_CHARS) if isinstance(option, str) else option for option in shown["options"]
        ]
    return shown


def outside_viewport(outside: dict[str, Any] | None) -> dict[str, Any] | None:
    """find's outside_viewport with its empty sides left out, and how to reach what it lists; None when
    nothing interactive is outside the viewport."""
    sides = {side: (outside or {}).get(side) for side in ("above", "below")}
    shown: dict[str, Any] = {side: found for side, found in sides.items() if found and found.get("count")}
    return shown | {"how": REACH} if shown else None


def compact(
    found: dict[str, Any], annotations: list[dict[str, Any]], outline: dict[str, Any] | None, budget: int
) -> str:
    """The annotated observe as plain text: a line for the page, a line per element (LINE_GRAMMAR), the
    elements outside the viewport, the page's text. Its pieces are masked as they are laid out, every string
    of them as in every answer (``page_fields``)."""
    page = page_fields(found["page"])
    viewport = page["viewport"]
    framed = page.get("picture")
    lines = [
        f"page {_json(page['title'])} {page['url']} "
        f"viewport {viewport['width']}x{viewport['height']} {page['ready_state']}"
        + (
            f"; picture of x {framed['x']}-{framed['x'] + framed['width']} "
            f"y {framed['y']}-{framed['y'] + framed['height']} (the rest is blank)"
            if framed
            else ""
        ),
        f"{len(annotations)} of {found['total_found']} found, a line each: {LINE_GRAMMAR}"
        if annotations
        else f"0 of {found['total_found']} found",
    ]
    if found.get("unchanged"):
        lines[1] = unchanged_line(len(annotations))
    else:
        lines += compact_lines(annotations)
    outside = outside_viewport(found.get("outside_viewport"))
    for side in ("above", "below"):
        if outside and side in outside:
            shown = outside[side].get("elements", [])
            lines.append(
                f"{side} the viewport: {outside[side]['count']} more ({len(shown)} listed, nearest first; {REACH}):"
            )
            lines += [f"  {_compact_element(element, [])}" for element in page_fields(shown)]
    lines += [f"left out: {note}" for note in found.get("left_out", [])]
    if outline is not None:
        lines += ["page text:", outline_text(outline, budget)]
    return "\n".join(lines)


def compact_lines(annotations: list[dict[str, Any]]) -> list[str]:
    """A line per annotation (LINE_GRAMMAR), masked as every page field is."""
    return [
        f"{item['label']} {_compact_element(item, _facts(item), selector=False)}" for item in page_fields(annotations)
    ]


def unchanged_line(count: int) -> str:
    """What a look says instead of the map it would repeat."""
    labels = f"labels 1-{count}" if count > 1 else "label 1" if count else "no labels"
    return (
        f"unchanged since your last look and the changes answers told you since: the same marks ({labels}), "
        "names, states and bounds; full_map: true lists them again"
    )


def _compact_element(item: dict[str, Any], facts: list[str], selector: bool = True) -> str:
    """``role "name" (facts) selector``: role - when there is none, the name as a JSON string; without the
    selector for a mark (its label acts on it: selectors were half of a map's text, or more)."""
    name = _json(item.get("name") or "")
    shown = f" ({' '.join(facts)})" if facts else ""
    return f"{item.get('role') or '-'} {name}{shown}" + (f" {item['selector']}" if selector else "")


def _facts(item: dict[str, Any]) -> list[str]:
    """What a line says beyond role and name: `key` (true) or `key=` and a JSON value."""
    facts = [f"name_from={_json(item['name_from'])}"] if item.get("name_from") else []
    state = _state(item.get("state"))
    checkable = (item.get("role") or "") in CHECKABLE_ROLES
    for key, value in state.items():
        if not (key == "checked" and value is False and checkable):
            facts.append(key if value is True else f"{key}={_json(value)}")
    text = item.get("text")
    if text and text != item.get("name") and text != state.get("value"):
        facts.append(f"text={_json(text)}")
    hint = item.get("interactionHint")
    implied = "toggleable" if "pressed" in state else HINT_OF_ROLE.get(item.get("role") or "", "clickable")
    if hint and hint != implied:
        facts.append(f"hint={_json(hint)}")
    return facts


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def outline_text(outline: dict[str, Any], budget: int) -> str:
    """page.outline's text, masked as page text, and a last line saying what it left out."""
    text = page_text(outline.get("text", ""), budget)
    left_out = []
    at_least = "at least " if outline.get("partial") else ""
    if outline.get("cut"):
        left_out.append(f"{outline['cut']} more characters in the viewport, past page_text={budget}")
    if outline.get("above"):
        left_out.append(f"{at_least}{outline['above']} characters above the viewport")
    if outline.get("below"):
        left_out.append(f"{at_least}{outline['below']} characters below the viewport (scroll down to read them)")
    note = f"[not shown: {'; '.join(left_out)}]" if left_out else ""
    if not text:
        return note or "[no text in the viewport]"
    return f"{text}\n{note}" if note else text


def _one_custom_selector(params: ObserveParams) -> None:
    if (params.annotation_target == "custom") != (params.annotation_selector is not None):
        raise ValueError("annotation_selector is needed with annotation_target 'custom', and only then")


#: the fields every telemetry look takes (their own descriptions say what they mean)
_TELEMETRY_FIELDS: dict[str, str | Meaning] = dict.fromkeys(("tab_id", "since", "limit", "url"), "")
#: the fields that shape an annotated screenshot, which only count with annotate_screenshot
_ANNOTATION_SHAPES = (
    "image",
    "full_map",
    "annotation_target",
    "annotation_selector",
    "max_annotations",
    "annotation_format",
    "max_width",
    "max_height",
)
#: the fields that shape one request's detail
_DETAIL_SHAPES = ("include", "max_body_chars", "binary_bodies")

TOOL = Tool(
    name="observe",
    discriminator="what",
    description="Look at the browser. Take the annotated look first and after a navigation; actions' answers "
    "then carry what changed, and image=false looks again without the picture.",
    detail="Pending alerts also ride on every answer as _alerts. The look's forms: the default (a picture of "
    "at most about 900 tokens, of the part of the viewport with content, never larger than the client keeps, and "
    "a line per mark); image=false (the lines alone, when you need the labels, not a sight of the page); "
    "annotation_format=json (every field, selectors and bounds included, about three times the text: to write a "
    "test or a script); max_width to choose the picture's size (of the whole viewport); page_text=1500 to read what the page says "
    "(results, messages, field values) instead of reading it off the image or using all_visible. A look at a page "
    "unchanged since says so in a line; full_map=true lists the map again.",
    params=ObserveParams,
    modes=(
        Mode(
            "page",
            "the tracked tab's url, title, headings, forms; annotate_screenshot: labels to act on.",
            _page,
            detail="Also its viewport, device pixel ratio, readyState and interactive-element count (with page_text, "
            "its text too).",
            goes_with=dict.fromkeys(_ANNOTATION_SHAPES, "annotate_screenshot"),
            rule=_one_custom_selector,
            fields={
                "tab_id": "",
                "annotate_screenshot": Meaning(
                    "numbered labels, each with role, name, state, selector.",
                    "A screenshot of the viewport; interact({label:N}) acts on N. The map also gives text and "
                    "interactionHint, and in the json form bounds.",
                ),
                "annotation_target": Meaning(
                    "",
                    "interactive: controls, links and ARIA widgets; all_visible: visible elements with text or a "
                    "role; custom: the elements annotation_selector matches.",
                ),
                "annotation_selector": Meaning("for custom.", "A CSS selector, with annotation_target=custom."),
                "max_annotations": Meaning("", "At most this many, in reading order."),
                "annotation_format": Meaning("compact: a line each; json: with selectors, bounds.", ANNOTATION_FORMAT),
                "page_text": Meaning(
                    "also the viewport's text, up to this many characters.",
                    "An outline: headings as '# text', fields as 'name: value' (never a password's value), "
                    "'[x] name' for a checked box, buttons as [text], list items, table rows as 'cell | cell', "
                    "other text a line per block, in reading order; then how much was left out and how much is "
                    "above and below the viewport. Use it to read results and messages without an image, or "
                    "without all_visible: 1000-2000 is usually enough.",
                ),
                "max_width": Meaning(
                    "",
                    "Downscale the picture, aspect kept, as screenshot's max_width does (an image costs "
                    "width*height/750 tokens: 640 for a 1280x720 viewport is a quarter). Badges shrink less than the "
                    "picture (to 85 % of their size at most); bounds stay in CSS px of the viewport.",
                ),
                "max_height": Meaning("", "Downscale the picture to at most this height, aspect kept."),
                "image": Meaning(
                    "false: no picture.",
                    "The map (and page_text) without the picture: for a look when you need no sight of the page "
                    "(after an action whose changes you need in full, to read text). The default look keeps it.",
                ),
                "full_map": Meaning(
                    "",
                    "A look at a page unchanged since your last look (and the changes answers told you since) says "
                    "so in a line instead of repeating the map; full_map: true lists it again (after your context "
                    "was compacted, say).",
                ),
            },
        ),
        Mode("tabs", "the tabs, and which is tracked.", _tabs, detail="Of every connected browser."),
        Mode(
            "errors",
            "console errors, uncaught exceptions.",
            _telemetry,
            detail="Unhandled rejections too.",
            fields=_TELEMETRY_FIELDS,
        ),
        Mode("logs", "console errors and warnings.", _telemetry, fields=_TELEMETRY_FIELDS),
        Mode(
            "network",
            "failed requests (requests=all: all; request_id: one's headers, bodies).",
            _telemetry,
            detail="Failed: failed and 4xx/5xx requests.",
            goes_with=dict.fromkeys(_DETAIL_SHAPES, "request_id"),
            fields={
                **_TELEMETRY_FIELDS,
                "requests": Meaning(
                    "",
                    "failed (failed and 4xx/5xx requests) or all (every request the tab made). Each entry: id, "
                    "method, url, status or error, resource_type, duration_ms, size (Content-Length, when sent), "
                    "time; no headers or bodies (ask for one request's with request_id).",
                ),
                "request_id": Meaning(
                    "",
                    "An entry's id: instead of the list, that request's url, method, state, status, and the parts in "
                    "include. Headers are redacted (Authorization, Cookie, Set-Cookie, API keys; secret URL "
                    "parameters), and so are text bodies (secret-looking values). A response body is there for "
                    "documents, fetch and XHR that finished while tabsight acted on the tab (navigate, interact, "
                    "execute, and a few seconds after); otherwise the answer says why not.",
                ),
                "include": Meaning("", "With request_id: which parts of the request."),
                "max_body_chars": Meaning(
                    "",
                    "With request_id: a body's text (or base64) is cut at this many characters, marked with its full "
                    "length.",
                ),
                "binary_bodies": Meaning(
                    "",
                    "With request_id: also give binary bodies (images, protobuf...), as base64 cut at max_body_chars; "
                    "by default only their type and size.",
                ),
            },
        ),
        Mode(
            "vitals",
            "Web Vitals.",
            _telemetry,
            detail="LCP, CLS, INP, FCP, TTFB per page load.",
            fields=_TELEMETRY_FIELDS,
        ),
        Mode("alerts", "the pending alerts.", _alerts, detail="Drained: each is given once."),
        Mode(
            "picked",
            "what the user pointed you at.",
            _picked,
            detail='In their browser ("Look at this"): shortcut Alt+Shift+K or the context menu, then a click, and '
            "an optional note. Each pick: selector, tag, role, name, bounds, computed styles, note, url, time, "
            "and a picture of it; a new pick also arrives as an alert.",
            fields={"since": "", "limit": Meaning("default 1.", "5 are kept.")},
        ),
    ),
)
