"""Ground truth for annotated screenshots: the interactive nodes of Chromium's accessibility tree
that a user can see and reach in the viewport.

A second headless Chromium, without the extension, is driven over the DevTools protocol through
``--remote-debugging-pipe`` (CDP on fds 3 and 4, NUL-terminated JSON): no TCP port is ever opened.
Its profile is a temporary folder removed on close. Each page gets a fresh tab whose viewport
(Emulation.setDeviceMetricsOverride) is the one tabsight reported for the page, so both browsers
lay it out alike. After the load event (and the global a page names in ``data-ready-when`` on its
``<html>``, if it names one), :data:`QUIET_SCRIPT` waits until no node has been added, removed or
changed its text for half a second (apps render after load; attribute changes are
left out, a blinking cursor makes them forever); then ``Accessibility.getFullAXTree`` is read
for every frame of the page (a cross-origin frame in a process of its own is out of reach, as
it is for tabsight).

A node is kept when all of these hold:

- it is interactive: its role is in :data:`INTERACTIVE_ROLES` (ARIA widget roles a user
  operates, plus Chromium's own names for native widgets: ``DisclosureTriangle`` for
  ``<summary>``, ``ColorWell``, the date and time inputs), or it is the root of an editable
  region (``contenteditable``: Chromium gives it the ``editable`` property but no role of its
  own). Containers (toolbar, tablist, menu, grid, tree, rows and cells) are not targets; a
  ``tabindex`` or a click listener alone does not make a node interactive (Chromium exposes
  neither as a role);
- it is not ignored (``aria-hidden``, ``display:none``, ``inert`` and the like make Chromium
  ignore it);
- it has a layout box (``DOM.getContentQuads`` of its DOM node; the union of the quads, in CSS
  px of the top viewport), or a ``<label>`` with one, that overlaps the viewport;
- it is hit-testable: ``DOM.getNodeForLocation`` at one of five points (the centre, then the
  centres of the four quarters) of the visible part of its box or of one of its labels' boxes
  answers the node itself, a descendant of it (shadow roots, frames and pseudo-elements
  crossed), or one of its ``<label>`` elements. This is what a click there reaches: it drops
  controls covered by an overlay or clipped away by a scrolling container, and keeps a visually
  hidden native input (Shoelace's, Bootstrap's ``.btn-check``, Excalidraw's tools) whose label
  takes the clicks for it. Pointer events are respected, as a real click does; opacity is not
  (a transparent file input laid over a styled button is what takes the click). Parts inside a
  native control's own shadow DOM (the fields of a date input) hit the control, not themselves,
  and so are left out: the control is the target. A control that lets pointer events through
  (``pointer-events: none``) counts when the click there lands on one of its three closest
  ancestors, which takes it for the control (Ionic's segment buttons and their hosts);
- or it takes text, fails the above, and is a code editor's hidden input: Ace, CodeMirror and
  Monaco take keys in an input the user never sees (a pixel wide, transparent, or of no width)
  and draw the text themselves around it. Such an input counts when a click at its place (a real
  mouse event, sent after every other node was looked at) focuses it; its box is then the
  editor's: the closest element holding both the input and what the click landed on. A text
  field merely covered by something else does not get the focus, and stays out.

Disabled nodes are kept with ``states["disabled"]``; whether they count is the scorer's choice.
A node's ``labels`` are the boxes of its ``<label>`` elements (found in the sources of its
accessible name): clicking them operates it, so a scorer may accept a mark on a label.

Role-less clickables (:meth:`AXBrowser.truth`, its ``roleless`` list; issue 30): what a user clicks
that Chromium's tree does not expose as interactive (a ``<div>`` with a click listener, a
``<span>`` styled as a link). They are read from the same second browser, never from tabsight's
rules. An element is one when all of these hold:

- it takes clicks: it has a click-type listener of its own (``click``, ``mousedown``,
  ``mouseup``, ``pointerdown``, ``pointerup``; ``DOMDebugger.getEventListeners`` of the document,
  depth -1, pierce; an ``onclick`` attribute or property is one), or its computed ``cursor`` is
  ``pointer`` while its parent's is not (the outermost element of a pointer area; read with
  ``DOMSnapshot.captureSnapshot``). ``why`` says which (the listener kinds, ``cursor``). A
  listener alone counts only on an element that shows it: its computed cursor is one of
  SIGN_CURSORS (``pointer``, ``grab``, ``move``) or it has a ``tabindex``. Frameworks bind click
  listeners that do nothing where the page asked for none (PrimeVue on every body cell of a
  DataTable, Quasar on a chip that is not ``clickable``, Element Plus on a column header that does
  not sort): the hand check found those, and nothing a user would click that this drops;
- it has a layout box that overlaps the viewport and is hit-testable (as above: one of five points
  of its visible part reaches it or something inside it);
- it is not an interactive node of the list above (of the whole tree: the visible and the not
  visible ones), not inside one, does not contain one (a row holding a button is a container, not
  a target), and is not an element that names a node (a ``<label>`` or an ``aria-labelledby``
  element, of a control or of a group: the control, or the group's controls, are the targets);
- it is not the same target as an interactive node found: not SAME_TARGET or more of its area in
  the box of one or of one of its labels (the surface of a code editor, whose hidden input stands
  for it, the visible label of Excalidraw's hidden checkbox);
- it is not a document-wide delegate: not ``<html>``, ``<body>`` or a document, and not an element
  whose visible part covers DELEGATE_SHARE of the viewport or more: an app's root (React, Vue and
  others listen there), a modal's backdrop (MUI's invisible one, a click on it closes the menu),
  a drawing surface; none is a control to point at;
- a list listening for its items' clicks (an element taking clicks by listeners only, that would
  pass the rule above, with DELEGATE_ITEMS or more element children of the same tag and class:
  SortableJS's lists; a ``<table>``'s cells with text: Vaadin's month calendar) is replaced by
  those items: they are what a user clicks (or drags); their ``why`` is then the list's listener
  kinds, marked ``(its list's)``, and each must show it as above. A table row's cells are not
  items (the row is the target);
- it is outermost: of clickables nested in one another only the outermost is kept, except that a
  clickable holding two or more others is a delegate for them and is dropped in favour of them.

Each is a :class:`Clickable`: its box, its visible text (trimmed, at most 80 characters), its tag
(with its id and first classes) and why. ``bench/roleless_truth.py`` prints them per page beside a
screenshot with their boxes drawn, for the hand check the issue asks for; what that check found
and chose to leave out is in that script's docstring.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .servers import CHROMIUM

INTERACTIVE_ROLES = frozenset(
    {
        "button",
        "link",
        "checkbox",
        "radio",
        "switch",
        "textbox",
        "searchbox",
        "combobox",
        "listbox",
        "option",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "tab",
        "slider",
        "spinbutton",
        "treeitem",
        "DisclosureTriangle",
        "ColorWell",
        "Date",
        "DateTime",
        "InputTime",
    }
)

#: the listener kinds that make an element take clicks (a role-less clickable)
CLICK_EVENTS = frozenset({"click", "mousedown", "mouseup", "pointerdown", "pointerup"})
#: a clickable whose visible part covers this share of the viewport is a document-wide delegate (an app root)
#: or a backdrop, not a target
DELEGATE_SHARE = 0.5
#: never role-less targets: the document's own elements
DOCUMENT_ELEMENTS = frozenset({"HTML", "BODY", "HEAD", "#document"})
#: the cursors that say an element can be clicked or taken (a listener alone needs one of them, or a tabindex)
SIGN_CURSORS = frozenset({"pointer", "grab", "move"})
#: an element taking clicks by listeners only, with this many children alike (tag and class) or more, is a
#: list delegating for its items: they are the targets
DELEGATE_ITEMS = 3
#: a role-less clickable this much (share of its area) inside a shown interactive node's box is that node
#: (the surface of a code editor, whose hidden input stands for it)
SAME_TARGET = 0.5
#: how far above a role-less clickable its DOM path may meet an interactive node's for the two to be one widget
SAME_WIDGET_LEVELS = 3

#: its visible text, trimmed, and its tag with id and first two classes
DESCRIBE_SCRIPT = """function () {
  const text = (this.innerText !== undefined ? this.innerText : this.textContent) || '';
  const classes = typeof this.className === 'string' ? this.className.trim().split(/\\s+/).filter(Boolean) : [];
  const tag = this.localName + (this.id ? '#' + this.id : '') + classes.slice(0, 2).map(c => '.' + c).join('');
  return {text: text.replace(/\\s+/g, ' ').trim().slice(0, 80), tag,
          hint: (this.getAttribute && (this.getAttribute('aria-label') || this.getAttribute('title'))) || ''};
}"""

#: how many of its closest ancestors a control that lets pointer events through may pass them to (_passes_to_holder)
HOLDER_LEVELS = 3

#: roles that take typed text: a hidden one may stand for a code editor (see _proxied_widget)
TEXT_ENTRY = ("textbox", "searchbox")

#: whether the focus (through open shadow roots) is on ``this`` or inside it
FOCUSED_IN = """function () {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active === this || this.contains(active);
}"""

#: the states read from a node's properties (``value`` comes from the node's own value)
STATES = ("checked", "pressed", "expanded", "selected", "disabled")

#: name sources that are ``<label>`` elements: clicking one of those operates the control
LABEL_SOURCES = ("labelfor", "labelwrapped")

#: Resolves once the document has loaded, its fonts are ready and no node has been added, removed or
#: changed its text for 500 ms (at most 5 s after it started): apps keep rendering after the load event.
QUIET_SCRIPT = """new Promise(resolve => {
  const settle = () => {
    let timer;
    const done = () => { observer.disconnect(); clearTimeout(limit); resolve(true); };
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, 500); });
    observer.observe(document, {subtree: true, childList: true, characterData: true});
    timer = setTimeout(done, 500);
    const limit = setTimeout(done, 5000);
  };
  // a page that loads in steps with quiet gaps between them (Monaco's AMD modules) names the global it sets
  // once it is up: <html data-ready-when="editorsReady">; it is waited for first, 15 s at most
  const up = (since = Date.now()) => new Promise(done => {
    const name = document.documentElement.dataset.readyWhen;
    const poll = () => (!name || window[name] || Date.now() - since > 15000 ? done() : setTimeout(poll, 50));
    poll();
  });
  const loaded = () => document.fonts.ready.then(() => up()).then(settle);
  if (document.readyState === 'complete') loaded(); else addEventListener('load', loaded, {once: true});
})"""


@dataclass(frozen=True)
class Box:
    """A rectangle in CSS px of the top viewport."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    @property
    def area(self) -> float:
        return max(0.0, self.width) * max(0.0, self.height)

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2

    def contains(self, point: tuple[float, float]) -> bool:
        return self.x <= point[0] <= self.right and self.y <= point[1] <= self.bottom

    def intersection(self, other: Box) -> Box | None:
        x, y = max(self.x, other.x), max(self.y, other.y)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Box(x, y, right - x, bottom - y) if right > x and bottom > y else None

    def iou(self, other: Box) -> float:
        common = self.intersection(other)
        if common is None:
            return 0.0
        return common.area / (self.area + other.area - common.area)

    @classmethod
    def of_quads(cls, quads: list[list[float]]) -> Box:
        xs = [q[i] for q in quads for i in range(0, 8, 2)]
        ys = [q[i] for q in quads for i in range(1, 8, 2)]
        return cls(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def as_dict(self) -> dict[str, float]:
        return {"x": round(self.x), "y": round(self.y), "width": round(self.width), "height": round(self.height)}


@dataclass(frozen=True)
class AXNode:
    role: str
    name: str
    bounds: Box
    states: dict[str, Any] = field(default_factory=dict)
    #: the boxes of its <label> elements
    labels: tuple[Box, ...] = ()
    #: its DOM node (backendNodeId)
    backend_id: int = 0

    @property
    def disabled(self) -> bool:
        return bool(self.states.get("disabled"))


@dataclass(frozen=True)
class Clickable:
    """A role-less clickable: what a user clicks that Chromium's tree does not expose as interactive."""

    bounds: Box
    #: its visible text, trimmed
    text: str
    #: its tag name, with its id and first classes (``div#menu.item``)
    tag: str
    #: the click-type listener kinds it has, and "cursor" when it starts a pointer area
    why: tuple[str, ...]
    #: its aria-label or title, if any (for the hand check: an icon has no text)
    hint: str = ""
    #: its DOM node (backendNodeId)
    backend_id: int = 0


@dataclass
class Truth:
    """A page's ground truth: its interactive AX nodes and its role-less clickables."""

    interactive: list[AXNode]
    roleless: list[Clickable]
    #: a PNG of the viewport, when asked for
    screenshot: bytes | None = None


class CDPError(Exception):
    """A CDP call answered with an error, or the browser went away."""


class Pipe:
    """A Chromium driven over --remote-debugging-pipe: requests on its fd 3, answers and events on its fd 4."""

    def __init__(self, chromium: str = CHROMIUM, width: int = 1280, height: int = 720) -> None:
        self.profile = tempfile.mkdtemp(prefix="tabsight-axtree-")
        args = [
            chromium,
            "--headless=new",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--screen-info={3840x2160}",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        null = os.open(os.devnull, os.O_RDWR)
        try:
            # posix_spawn places the pipe ends at exactly fds 3 and 4 in the child (Popen cannot
            # renumber fds) without a preexec_fn, which is not safe in a threaded process
            self.pid = os.posix_spawn(
                chromium,
                args,
                os.environ,
                setsid=True,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, null, 0),
                    (os.POSIX_SPAWN_DUP2, null, 1),
                    (os.POSIX_SPAWN_DUP2, null, 2),
                    (os.POSIX_SPAWN_DUP2, to_browser, 3),
                    (os.POSIX_SPAWN_DUP2, from_browser, 4),
                ],
            )
        finally:
            for fd in (to_browser, from_browser, null):
                os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30.0) -> dict:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._out, data) :]
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline, method)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise CDPError(f"{method}: {answer['error'].get('message')}")
                return answer["result"]
            if "method" in answer:
                self.events.append(answer)

    def wait_event(self, method: str, session: str, timeout: float = 30.0) -> dict:
        """The first event ``method`` of ``session`` (from those already received, else the next ones)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["method"] == method and event.get("sessionId") == session:
                    self.events.remove(event)
                    return event["params"]
            self.events.append(self._read(deadline, method))

    def _read(self, deadline: float, waiting_for: str) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._in], [], [], remaining)[0]:
                raise CDPError(f"{waiting_for}: no answer in time")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise CDPError(f"{waiting_for}: the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except (CDPError, OSError):
            pass
        deadline = time.monotonic() + 5
        while os.waitpid(self.pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            os.killpg(self.pid, signal.SIGKILL)  # what is left of its own process group (setsid above)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        for fd in (self._in, self._out):
            os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


class AXBrowser:
    """The ground-truth browser; ``with AXBrowser() as ax: ax.interactive(url, viewport)``."""

    def __init__(self, chromium: str = CHROMIUM) -> None:
        self.chromium = chromium

    def __enter__(self) -> AXBrowser:
        self.pipe = Pipe(self.chromium)
        return self

    def __exit__(self, *exc: object) -> None:
        self.pipe.close()

    def interactive(self, url: str, viewport: dict[str, int], device_scale_factor: float = 1) -> list[AXNode]:
        """The interactive nodes a user can see and reach in the viewport of ``url``, in the tree's order."""
        return self.truth(url, viewport, device_scale_factor, roleless=False).interactive

    def truth(
        self,
        url: str,
        viewport: dict[str, int],
        device_scale_factor: float = 1,
        roleless: bool = True,
        screenshot: bool = False,
    ) -> Truth:
        """The interactive nodes of ``url`` and (``roleless``) its role-less clickables, and a screenshot of the
        viewport when asked (taken before the proxies are clicked)."""
        pipe = self.pipe
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = None
        try:
            session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            width, height = viewport["width"], viewport["height"]
            pipe.call(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": device_scale_factor,
                    "mobile": False,
                },
                session,
            )
            pipe.call("Page.enable", session=session)
            navigated = pipe.call("Page.navigate", {"url": url}, session)
            if "errorText" in navigated:
                raise CDPError(f"{url}: {navigated['errorText']}")
            pipe.wait_event("Page.loadEventFired", session)
            pipe.call("Runtime.evaluate", {"expression": QUIET_SCRIPT, "awaitPromise": True}, session)
            shot = (
                base64.b64decode(pipe.call("Page.captureScreenshot", {"format": "png"}, session)["data"])
                if screenshot
                else None
            )
            view = Box(0, 0, width, height)
            # the role-less clickables first: finding the interactive nodes may click a code editor
            clickables = _roleless(pipe, session, view) if roleless else []
            interactive = _visible_interactive(pipe, session, view)
            parents = _composed_parents(pipe.call("DOM.getDocument", {"depth": -1, "pierce": True}, session)["root"])
            return Truth(interactive, [c for c in clickables if not _same_target(c, interactive, parents)], shot)
        finally:
            pipe.call("Target.closeTarget", {"targetId": target})
            pipe.events = [event for event in pipe.events if event.get("sessionId") != session]


