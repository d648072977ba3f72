"""interact: act on the tracked tab as a user would, and say what changed.

Targets: ``label`` (a number from this session's latest annotated
screenshot), ``selector`` (CSS; ``host >>> inner`` crosses an open shadow
root or a same-origin iframe, as annotation selectors do), or ``x``/``y``
(CSS pixels of the viewport). Pointer and keys are real input events
(trusted, at real coordinates), dispatched through the debugger. ``drag`` goes from
its target to a destination given the same three ways: ``to_label``, ``to_selector`` or ``to_x``/``to_y``.
``upload`` sets files on its target, a file input, or on the file chooser a click on its target opens; only files
that ``tabsight.uploads`` allows are sent, and only their paths: the browser reads them, tabsight never does.
"""

from __future__ import annotations

import base64
import logging
import time
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from ..errors import BrowserError, Code, ToolError
from .. import config, uploads
from ..limits import MAX_CDP_STEPS, MAX_UPLOAD_FILES
from ..paths import make_folders, write_private
from ..progress import phase
from ..browser.client import End
from ..session.state import Label, Session
from .base import Params, Tool
from .observe import lean
from .response import Response

log = logging.getLogger("tabsight.interact")

Action = Literal[
    "navigate", "back", "forward", "reload", "open_tab", "close_tab",
    "click", "drag", "upload", "type", "select", "fill", "hover", "press", "scroll", "wait_for", "execute", "dialog",
]

#: what each action needs besides its target
NEEDS = {"navigate": ("url",), "type": ("text",), "select": ("value",), "press": ("key",), "fill": ("fields",),
         "upload": ("files",)}
#: actions that must have a target, and those that may have one
TARGETED = {"click", "drag", "upload", "hover", "select"}
MAY_TARGET = {"type", "press", "scroll"}
#: actions that load a page, and wait for it as navigate does
LOADS = ("navigate", "back", "forward", "reload", "open_tab")
#: actions on the browser's history and tabs: no element to target
UNTARGETED = {*LOADS, "close_tab", "fill", "wait_for", "execute", "dialog"}
DEFAULT_TIMEOUT = {**dict.fromkeys(LOADS, 30_000), "wait_for": 5_000}
#: fields one fill may set
MAX_FILL_FIELDS = 50
#: a path given to upload
FilePath = Annotated[str, Field(min_length=1, max_length=4096)]
#: keys a click may hold; ControlOrMeta is Meta on macOS and Control elsewhere (select-many, open in a new tab)
Modifier = Literal["Alt", "Control", "Meta", "Shift", "ControlOrMeta"]




class CdpStep(Params):
    method: str = Field(pattern=r"^[A-Z][A-Za-z]*\.[a-zA-Z]+$", description="Domain.method, e.g. Page.captureScreenshot.")
    params: dict[str, Any] = Field(default={}, description="The method's parameters.")

    @model_validator(mode="after")
    def _no_local_files(self) -> CdpStep:
        # the CDP ways to hand the page local files, past upload's allowed folders (tabsight.uploads):
        # DOM.setFileInputFiles, and a drop of files (Input.dispatchDragEvent's DragData.files)
        data = self.params.get("data")
        dropped = self.method == "Input.dispatchDragEvent" and isinstance(data, dict) and data.get("files")
        if self.method == "DOM.setFileInputFiles" or dropped:
            raise ValueError(f"{self.method} with files is refused in execute: it would hand the page local files "
                             "from anywhere; use action 'upload' (files from the allowed folders only)")
        return self


class FillField(Params):
    label: int | None = Field(default=None, ge=1, description="The field: a number from the latest annotation.")
    selector: str | None = Field(
        default=None, min_length=1, max_length=2048, description="The field: a CSS selector matching one element."
    )
    value: str | bool = Field(
        description="Text or a value-taking input's value (date, color...), an option's value or text (select, "
        "listbox, combobox), or true/false (checkbox, switch; true for a radio button)."
    )

    @model_validator(mode="after")
    def _one_target(self) -> FillField:
        if (self.label is None) == (self.selector is None):
            raise ValueError("each field needs one of 'label' or 'selector'")
        if isinstance(self.value, str) and len(self.value) > 100_000:
            raise ValueError("a field's value is at most 100000 characters")
        return self

    @property
    def named(self) -> str:
        return f"label {self.label}" if self.label is not None else self.selector or ""


