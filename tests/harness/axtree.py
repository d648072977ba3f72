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
  and so are left out: the control is the target;
- or it takes text, fails the above, and is a code editor's hidden input: Ace, CodeMirror and
  Monaco take keys in an input the user never sees (a pixel wide, transparent, or of no width)
  and draw the text themselves around it. Such an input counts when a click at its place (a real
  mouse event, sent after every other node was looked at) focuses it; its box is then the
  editor's: the closest element holding both the input and what the click landed on. A text
  field merely covered by something else does not get the focus, and stays out.

Disabled nodes are kept with ``states["disabled"]``; whether they count is the scorer's choice.
A node's ``labels`` are the boxes of its ``<label>`` elements (found in the sources of its
accessible name): clicking them operates it, so a scorer may accept a mark on a label.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from .servers import CHROMIUM

INTERACTIVE_ROLES = frozenset({
    "button", "link", "checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "listbox", "option",
    "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "slider", "spinbutton", "treeitem",
    "DisclosureTriangle", "ColorWell", "Date", "DateTime", "InputTime",
})

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

    @property
    def disabled(self) -> bool:
        return bool(self.states.get("disabled"))


class CDPError(Exception):
    """A CDP call answered with an error, or the browser went away."""


class Pipe:
    """A Chromium driven over --remote-debugging-pipe: requests on its fd 3, answers and events on its fd 4."""

    def __init__(self, chromium: str = CHROMIUM, width: int = 1280, height: int = 720) -> None:
        self.profile = tempfile.mkdtemp(prefix="tabsight-axtree-")
        args = [chromium, "--headless=new", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--screen-info={3840x2160}", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        null = os.open(os.devnull, os.O_RDWR)
        try:
            # posix_spawn places the pipe ends at exactly fds 3 and 4 in the child (Popen cannot
            # renumber fds) without a preexec_fn, which is not safe in a threaded process
            self.pid = os.posix_spawn(chromium, args, os.environ, setsid=True, file_actions=[
                (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2),
                (os.POSIX_SPAWN_DUP2, to_browser, 3), (os.POSIX_SPAWN_DUP2, from_browser, 4),
            ])
        finally:
            for fd in (to_browser, from_browser, null):
                os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._out, data):]
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
        pipe = self.pipe
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = None
        try:
            session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            width, height = viewport["width"], viewport["height"]
            pipe.call("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": device_scale_factor, "mobile": False,
            }, session)
            pipe.call("Page.enable", session=session)
            navigated = pipe.call("Page.navigate", {"url": url}, session)
            if "errorText" in navigated:
                raise CDPError(f"{url}: {navigated['errorText']}")
            pipe.wait_event("Page.loadEventFired", session)
            pipe.call("Runtime.evaluate", {"expression": QUIET_SCRIPT, "awaitPromise": True}, session)
            return _visible_interactive(pipe, session, Box(0, 0, width, height))
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
            if bounds and shown and _reachable(pipe, session, {node["backendDOMNodeId"], *labels}, shown, scroll,
                                               parents):
                found.append(_ax_node(node, bounds, label_boxes))
            elif own is not None and viewport.contains(own.centre) and (editable_root or _role(node) in TEXT_ENTRY):
                proxies.append((node, own.centre))
    # last: trying a proxy clicks the page
    for node, point in proxies:
        widget = _proxied_widget(pipe, session, node["backendDOMNodeId"], point, scroll, parents)
        if widget is not None:
            found.append(_ax_node(node, widget, ()))
    return found


def _ax_node(node: dict, bounds: Box, labels: tuple[Box, ...]) -> AXNode:
    return AXNode(_role(node), node.get("name", {}).get("value", ""), bounds, _states(node), labels)


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


def _label_ids(node: dict) -> list[int]:
    ids = []
    for source in node.get("name", {}).get("sources", []):
        if source.get("nativeSource") in LABEL_SOURCES:
            ids += [related["backendDOMNodeId"] for related in source.get("nativeSourceValue", {}).get("relatedNodes", [])
                    if "backendDOMNodeId" in related]
    return ids


def _reachable(pipe: Pipe, session: str, targets: set[int], areas: list[Box], scroll: tuple[float, float],
               parents: dict[int, int]) -> bool:
    """Whether a click at one of five points of one of the areas reaches one of the targets (or a descendant)."""
    for area in areas:
        cx, cy = area.centre
        dx, dy = area.width / 4, area.height / 4
        for x, y in ((cx, cy), (cx - dx, cy - dy), (cx + dx, cy - dy), (cx - dx, cy + dy), (cx + dx, cy + dy)):
            try:
                hit = pipe.call("DOM.getNodeForLocation", {"x": int(x + scroll[0]), "y": int(y + scroll[1])},
                                session)["backendNodeId"]
            except CDPError:
                continue
            while hit is not None:
                if hit in targets:
                    return True
                hit = parents.get(hit)
    return False


def _proxied_widget(pipe: Pipe, session: str, backend_id: int, point: tuple[float, float],
                    scroll: tuple[float, float], parents: dict[int, int]) -> Box | None:
    """The box of the editor a hidden text input stands for, or None if it stands for none.

    Code editors (Ace, CodeMirror, Monaco) take keys in an input the user never sees (a pixel wide,
    transparent, or of no width) at the caret, and draw the text themselves around it. If a click at
    the input's place focuses it, the input stands for the editor there: the closest element holding
    both the input and what the click landed on."""
    x, y = point
    try:
        hit = pipe.call("DOM.getNodeForLocation", {"x": int(x + scroll[0]), "y": int(y + scroll[1])},
                        session)["backendNodeId"]
    except CDPError:
        return None
    for kind in ("mousePressed", "mouseReleased"):
        pipe.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
                  session)
    proxy = pipe.call("DOM.resolveNode", {"backendNodeId": backend_id}, session)["object"]["objectId"]
    focused = pipe.call("Runtime.callFunctionOn", {"objectId": proxy, "functionDeclaration": FOCUSED_IN,
                                                   "returnByValue": True}, session)["result"]["value"]
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