def _visible_interactive(pipe: Pipe, session: str, viewport: Box) -> list[AXNode]:
    parents = _composed_parents(pipe.call("DOM.getDocument", {"depth": -1, "pierce": True}, session)["root"])
    # DOM.getNodeForLocation takes document coordinates, the quads are in the viewport's
    shown_at = pipe.call("Page.getLayoutMetrics", session=session)["cssVisualViewport"]
    scroll = (shown_at["pageX"], shown_at["pageY"])
    found, proxies = [], []
    for frame in _frame_ids(pipe.call("Page.getFrameTree", session=session)["frameTree"]):
        try:
            nodes = pipe.call("Accessibility.getFullAXTree", {"frameId": frame}, session)["nodes"]
        except CDPError:  # a cross-origin frame in a process of its own: out of reach, as it is for tabsight
            continue
        by_id = {node["nodeId"]: node for node in nodes}
        for node in nodes:
            if node.get("ignored") or "backendDOMNodeId" not in node:
                continue
            editable_root = _editable_root(node, by_id)
            if not editable_root and node.get("role", {}).get("value") not in INTERACTIVE_ROLES:
                continue
            own = _layout_box(pipe, session, node["backendDOMNodeId"])
            box = own if own is not None and own.area > 0 else None
            labels = {label: _box(pipe, session, label) for label in _label_ids(node)}
            label_boxes = tuple(b for b in labels.values() if b is not None)
            bounds = box or next(iter(label_boxes), None)  # a zero-size input may still have its label shown
            shown = [part for part in (b.intersection(viewport) for b in (box, *label_boxes) if b) if part]
            if (
                bounds
                and shown
                and (
                    _reachable(pipe, session, {node["backendDOMNodeId"], *labels}, shown, scroll, parents)
                    or _passes_to_holder(pipe, session, node["backendDOMNodeId"], shown, scroll, parents)
                )
            ):
                found.append(_ax_node(node, bounds, label_boxes))
            elif own is not None and viewport.contains(own.centre) and (editable_root or _role(node) in TEXT_ENTRY):
                proxies.append((node, own.centre))
    # last: trying a proxy clicks the page
    for node, point in proxies:
        widget = _proxied_widget(pipe, session, node["backendDOMNodeId"], point, scroll, parents)
        if widget is not None:
            found.append(_ax_node(node, widget, ()))
    return found