class InteractParams(Params):
    action: Action = Field(
        description="navigate: load url and wait for it. back / forward / reload: the tab's history, waited for "
        "as navigate is. open_tab: a new tab in the background (url optional; the user's focus stays), tracked from "
        "then on. close_tab: tab_id, or the tracked tab if this session opened it; the answer says which tab is "
        "tracked then. click / hover: the target (click: any button, double or "
        "triple, with modifier keys held). drag: press on the target, move in steps to the destination "
        "(to_label, to_selector, or to_x and to_y), release there; HTML5 drag and drop (draggable elements, drop "
        "zones) gets its drag events, the answer says whether it did. upload: files (paths) set on the target if "
        "it is an <input type=file> (hidden ones too) or its <label>; any other target is clicked and the files go "
        "to the file chooser that click opens (a button or drop zone that opens a hidden input); the answer names the "
        "files set and what the input holds then. type: text into the target "
        "(or the focused element): keys into text fields, contenteditable and code editors (Ace, CodeMirror, "
        "Monaco); the whole value of date, time, month, week, datetime-local, color, range and number inputs, in "
        "their format (2024-05-01, 13:45, 2024-05, 2024-W18, 2024-05-01T13:45, #ff0000, a number); the answer's "
        "value is what the field holds then, and an edit that changed nothing is an error. clear first, submit "
        "presses Enter. select: an option of a <select>, an ARIA listbox or combobox (opened by a click), by "
        "value or visible text; checked afterwards, the answer gives its value and text. fill: several fields in one call (fields: [{label or "
        "selector, value}]: text, dates, options, true/false for checkboxes), each set as type/select/click would "
        "and read back. press: a key or combo (Enter, Escape, Control+A). scroll: the target into view, or by "
        "delta_x/delta_y. wait_for: until selector is visible or text is on the page. "
        "execute: run a page script (awaited, its JSON result returned) and/or CDP steps in order; "
        "Page.captureScreenshot results come back as images. dialog: answer the tab's open alert/confirm/prompt "
        "(accept, prompt_text)."
    )
    label: int | None = Field(
        default=None, ge=1, description="Target: a number from the latest annotated screenshot. What your action "
        "made of its element (count: 1, Pause, checked) the label follows (the answer's label_now); a change the "
        "page makes by itself makes it stale.")
    selector: str | None = Field(
        default=None, min_length=1, max_length=2048, description="Target: a CSS selector matching one element."
    )
    x: float | None = Field(default=None, ge=0, description="Target: a point, CSS px from the viewport's left.")
    y: float | None = Field(default=None, ge=0, description="Target: a point, CSS px from the viewport's top.")
    to_label: int | None = Field(
        default=None, ge=1, description="drag's destination: a number from the latest annotated screenshot."
    )
    to_selector: str | None = Field(
        default=None, min_length=1, max_length=2048, description="drag's destination: a CSS selector matching one element."
    )
    to_x: float | None = Field(default=None, ge=0, description="drag's destination: CSS px from the viewport's left.")
    to_y: float | None = Field(default=None, ge=0, description="drag's destination: CSS px from the viewport's top.")
    url: str | None = Field(
        default=None, min_length=1, max_length=8192, description="navigate: where to. open_tab: what to load."
    )
    text: str | None = Field(
        default=None, max_length=100_000,
        description="type: what to type (a value-taking input's whole value). wait_for: text to wait for.",
    )
    clear: bool = Field(default=False, description="type: clear the field or editor first.")
    submit: bool = Field(default=False, description="type: press Enter after typing.")
    value: str | None = Field(
        default=None, max_length=1000, description="select: the option's value or its text (an ARIA option's name)."
    )
    key: str | None = Field(default=None, min_length=1, max_length=100, description="press: e.g. Enter, Control+A.")
    button: Literal["left", "right", "middle"] = Field(
        default="left", description="click: the mouse button (right opens a context menu, middle a link's new tab)."
    )
    click_count: int = Field(default=1, ge=1, le=3, description="click: 2 double-clicks, 3 triple-clicks.")
    modifiers: list[Modifier] = Field(
        default=[], max_length=4,
        description="click: keys held down during it, e.g. [\"Shift\"] or [\"ControlOrMeta\"].",
    )
    delta_x: int = Field(default=0, ge=-100_000, le=100_000, description="scroll: px to the right (negative: left).")
    delta_y: int = Field(default=0, ge=-100_000, le=100_000, description="scroll: px down (negative: up).")
    timeout: int | None = Field(
        default=None, ge=0, le=120_000,
        description="ms: navigate, back, forward, reload and open_tab 1000-120000 (default 30000); wait_for "
        "(default 5000). Many clients give up on a "
        "call at 60 s: for longer, wait in steps.",
    )
    script: str | None = Field(
        default=None, min_length=1, max_length=100_000,
        description="execute: JavaScript run in the page: an expression, or statements with return; awaited.",
    )
    cdp: list[CdpStep] | None = Field(
        default=None, max_length=MAX_CDP_STEPS, description="execute: CDP calls, run in order."
    )
    timeout_ms: int = Field(
        default=30_000, ge=100, le=120_000,
        description="execute: bound of each step, in ms (many clients give up on a call at 60 s).",
    )
    accept: bool = Field(default=True, description="dialog: OK (true) or Cancel (false).")
    prompt_text: str | None = Field(
        default=None, max_length=10_000, description="dialog: the text to answer a prompt with (default: its own)."
    )
    fields: list[FillField] | None = Field(
        default=None, min_length=1, max_length=MAX_FILL_FIELDS,
        description="fill: the form's fields, each {label or selector, value}, set in order.",
    )
    files: list[FilePath] | None = Field(
        default=None, min_length=1, max_length=MAX_UPLOAD_FILES,
        description="upload: the files' paths (absolute, or from the MCP client's working directory). Only regular "
        f"files under the working directory, tabsight's upload folder {uploads.upload_folder_path()} (put files "
        "made for an upload there) or a folder in TABSIGHT_UPLOAD_ROOTS are allowed; the temp folder is not.",
    )
    tab_id: int | None = Field(default=None, description="Act on this tab instead of the tracked one.")

    @field_validator("url")
    @classmethod
    def _absolute(cls, url: str | None) -> str | None:
        if url is None:
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "file", "data", "about") or (
            parts.scheme in ("http", "https") and not parts.netloc
        ):
            raise ValueError(f"'url' is {url[:200]!r}; allowed: an absolute http, https, file, data or about URL")
        return url

    @model_validator(mode="after")
    def _consistent(self) -> InteractParams:
        targets = self._given("")
        if len(targets) > 1:
            raise ValueError(f"give one target, not {' and '.join(targets)}")
        destinations = self._given("to_")
        if self.action != "drag" and destinations:
            raise ValueError(f"'{destinations[0].split('/')[0]}' is for action 'drag' only, not '{self.action}'")
        if self.action == "drag" and len(destinations) != 1:
            given = f", not {' and '.join(destinations)}" if destinations else ""
            raise ValueError(f"action 'drag' needs one destination: to_label, to_selector, or to_x and to_y{given}")
        for name in NEEDS.get(self.action, ()):
            if getattr(self, name) is None:
                raise ValueError(f"action '{self.action}' needs '{name}'")
        if self.action in TARGETED and not targets:
            raise ValueError(f"action '{self.action}' needs a target: label, selector, or x and y")
        if self.action == "select" and self.x is not None:
            raise ValueError("action 'select' needs a label or selector, not a point")
        if self.action == "wait_for" and (self.selector is None) == (self.text is None):
            raise ValueError("action 'wait_for' needs one of 'selector' or 'text'")
        if self.action == "execute" and self.script is None and not self.cdp:
            raise ValueError("action 'execute' needs 'script', 'cdp', or both")
        if self.action != "click":
            clicking = [name for name, default in (("button", "left"), ("click_count", 1), ("modifiers", []))
                        if getattr(self, name) != default]
            if clicking:
                raise ValueError(f"'{clicking[0]}' is for action 'click' only, not '{self.action}'")
        if self.action == "dialog" and targets:
            raise ValueError("action 'dialog' takes no target: it answers the tab's open dialog")
        if self.action in UNTARGETED - {"wait_for", "execute"} and targets:
            raise ValueError(f"action '{self.action}' takes no target ({targets[0]}): it acts on the tab")
        if self.action in ("wait_for", "execute") and (self.label is not None or self.x is not None):
            raise ValueError(f"action '{self.action}' takes no label or x/y")
        if self.action in LOADS and self.timeout is not None and self.timeout < 1000:
            raise ValueError(f"'timeout' is {self.timeout}; allowed range for {self.action}: 1000 to 120000")
        if self.fields is not None and self.action != "fill":
            raise ValueError(f"'fields' is for action 'fill' only, not '{self.action}'")
        if self.files is not None and self.action != "upload":
            raise ValueError(f"'files' is for action 'upload' only, not '{self.action}'")
        if self.action == "open_tab" and self.tab_id is not None:
            raise ValueError("action 'open_tab' takes no tab_id: the new tab opens beside the tracked one")
        return self

    def _given(self, prefix: str) -> list[str]:
        """The target's fields given (prefix ""), or the drag destination's ("to_"): label, selector, x/y."""
        x, y = getattr(self, f"{prefix}x"), getattr(self, f"{prefix}y")
        if (x is None) != (y is None):
            raise ValueError(f"'{prefix}x' and '{prefix}y' go together: give both, in CSS px of the viewport")
        named = [prefix + name for name in ("label", "selector") if getattr(self, prefix + name) is not None]
        return named + ([f"{prefix}x/{prefix}y"] if x is not None else [])


async def interact(session: Session, params: InteractParams, response: Response) -> None:
    if params.action == "execute":
        return await _execute(session, params, response)
    if params.action == "dialog":
        client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
        answer = await client.answer_dialog(tab_id, params.accept, params.prompt_text)
        response.result = {"action": "dialog", "tab_id": tab_id, **answer}
        return
    timeout = params.timeout if params.timeout is not None else DEFAULT_TIMEOUT.get(params.action, 0)
    if params.action == "fill":
        return await _fill(session, params, response)
    if params.action == "upload":
        return await _upload(session, params, response)
    if params.action in ("open_tab", "close_tab"):
        return await _tabs(session, params, timeout, response)
    if params.action in ("back", "forward", "reload"):
        client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
        with phase(f"waiting for the tab to {'reload' if params.action == 'reload' else 'go ' + params.action}",
                   bound=timeout / 1000):
            result = await client.history(tab_id, params.action, timeout)
        response.result = {"action": params.action, "tab_id": tab_id, **result}
        return
    if params.action in ("navigate", "wait_for"):
        client, tab_id = await session.browsers.tab(params.tab_id)
        if params.action == "navigate":
            with phase(f"waiting for {params.url} to load", bound=timeout / 1000):
                result = await client.navigate(tab_id, params.url, timeout)
        else:
            awaited = f"{params.selector} to be visible" if params.selector else f"the text {params.text!r}"
            with phase(f"waiting for {awaited}", bound=timeout / 1000):
                result = await client.wait_for(tab_id, params.selector, params.text, timeout)
        response.result = {"action": params.action, "tab_id": tab_id, **result}
        return

    result = await _on_element(
        session, params.action, Named(params.label, params.selector, _point(params.x, params.y)), params.tab_id,
        to=Named(params.to_label, params.to_selector, _point(params.to_x, params.to_y))
        if params.action == "drag" else None,
        text=params.text, value=params.value, key=params.key, clear=params.clear, submit=params.submit,
        delta_x=params.delta_x, delta_y=params.delta_y,
        button=params.button, click_count=params.click_count, modifiers=params.modifiers,
    )
    response.result = {"action": params.action, **result}