def _same_target(clickable: Clickable, interactive: list[AXNode], parents: dict[int, int]) -> bool:
    """Whether SAME_TARGET of the clickable lies in the box of a shown interactive node of the same widget (or of
    one of its labels'): one whose DOM node and the clickable's meet within SAME_WIDGET_LEVELS above the clickable
    (a code editor's surface beside its hidden input), or the clickable is in a label. A clickable that only lies
    over a node's box (a date picker's day over a text field under the popup) is a target of its own."""

    def above(node: int) -> list[int]:
        chain = []
        while (node := parents.get(node)) is not None:
            chain.append(node)
        return chain

    near = above(clickable.backend_id)[:SAME_WIDGET_LEVELS]
    for node in interactive:
        node_chain = {node.backend_id, *above(node.backend_id)}
        related = clickable.backend_id in node_chain or any(n in node_chain for n in near)
        for box in (node.bounds, *node.labels):
            common = clickable.bounds.intersection(box)
            if common and common.area >= SAME_TARGET * clickable.bounds.area and (related or box is not node.bounds):
                return True
    return False


def _roleless(pipe: Pipe, session: str, viewport: Box) -> list[Clickable]:
    """The role-less clickables a user can see and reach in the viewport (see the module docstring)."""
    dom = _DomIndex(pipe.call("DOM.getDocument", {"depth": -1, "pierce": True}, session)["root"])
    shown_at = pipe.call("Page.getLayoutMetrics", session=session)["cssVisualViewport"]
    scroll = (shown_at["pageX"], shown_at["pageY"])

    # the interactive nodes of the whole tree (shown or not), and the labels of any node (a group's too)
    interactive: set[int] = set()
    labels: set[int] = set()
    for frame in _frame_ids(pipe.call("Page.getFrameTree", session=session)["frameTree"]):
        try:
            nodes = pipe.call("Accessibility.getFullAXTree", {"frameId": frame}, session)["nodes"]
        except CDPError:
            continue
        by_id = {node["nodeId"]: node for node in nodes}
        for node in nodes:
            if node.get("ignored") or "backendDOMNodeId" not in node:
                continue
            labels.update(_label_ids(node, LABEL_SOURCES + ("aria-labelledby",)))
            if _role(node) in INTERACTIVE_ROLES or _editable_root(node, by_id):
                interactive.add(node["backendDOMNodeId"])
    holding = {above for node in interactive for above in dom.ancestors(node)}

    # why each element takes clicks: its own click-type listeners, and "cursor" where a pointer area starts
    why: dict[int, set[str]] = {}
    document = pipe.call("Runtime.evaluate", {"expression": "document"}, session)["result"]["objectId"]
    listeners = pipe.call(
        "DOMDebugger.getEventListeners", {"objectId": document, "depth": -1, "pierce": True}, session
    )["listeners"]
    for listener in listeners:
        if listener["type"] in CLICK_EVENTS and "backendNodeId" in listener:
            why.setdefault(listener["backendNodeId"], set()).add(listener["type"])
    pipe.call("Runtime.releaseObject", {"objectId": document}, session)
    cursors = _cursors(pipe.call("DOMSnapshot.captureSnapshot", {"computedStyles": ["cursor"]}, session))
    for node, cursor in cursors.items():
        if cursor == "pointer" and dom.inherited(node, cursors) != "pointer":
            why.setdefault(node, set()).add("cursor")

    def apart(node: int) -> bool:
        """Not an interactive node, nor in one, nor holding one, nor naming a node."""
        return not (
            node in interactive
            or node in holding
            or node in labels
            or any(above in interactive for above in dom.ancestors(node))
        )

    # a list listening for its items' clicks (listeners only, three or more children alike): its items are the targets
    for node, reasons in list(why.items()):
        if "cursor" not in reasons and dom.is_element(node) and apart(node):
            items = dom.repeated_children(node)
            if items:
                del why[node]
                for item in items:
                    why.setdefault(item, set()).update(f"{kind} (its list's)" for kind in reasons)

    found: dict[int, tuple[Box, tuple[str, ...]]] = {}
    for node, reasons in why.items():
        if not dom.is_element(node) or not apart(node):
            continue
        # a listener alone, on what neither looks clickable nor takes the focus, is a framework's plumbing
        if "cursor" not in reasons and cursors.get(node) not in SIGN_CURSORS and node not in dom.focusable:
            continue
        box = _box(pipe, session, node)
        shown = box.intersection(viewport) if box else None
        if shown is None or shown.area >= DELEGATE_SHARE * viewport.area:
            continue
        if not _reachable(pipe, session, {node}, [shown], scroll, dom.parents):
            continue
        found[node] = (box, tuple(sorted(reasons, key=lambda r: (r == "cursor", r))))

    # outermost only; one holding two or more others delegates for them
    inside = {node: [other for other in found if other != node and node in dom.ancestors(other)] for node in found}
    kept = []
    for node in found:
        if len(inside[node]) >= 2:
            continue
        if any(above in found and len(inside[above]) < 2 for above in dom.ancestors(node)):
            continue
        kept.append(node)

    clickables = []
    for node in kept:
        box, reasons = found[node]
        try:
            handle = pipe.call("DOM.resolveNode", {"backendNodeId": node}, session)["object"]["objectId"]
            said = pipe.call(
                "Runtime.callFunctionOn",
                {"objectId": handle, "functionDeclaration": DESCRIBE_SCRIPT, "returnByValue": True},
                session,
            )["result"]["value"]
        except (CDPError, KeyError):
            said = {"text": "", "tag": dom.names.get(node, "?").lower(), "hint": ""}
        clickables.append(Clickable(box, said["text"], said["tag"], reasons, said["hint"], node))
    return sorted(clickables, key=lambda c: (round(c.bounds.y), round(c.bounds.x)))


class _DomIndex:
    """The composed DOM tree (DOM.getDocument, pierced) by backendNodeId: parents, names, children, which nodes
    are elements."""

    def __init__(self, root: dict) -> None:
        self.parents = _composed_parents(root)
        self.names: dict[int, str] = {}
        self.elements: set[int] = set()
        #: (tag, class attribute) of each node, and its children
        self.kinds: dict[int, tuple[str, str]] = {}
        self.children: dict[int, list[int]] = {}
        #: the elements with a tabindex attribute, and the text of the text nodes
        self.focusable: set[int] = set()
        self.texts: dict[int, str] = {}
        todo = [root]
        while todo:
            node = todo.pop()
            self.names[node["backendNodeId"]] = node.get("nodeName", "")
            attributes = node.get("attributes", [])
            attrs = dict(zip(attributes[::2], attributes[1::2]))
            self.kinds[node["backendNodeId"]] = (node.get("nodeName", ""), attrs.get("class", ""))
            if "tabindex" in attrs:
                self.focusable.add(node["backendNodeId"])
            if node.get("nodeType") == 3:
                self.texts[node["backendNodeId"]] = node.get("nodeValue", "")
            self.children[node["backendNodeId"]] = [child["backendNodeId"] for child in node.get("children", [])]
            if node.get("nodeType") == 1 and not node.get("nodeName", "").startswith("::"):
                self.elements.add(node["backendNodeId"])
            todo += node.get("children", []) + node.get("shadowRoots", [])
            if "contentDocument" in node:
                todo.append(node["contentDocument"])

    def cells(self, node: int) -> list[int]:
        """The <td> cells with text of a table's rows (its own, not a nested table's)."""
        found, todo = [], list(self.children.get(node, []))
        while todo:
            child = todo.pop(0)
            name = self.names.get(child, "").upper()
            if name == "TD" and self.has_text(child):
                found.append(child)
            elif name in ("THEAD", "TBODY", "TFOOT", "TR"):
                todo += self.children.get(child, [])
        return found

    def has_text(self, node: int) -> bool:
        todo = [node]
        while todo:
            current = todo.pop()
            if self.texts.get(current, "").strip():
                return True
            todo += self.children.get(current, [])
        return False

    def repeated_children(self, node: int) -> list[int]:
        """A list's items: its element children when DELEGATE_ITEMS or more of them share a tag and class, a
        table's cells with text; else []."""
        if self.names.get(node, "").upper() == "TABLE":
            return self.cells(node)
        children = [child for child in self.children.get(node, []) if child in self.elements]
        if any(self.names.get(child, "").upper() in ("TD", "TH") for child in children):
            return []  # a row's cells are its parts, not items: the row is the target
        kinds = Counter(self.kinds[child] for child in children)
        if not kinds or kinds.most_common(1)[0][1] < DELEGATE_ITEMS:
            return []
        common = kinds.most_common(1)[0][0]
        return [child for child in children if self.kinds[child] == common]

    def ancestors(self, node: int) -> list[int]:
        found, current = [], self.parents.get(node)
        while current is not None:
            found.append(current)
            current = self.parents.get(current)
        return found

    def is_element(self, node: int) -> bool:
        return node in self.elements and self.names.get(node, "").upper() not in DOCUMENT_ELEMENTS

    def inherited(self, node: int, cursors: dict[int, str]) -> str | None:
        """The cursor of the closest ancestor that has one (its parent in the layout tree)."""
        return next((cursors[above] for above in self.ancestors(node) if above in cursors), None)