class Named(NamedTuple):
    """An end of an action (its target, or a drag's destination) as the agent named it."""

    label: int | None
    selector: str | None
    point: tuple[float, float] | None = None


def _point(x: float | None, y: float | None) -> tuple[float, float] | None:
    return (x, y) if x is not None and y is not None else None


async def _on_element(
    session: Session, action: str, target: Named, tab_id: int | None, to: Named | None = None, **details: Any,
) -> dict[str, Any]:
    """One input action on a label's element, a selector's, or a point (a drag: from there ``to`` another): the
    extension's answer, with the labels."""
    label = session.labels.get(target.label) if target.label is not None else None
    to_label = session.labels.get(to.label) if to is not None and to.label is not None else None
    named = label or to_label  # both are of the latest annotation
    if named is not None:
        if tab_id is not None and tab_id != named.annotation.tab_id:
            raise ToolError(f"label {named.number} is on tab {named.annotation.tab_id}, not tab {tab_id}")
        client, tab_id = await session.browsers.tab(named.annotation.tab_id)
        if client.id != named.annotation.browser:
            raise ToolError(_stale(named, "the session now works with another browser"))
    else:
        client, tab_id = await session.browsers.tab(tab_id, acting=True)
    source, marked = _end(session, client.id, tab_id, label, target)
    destination, to_marked = _end(session, client.id, tab_id, to_label, to) if to is not None else (None, None)
    marked = marked or to_marked
    pointed = target.point is not None or (to is not None and to.point is not None)
    try:
        result = await client.act(
            tab_id, action, source, to=destination,
            document=marked.annotation.document if marked else None,
            viewport=session.screenshots.viewport_of(client.id, tab_id) if pointed else None,
            **details,
        )
    except BrowserError as exc:
        if exc.code == Code.STALE_LABEL and marked:
            by_selector = marked is not label and marked is not to_label
            raise ToolError(_stale(marked, f"the page has changed since: {exc.message}", by_selector)) from None
        # (with a selector given too, the selector may be what matched nothing)
        plain = target.selector is not None or (to is not None and to.selector is not None)
        if exc.code in (Code.ELEMENT_NOT_FOUND, Code.AMBIGUOUS_SELECTOR) and named and not plain:
            raise ToolError(_stale(named, f"its element is gone ({exc.message})")) from None
        raise
    now = _label_now(session, client.id, tab_id, result.pop("followed", None))
    return {**({"label": label.number} if label else {}), **({"to_label": to_label.number} if to_label else {}),
            **result, **({"label_now": now} if now else {})}