def _cursors(snapshot: dict) -> dict[int, str]:
    """backendNodeId -> computed cursor of every element with a layout object, from DOMSnapshot.captureSnapshot."""
    strings = snapshot["strings"]
    cursors: dict[int, str] = {}
    for document in snapshot["documents"]:
        backend = document["nodes"]["backendNodeId"]
        kinds = document["nodes"].get("nodeType", [])
        layout = document["layout"]
        for index, style in zip(layout["nodeIndex"], layout["styles"]):
            if style and (not kinds or kinds[index] in (1, 9)) and backend[index] not in cursors:
                cursors[backend[index]] = strings[style[0]]
    return cursors


def _ax_node(node: dict, bounds: Box, labels: tuple[Box, ...]) -> AXNode:
    return AXNode(
        _role(node), node.get("name", {}).get("value", ""), bounds, _states(node), labels, node["backendDOMNodeId"]
    )


def _role(node: dict) -> str:
    return node.get("role", {}).get("value", "")


def _editable_root(node: dict, by_id: dict[str, dict]) -> bool:
    """The root of an editable region (contenteditable: Chromium gives it the editable property, no role)."""
    parent = by_id.get(node.get("parentId", ""), {})
    return _property(node, "editable") is not None and _property(parent, "editable") is None


def _property(node: dict, name: str) -> Any:
    return next((prop["value"].get("value") for prop in node.get("properties", []) if prop["name"] == name), None)