def _label_now(session: Session, browser: str, tab_id: int, followed: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a label of this session's latest annotation stands for now that the action changed its element (a
    new name, a new state): the annotation entry, less its selector (which still names it) and bounds. The page
    has made that label follow its element (extension/inpage-labels.js); None when no such label changed."""
    annotation = session.labels.annotation
    if not followed or annotation is None or (annotation.browser, annotation.tab_id) != (browser, tab_id):
        return None
    numbers = [mark.get("label") for mark in followed.get("labels") or [] if mark.get("annotation") == annotation.id]
    if not numbers or not isinstance(numbers[0], int):
        return None
    described = {key: value for key, value in followed.items() if key != "labels"}
    return lean({**described, "label": numbers[0], "selector": "", "bounds": None})


def _end(session: Session, browser: str, tab_id: int, label: Label | None, named: Named) -> tuple[End, Label | None]:
    """What the extension is told of an end, and the label it stands for. A selector copied from the latest
    annotation names the element that annotation marked, as its label does, while the tab shows that document
    (in a new one it is a plain selector again)."""
    marked = label or (session.labels.by_selector(named.selector, browser, tab_id) if named.selector else None)
    if marked is None:
        return End(selector=named.selector, point=named.point), None
    return End(marked.selector, (marked.annotation.id, marked.number), annotated_selector=label is None), marked


async def _fill(session: Session, params: InteractParams, response: Response) -> None:
    """Each field set in turn (``set``: typed, selected or checked as it takes it, and read back); the answer
    gives each field's value now. A field that fails ends the call: the error names it, and what was set."""
    done: list[dict[str, Any]] = []
    for number, field in enumerate(params.fields or [], 1):
        try:
            result = await _on_element(session, "set", Named(field.label, field.selector), params.tab_id,
                                       value=field.value)
        except (ToolError, BrowserError) as exc:
            filled = f" Set before it: {', '.join(item['field'] for item in done)}." if done else " Nothing was set."
            where = f"fields[{number - 1}] ({field.named}): "
            if isinstance(exc, BrowserError):  # the browser's words, which may quote the page: still its error
                raise BrowserError(exc.code, f"{where}{exc.message}{filled}") from None
            raise ToolError(f"{where}{exc}{filled}") from None
        done.append({"field": field.named, "value": result.get("value"),
                     **({"text": result["text"]} if "text" in result else {}), "did": result["did"],
                     **({"label_now": result["label_now"]} if "label_now" in result else {})})
    response.result = {"action": "fill", "fields": done}