def _frame_ids(tree: dict) -> list[str]:
    return [tree["frame"]["id"]] + [frame for child in tree.get("childFrames", []) for frame in _frame_ids(child)]


def _composed_parents(root: dict) -> dict[int, int]:
    """backendNodeId -> its parent's, across shadow roots (to the host), frames (to the <iframe>) and
    pseudo-elements (to their element: a hit on an icon's ::before is a hit on the icon)."""
    parents: dict[int, int] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        children = node.get("children", []) + node.get("shadowRoots", []) + node.get("pseudoElements", [])
        if "contentDocument" in node:
            children.append(node["contentDocument"])
        for child in children:
            parents[child["backendNodeId"]] = node["backendNodeId"]
            todo.append(child)
    return parents


def _layout_box(pipe: Pipe, session: str, backend_id: int) -> Box | None:
    """The union of the node's layout quads (possibly of zero size), None when it is not rendered."""
    try:
        quads = pipe.call("DOM.getContentQuads", {"backendNodeId": backend_id}, session)["quads"]
    except CDPError:  # no layout object
        return None
    return Box.of_quads(quads) if quads else None


def _box(pipe: Pipe, session: str, backend_id: int) -> Box | None:
    """The node's layout box if it has an area."""
    box = _layout_box(pipe, session, backend_id)
    return box if box is not None and box.area > 0 else None


def _label_ids(node: dict, kinds: tuple[str, ...] = LABEL_SOURCES) -> list[int]:
    """The elements naming the node through these kinds of name source (``<label>`` elements by default;
    ``aria-labelledby`` is a kind too)."""
    ids = []
    for source in node.get("name", {}).get("sources", []):
        if source.get("nativeSource") in kinds:
            related = source.get("nativeSourceValue", {}).get("relatedNodes", [])
        elif source.get("attribute") in kinds:
            related = source.get("attributeValue", {}).get("relatedNodes", [])
        else:
            continue
        ids += [item["backendDOMNodeId"] for item in related if "backendDOMNodeId" in item]
    return ids


def _reachable(
    pipe: Pipe, session: str, targets: set[int], areas: list[Box], scroll: tuple[float, float], parents: dict[int, int]
) -> bool:
    """Whether a click at one of five points of one of the areas reaches one of the targets (or a descendant)."""
    for area in areas:
        cx, cy = area.centre
        dx, dy = area.width / 4, area.height / 4
        for x, y in ((cx, cy), (cx - dx, cy - dy), (cx + dx, cy - dy), (cx - dx, cy + dy), (cx + dx, cy + dy)):
            try:
                hit = pipe.call("DOM.getNodeForLocation", {"x": int(x + scroll[0]), "y": int(y + scroll[1])}, session)[
                    "backendNodeId"
                ]
            except CDPError:
                continue
            while hit is not None:
                if hit in targets:
                    return True
                hit = parents.get(hit)
    return False