async def _upload(session: Session, params: InteractParams, response: Response) -> None:
    """The files checked here (``tabsight.uploads``: refused before anything reaches the browser), then set by the
    extension on the target's file input or on the chooser a click on the target opens. The answer: each file set
    (name, size when checked, path) and what the page's input holds then (``input_files``, read back in the page)."""
    files = uploads.checked(params.files or [])
    target = Named(params.label, params.selector, _point(params.x, params.y))
    result = await _on_element(session, "upload", target, params.tab_id, files=[file.path for file in files])
    response.result = {"action": "upload", **result,
                       "files": [{"name": file.name, "size": file.size, "path": file.path} for file in files]}


async def _tabs(session: Session, params: InteractParams, timeout: int, response: Response) -> None:
    """open_tab and close_tab; the answer says which tab the session tracks afterwards."""
    if params.action == "open_tab":
        with phase(f"waiting for {params.url} to load in a new tab" if params.url else "opening a tab",
                   bound=timeout / 1000):
            result = await session.browsers.open_tab(params.url, timeout)
    else:
        result = await session.browsers.close_tab(params.tab_id)
    client, tracked = await session.browsers.tab()
    now = result if result.get("tab_id") == tracked else next(
        (tab for tab in (await client.tabs())["tabs"] if tab["id"] == tracked), {})
    response.result = {"action": params.action, **result,
                       "tracked": {"tab_id": tracked, "url": now.get("url"), "title": now.get("title")}}


async def _execute(session: Session, params: InteractParams, response: Response) -> None:
    """Runs the script and steps; every Page.captureScreenshot result becomes an attached image, its data in
    the text replaced by a reference, and (with TABSIGHT_SCREENSHOT_DIR) a file."""
    client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
    started = int(time.time() * 1000)
    steps = [step.model_dump() for step in params.cdp or []]
    running = (["the script"] if params.script else []) + ([f"{len(steps)} CDP step(s)"] if steps else [])
    with phase("running " + " and ".join(running)):
        result = await client.execute(tab_id, params.script, steps, params.timeout_ms, max_chars=session.answer_chars)
    for step, outcome in zip(steps, result.get("cdp", [])):
        data = (outcome.get("result") or {}).get("data")
        if step["method"] != "Page.captureScreenshot" or not isinstance(data, str):
            continue
        fmt = step["params"].get("format", "png")
        raw = base64.b64decode(data)
        number = response.attach_image(raw, f"image/{fmt}")
        outcome["result"]["data"] = f"<image {number}, attached below>"
        response.remember_screenshot(raw)
        _dump(raw, f"{session.id}-{started}-{number}.{'jpg' if fmt == 'jpeg' else fmt}")
    response.result = {"action": "execute", "tab_id": tab_id, **result}


def _dump(data: bytes, name: str) -> None:
    """Best effort: a screenshot for whoever set TABSIGHT_SCREENSHOT_DIR (an eval harness, say). A picture of a
    logged-in page, which redaction cannot mask: the file is 0600, in folders made 0700."""
    folder = config.current()[config.TABSIGHT_SCREENSHOT_DIR]
    if not folder:
        return
    try:
        write_private(make_folders(Path(folder)) / name, data)
    except OSError as exc:
        log.warning("could not write %s to TABSIGHT_SCREENSHOT_DIR: %s", name, exc)


def _stale(label: Label, why: str, by_selector: bool = False) -> str:
    named = f"Selector {label.selector} (label {label.number})" if by_selector else f"Label {label.number}"
    return (
        f"{named} is from the annotation of {label.annotation.url}, and {why}. "
        "Call observe({what:'page', annotate_screenshot:true}) for fresh labels."
    )


TOOL = Tool(
    name="interact",
    description="Act on the tracked tab: navigate, back, forward, reload, open_tab, close_tab, click, drag, upload, "
    "type, select, fill, hover, press, scroll, wait_for, execute, dialog. Target an element by label (from observe's "
    "annotated screenshot), selector, or x/y. Reports what it did and what changed (URL, title, DOM, dialogs answered). "
    "execute runs a script and/or CDP steps; screenshots they take come back as images. dialog answers an open "
    "alert/confirm/prompt.",
    params=InteractParams,
    handler=interact,
)