def _passes_to_holder(
    pipe: Pipe, session: str, backend_id: int, areas: list[Box], scroll: tuple[float, float], parents: dict[int, int]
) -> bool:
    """Whether the node lets pointer events through (``pointer-events: none``) to what holds it: a click at its
    place lands on one of its HOLDER_LEVELS closest ancestors (shadow hosts crossed), which takes the clicks for it
    (Ionic's segment buttons: the host takes them for the native button inside)."""
    try:
        handle = pipe.call("DOM.resolveNode", {"backendNodeId": backend_id}, session)["object"]["objectId"]
        events = pipe.call(
            "Runtime.callFunctionOn",
            {
                "objectId": handle,
                "returnByValue": True,
                "functionDeclaration": "function () { return getComputedStyle(this).pointerEvents; }",
            },
            session,
        )
    except (CDPError, KeyError):
        return False
    if events["result"].get("value") != "none":
        return False
    holders = []
    node = backend_id
    while len(holders) < HOLDER_LEVELS and (node := parents.get(node)) is not None:
        holders.append(node)
    return _reachable(pipe, session, set(holders), areas, scroll, {})


def _proxied_widget(
    pipe: Pipe,
    session: str,
    backend_id: int,
    point: tuple[float, float],
    scroll: tuple[float, float],
    parents: dict[int, int],
) -> Box | None:
    """The box of the editor a hidden text input stands for, or None if it stands for none.

    Code editors (Ace, CodeMirror, Monaco) take keys in an input the user never sees (a pixel wide,
    transparent, or of no width) at the caret, and draw the text themselves around it. If a click at
    the input's place focuses it, the input stands for the editor there: the closest element holding
    both the input and what the click landed on."""
    x, y = point
    try:
        hit = pipe.call("DOM.getNodeForLocation", {"x": int(x + scroll[0]), "y": int(y + scroll[1])}, session)[
            "backendNodeId"
        ]
    except CDPError:
        return None
    for kind in ("mousePressed", "mouseReleased"):
        pipe.call(
            "Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, session
        )
    proxy = pipe.call("DOM.resolveNode", {"backendNodeId": backend_id}, session)["object"]["objectId"]
    focused = pipe.call(
        "Runtime.callFunctionOn", {"objectId": proxy, "functionDeclaration": FOCUSED_IN, "returnByValue": True}, session
    )["result"]["value"]
    if not focused:
        return None
    around, current = set(), backend_id
    while current is not None:
        around.add(current)
        current = parents.get(current)
    while hit is not None and hit not in around:
        hit = parents.get(hit)
    return None if hit is None else _box(pipe, session, hit)


def _states(node: dict) -> dict[str, Any]:
    states = {name: value for name in STATES if (value := _property(node, name)) is not None}
    value = node.get("value", {}).get("value")
    if value not in (None, ""):
        states["value"] = value
    return states
