"""Scoring tabsight's annotated screenshots on real web apps against Chromium's accessibility tree.

The apps are npm packages (tests/realapps/package.json, installed by tests/realapps/install.sh)
served as static files; tests/realapps/pages/*.html sets each up as a user would see it. For a
page, tabsight is asked through a real MCP client, as an agent would: ``interact navigate``, a
wait until the page is quiet (``interact execute`` of axtree.QUIET_SCRIPT), then
``observe({what:"page", annotate_screenshot:true, max_annotations:100})``. The ground truth is
axtree.AXBrowser's list of the interactive nodes a user can see and reach in the same viewport.

Matching (:func:`match`), one-to-one and by geometry only (a truth node in the same place as a
matched one, IoU SAME_TARGET_IOU, counts as matched with it: a component's host and the native
control inside it, both in Chromium's tree, are one click target): an annotation and a truth node are a
candidate pair when the centre of one lies in the other's box and their boxes overlap with an
IoU of at least MIN_IOU. A truth node's box is its own or one of its <label>s' (a mark on the
label of a visually hidden radio is a mark on the radio). Pairs are taken greedily, the largest
IoU first, each annotation and node used once. The annotations left are then matched the same
way to the page's role-less clickables (axtree.AXBrowser.truth's ``roleless``: what a user
clicks that Chromium's tree does not expose as interactive, issue 30).

Measures, per page:

- recall: matched truth nodes / truth nodes, disabled ones included (tabsight marks a disabled
  control, with state.disabled, as a user sees it); role-less clickables are not in it;
- precision: annotations matching an interactive node or a role-less clickable / annotations (an
  annotation that matches neither is an extra);
- names: matched pairs whose ``name`` equals Chromium's accessible name once both are
  normalised (whitespace collapsed, case folded, Private Use Area characters dropped: they are
  icon-font glyphs that CSS ``::before`` content puts into Chromium's names); a name tabsight
  truncated agrees when it is the start of Chromium's; where Chromium's name is empty, a name
  tabsight gives with ``name_from`` (a hidden label's text, a test id: it says it is not
  Chromium's) agrees too;
- selectors: annotations whose ``selector``, run in the page (``>>>`` descends into an open
  shadow root or a same-origin frame's document), matches exactly one element whose bounding
  rectangle is the annotation's bounds within SELECTOR_SLACK px.

Also reported (issue 30's wide benchmark, bench/wide_bench.py, holds them to targets; the tests do not):

- named: names over the matched pairs whose Chromium name is not empty;
- role-less marked: matched role-less clickables / role-less clickables;
- marks per role-less clickable: the annotations on it (the one matched to it, and any other not
  matched to an interactive node that lies in it: INSIDE of its box, or more, within the
  clickable's); ``overmarked`` lists those with more than one.

Also reported, with no target: states, the matched pairs whose annotation ``state`` agrees with
Chromium on every state Chromium gives (checked, pressed, expanded, selected, disabled; a state
the annotation leaves out counts as false), over the pairs where Chromium gives one.

TARGETS are issue 15's. :func:`report` lists what was missed, extra, misnamed, in another state and
badly selected.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult
from PIL import Image

from .axtree import QUIET_SCRIPT, AXBrowser, AXNode, Box, Clickable
from .calls import Failed, region, text_of

REALAPPS = Path(__file__).resolve().parent.parent / "realapps"
PAGES = REALAPPS / "pages"
INSTALL = REALAPPS / "install.sh"
#: a file of each package the pages load: node_modules is complete when they are all there
NEEDED = (
    "todomvc/examples/vue/js/app.js",
    "swagger-ui-dist/swagger-ui-bundle.js",
    "jsoneditor/dist/jsoneditor.min.js",
    "@shoelace-style/shoelace/cdn/shoelace.js",
    "bootstrap/dist/js/bootstrap.bundle.min.js",
    "admin-lte/dist/js/adminlte.min.js",
    "bootstrap-icons/font/bootstrap-icons.min.css",
    "@excalidraw/excalidraw/dist/excalidraw.production.min.js",
    "react/umd/react.production.min.js",
    "react-dom/umd/react-dom.production.min.js",
    "ace-builds/src-min-noconflict/ace.js",
    "codemirror/lib/codemirror.js",
    "monaco-editor/min/vs/loader.js",
    "sortablejs/Sortable.min.js",
    "dropzone/dist/dropzone-min.js",
    # unseen/ (tests/test_unseen_pages.py): what its pages load, and what build.mjs bundles
    "excalidraw018/dist/prod/index.js",
    "@material/web/all.js",
    "@ionic/core/dist/ionic/ionic.esm.js",
    "@fluentui/web-components/dist/esm/index.js",
    "vue/dist/vue.esm-bundler.js",
    "naive-ui/es/index.mjs",
    "@blueprintjs/core/lib/esm/index.js",
    "todomvc/examples/angularjs/js/app.js",
    "tom-select/dist/js/tom-select.complete.min.js",
    "choices.js/public/assets/scripts/choices.min.js",
    "slim-select/dist/slimselect.js",
    "esbuild/lib/main.js",
)
#: unseen/*.html: pages of libraries tabsight's discovery was not written against (issue 30)
UNSEEN = REALAPPS / "unseen"

TARGETS = {"recall": 0.95, "precision": 0.95, "names": 0.95, "selectors": 1.0}
MIN_IOU = 0.3
#: a truth node this close (IoU) to a matched one is the same click target, matched with it
SAME_TARGET_IOU = 0.9
#: the share of an annotation's box within a role-less clickable's that makes it a mark on that clickable
INSIDE = 0.8
SELECTOR_SLACK = 2
MAX_ANNOTATIONS = 100

#: the states compared (a field's value is not: Chromium and the page word it differently)
STATE_KEYS = ("checked", "pressed", "expanded", "selected", "disabled")

TRUNCATED = re.compile(r"… \[truncated: \d+ chars\]$")
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def pages() -> list[str]:
    """The pages to score: every tests/realapps/pages/*.html."""
    return sorted(path.name for path in PAGES.glob("*.html"))


def missing_apps() -> str | None:
    """Why the apps cannot be served (node_modules missing or incomplete), or None."""
    modules = REALAPPS / "node_modules"
    absent = [name for name in NEEDED if not (modules / name).is_file()]
    if absent:
        return f"{modules} lacks {', '.join(absent[:3])}{' ...' if len(absent) > 3 else ''}: run {INSTALL}"
    return None


def missing_bundles() -> str | None:
    """Why unseen/'s pages cannot be served: the apps missing, or a bundle of src/ missing from build/
    (install.sh makes them with build.mjs), or None."""
    missing = missing_apps()
    if missing:
        return missing
    absent = [
        f"build/{entry.stem}.js"
        for entry in sorted((REALAPPS / "src").glob("*.js*"))
        if not (REALAPPS / "build" / f"{entry.stem}.js").is_file()
    ]
    if absent:
        return f"{REALAPPS} lacks {', '.join(absent)}: run {INSTALL}"
    return None


# -- tabsight's side, over MCP ------------------------------------------------------------


@dataclass
class Observed:
    """An annotated observe: its annotations and answer, and what the agent paid for it."""

    annotations: list[dict]
    total_found: int
    viewport: dict[str, int]
    text_chars: int
    image_size: tuple[int, int]


def answer(result: CallToolResult) -> dict:
    if result.is_error:
        raise Failed(text_of(result) or "(isError, no text)")
    return json.loads(region(next(block.text for block in result.content if block.type == "text")))


async def load(client: Client, url: str) -> None:
    """Navigate the tracked tab to url and wait until the page is quiet."""
    answer(await client.call_tool("interact", {"action": "navigate", "url": url}))
    await execute(client, f"return await {QUIET_SCRIPT}")


async def execute(client: Client, script: str) -> Any:
    done = answer(await client.call_tool("interact", {"action": "execute", "script": script}))
    outcome = done.get("script", {})
    if "result" not in outcome:
        raise Failed(f"execute failed: {json.dumps(outcome)[:500]}")
    return outcome["result"]


async def annotated(client: Client, **extra: Any) -> tuple[CallToolResult, str, tuple[int, int]]:
    """observe with annotate_screenshot and MAX_ANNOTATIONS (plus ``extra`` arguments): the result, all
    its text, and its image's size. The whole map each time (``full_map``): an agent that looks again at a page
    unchanged since is told so in a line instead (tests/test_changes.py), which these scores do not read."""
    arguments = {
        "what": "page",
        "annotate_screenshot": True,
        "annotation_format": "json",
        "max_annotations": MAX_ANNOTATIONS,
        "full_map": True,
    }
    result = await client.call_tool("observe", arguments | extra)
    if result.is_error:
        raise Failed(text_of(result) or "(isError, no text)")
    image = next((block for block in result.content if block.type == "image"), None)
    if image is None:
        raise Failed("observe returned no image")
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as picture:
        return result, text_of(result), picture.size


async def observe(client: Client) -> Observed:
    """The annotated observe (JSON form) an agent makes."""
    result, text, size = await annotated(client)
    found = answer(result)
    return Observed(
        found.get("annotations", []), found.get("total_found", 0), found["page"]["viewport"], len(text), size
    )


#: Runs in the page: for each [selector, bounds], how many elements the selector matches and the
#: first one's bounding rectangle in top-viewport px (frames' offsets added).
SELECTOR_SCRIPT = """
const descend = ({element, dx, dy}) => {
  if (element.shadowRoot) return {root: element.shadowRoot, dx, dy};
  if (!element.contentDocument) return null;
  const rect = element.getBoundingClientRect(), style = getComputedStyle(element);
  return {root: element.contentDocument, dx: dx + rect.left + element.clientLeft + parseFloat(style.paddingLeft),
          dy: dy + rect.top + element.clientTop + parseFloat(style.paddingTop)};
};
return SELECTORS.map((selector) => {
  let scopes = [{root: document, dx: 0, dy: 0}], found = [];
  try {
    selector.split(' >>> ').forEach((part, i, parts) => {
      found = scopes.flatMap(({root, dx, dy}) => [...root.querySelectorAll(part)].map((element) => ({element, dx, dy})));
      if (i < parts.length - 1) scopes = found.map(descend).filter(Boolean);
    });
  } catch (error) {
    return {count: 0, error: String(error.message || error)};
  }
  if (!found.length) return {count: 0};
  const {element, dx, dy} = found[0], rect = element.getBoundingClientRect();
  return {count: found.length, rect: {x: rect.left + dx, y: rect.top + dy, width: rect.width, height: rect.height}};
});
"""


async def selector_checks(client: Client, annotations: list[dict]) -> list[dict]:
    """SELECTOR_SCRIPT's finding for each annotation's selector, in the tracked tab."""
    selectors = json.dumps([item["selector"] for item in annotations])
    return await execute(client, f"const SELECTORS = {selectors};\n{SELECTOR_SCRIPT}")


async def score_page(client: Client, ax: AXBrowser, base_url: str, page: str) -> tuple[PageScore, Observed]:
    """Load the page in tabsight's tracked tab, observe it, check the selectors, and score the
    annotations against the AX truth of the same URL in the viewport tabsight reported."""
    url = base_url + page
    await load(client, url)
    observed = await observe(client)
    checks = await selector_checks(client, observed.annotations)
    truth = await anyio.to_thread.run_sync(ax.truth, url, observed.viewport)
    return score(page, observed.annotations, observed.total_found, truth.interactive, checks, truth.roleless), observed


def _named(value: Any) -> str:
    return " ".join(str(value or "").split()).casefold()


#: the roles an annotation of an element with no role of its own may carry
NO_ROLE = ("", None, "generic")


def marks(annotations: list[dict], roles: str | tuple | None, name: str, *, contains: bool = False) -> list[dict]:
    """The annotations whose role is ``roles`` (one, or a tuple of them; NO_ROLE for an element with no role of
    its own) and whose name is ``name`` (whitespace collapsed, case folded; or holds it, with ``contains``)."""
    accepted = roles if isinstance(roles, tuple) else (roles,)
    wanted = _named(name)
    return [
        item
        for item in annotations
        if item.get("role") in accepted
        and (wanted in _named(item.get("name")) if contains else _named(item.get("name")) == wanted)
    ]


def mark(annotations: list[dict], roles: str | tuple | None, name: str, *, contains: bool = False) -> dict:
    """The one annotation :func:`marks` finds; else an AssertionError that lists every annotation there was."""
    found = marks(annotations, roles, name, contains=contains)
    if len(found) != 1:
        listed = "\n".join(f"  - {describe_annotation(item)}" for item in annotations) or "  (none)"
        raise AssertionError(
            f"{'no' if not found else len(found)} mark with role {roles!r} and name "
            f"{'holding ' if contains else ''}{name!r} among the {len(annotations)} annotations:"
            f"\n{listed}"
        )
    return found[0]


# -- scoring ----------------------------------------------------------------------------------


@dataclass
class Match:
    annotation: dict
    node: AXNode
    iou: float


@dataclass
class PageScore:
    page: str
    truth: list[AXNode]
    annotations: list[dict]
    total_found: int
    matches: list[Match]
    #: truth nodes no annotation matched
    missed: list[AXNode]
    #: annotations that matched no truth node
    extra: list[dict]
    #: (annotation, why) for each selector that is not valid
    bad_selectors: list[tuple[dict, str]]
    #: the role-less clickables, the annotations matched to them, and the annotations on each
    roleless: list[Clickable] = field(default_factory=list)
    roleless_matches: list[Match] = field(default_factory=list)
    marks: list[list[dict]] = field(default_factory=list)
    misnamed: list[Match] = field(init=False)
    #: matches where Chromium gives a state (checked, expanded...), and those where tabsight's differs
    stateful: list[Match] = field(init=False)
    misstated: list[Match] = field(init=False)

    def __post_init__(self) -> None:
        # a name tabsight gives where Chromium gives none says so (name_from: a hidden label, a test id...)
        self.misnamed = [
            m
            for m in self.matches
            if not same_name(m.annotation.get("name", ""), m.node.name)
            and not (m.annotation.get("name_from") and not normalise(m.node.name))
        ]
        self.stateful = [m for m in self.matches if any(key in m.node.states for key in STATE_KEYS)]
        self.misstated = [m for m in self.stateful if state_differences(m)]

    @property
    def recall(self) -> float:
        return 1 - len(self.missed) / len(self.truth) if self.truth else 1.0

    @property
    def precision(self) -> float:
        return (len(self.matches) + len(self.roleless_matches)) / len(self.annotations) if self.annotations else 1.0

    @property
    def named_matches(self) -> list[Match]:
        """The matched pairs where Chromium's name is not empty."""
        return [m for m in self.matches if normalise(m.node.name)]

    @property
    def named(self) -> float:
        named, wrong = self.named_matches, {id(m) for m in self.misnamed}
        return 1 - sum(id(m) in wrong for m in named) / len(named) if named else 1.0

    @property
    def unmarked(self) -> list[Clickable]:
        """The role-less clickables no annotation matched."""
        matched = {id(m.node) for m in self.roleless_matches}
        return [c for c in self.roleless if id(c) not in matched]

    @property
    def roleless_marked(self) -> float:
        return len(self.roleless_matches) / len(self.roleless) if self.roleless else 1.0

    @property
    def overmarked(self) -> list[tuple[Clickable, list[dict]]]:
        """The role-less clickables with more than one annotation on them, and those annotations."""
        return [(c, marks) for c, marks in zip(self.roleless, self.marks) if len(marks) > 1]

    @property
    def names(self) -> float:
        return 1 - len(self.misnamed) / len(self.matches) if self.matches else 1.0

    @property
    def selectors(self) -> float:
        return 1 - len(self.bad_selectors) / len(self.annotations) if self.annotations else 1.0

    @property
    def states(self) -> float:
        return 1 - len(self.misstated) / len(self.stateful) if self.stateful else 1.0

    def measures(self) -> dict[str, float]:
        return {"recall": self.recall, "precision": self.precision, "names": self.names, "selectors": self.selectors}

    def failures(self) -> list[str]:
        """The targets this page misses, e.g. ``recall 0.82 < 0.95``."""
        return [
            f"{name} {value:.2f} < {TARGETS[name]:.2f}"
            for name, value in self.measures().items()
            if value < TARGETS[name]
        ]

    def as_dict(self) -> dict:
        return {
            "page": self.page,
            "truth": len(self.truth),
            "annotations": len(self.annotations),
            "total_found": self.total_found,
            **{name: round(value, 3) for name, value in self.measures().items()},
            "states": round(self.states, 3),
            "named": round(self.named, 3),
            "roleless": len(self.roleless),
            "roleless_marked": round(self.roleless_marked, 3),
            "overmarked": len(self.overmarked),
            "missed": [describe_node(node) for node in self.missed],
            "unmarked_roleless": [describe_clickable(c) for c in self.unmarked],
            "overmarked_roleless": [describe_overmarked(c, marks) for c, marks in self.overmarked],
            "extra": [describe_annotation(item) for item in self.extra],
            "misnamed": [describe_misnamed(m) for m in self.misnamed],
            "misstated": [describe_misstated(m) for m in self.misstated],
            "bad_selectors": [f"{describe_annotation(item)}: {why}" for item, why in self.bad_selectors],
        }


def normalise(name: str) -> str:
    return " ".join(PRIVATE_USE.sub(" ", name).split()).casefold()


def same_name(annotated: str, chromium: str) -> bool:
    cut = TRUNCATED.search(annotated)
    if cut:
        return normalise(chromium).startswith(normalise(annotated[: cut.start()]))
    return normalise(annotated) == normalise(chromium)


def _flag(value: Any) -> bool | str:
    """A state's value as a flag: Chromium's tristate strings and JSON booleans alike; "mixed" stays."""
    return value if value == "mixed" else value in (True, "true")


def state_differences(m: Match) -> list[str]:
    """The states (STATE_KEYS) Chromium gives the node that the annotation's ``state`` contradicts."""
    annotated = m.annotation.get("state") or {}
    return [
        f"{key} {_flag(annotated.get(key))} (Chromium {_flag(value)})"
        for key, value in m.node.states.items()
        if key in STATE_KEYS and _flag(annotated.get(key)) != _flag(value)
    ]


def box_of(annotation: dict) -> Box:
    bounds = annotation["bounds"]
    return Box(bounds["x"], bounds["y"], bounds["width"], bounds["height"])


def overlap(annotation: Box, node: AXNode | Clickable) -> float:
    """The best IoU of the annotation with the node's box or one of its labels', among those where the
    centre of one box lies in the other; 0 if none."""
    best = 0.0
    for target in (node.bounds, *getattr(node, "labels", ())):
        if annotation.contains(target.centre) or target.contains(annotation.centre):
            best = max(best, annotation.iou(target))
    return best


def inside(annotation: Box, clickable: Box) -> bool:
    """Whether the annotation lies in the clickable: INSIDE of its area, or more, within the clickable's box."""
    common = annotation.intersection(clickable)
    return common is not None and common.area >= INSIDE * annotation.area


def match(annotations: list[dict], truth: list[AXNode] | list[Clickable]) -> list[Match]:
    """One-to-one matches, greedily by IoU (see the module docstring)."""
    pairs = []
    for a, annotation in enumerate(annotations):
        box = box_of(annotation)
        for n, node in enumerate(truth):
            iou = overlap(box, node)
            if iou >= MIN_IOU:
                pairs.append((iou, a, n))
    matches, used_a, used_n = [], set(), set()
    for iou, a, n in sorted(pairs, key=lambda pair: -pair[0]):
        if a not in used_a and n not in used_n:
            used_a.add(a)
            used_n.add(n)
            matches.append(Match(annotations[a], truth[n], iou))
    return matches


def selector_problem(annotation: dict, check: dict) -> str | None:
    """Why an annotation's selector is not valid (SELECTOR_SCRIPT's finding), or None."""
    if "error" in check:
        return f"invalid selector: {check['error']}"
    if check["count"] != 1:
        return f"matches {check['count']} elements"
    rect, bounds = check["rect"], annotation["bounds"]
    off = max(abs(rect[key] - bounds[key]) for key in ("x", "y", "width", "height"))
    if off > SELECTOR_SLACK:
        shown = {key: round(rect[key]) for key in ("x", "y", "width", "height")}
        return f"its element is at {shown}, {off:.0f} px off the annotation's bounds"
    return None


def score(
    page: str,
    annotations: list[dict],
    total_found: int,
    truth: list[AXNode],
    checks: list[dict],
    roleless: list[Clickable] = (),
) -> PageScore:
    matches = match(annotations, truth)
    matched_n = {id(m.node) for m in matches}
    # a node in the same place as a matched one is the same target (a component's host with a role and the
    # native button inside it: Chromium exposes both, a click operates one thing, it is marked once)
    for node in truth:
        if id(node) not in matched_n and any(overlap(m.node.bounds, node) >= SAME_TARGET_IOU for m in matches):
            matched_n.add(id(node))
    left = [item for item in annotations if id(item) not in {id(m.annotation) for m in matches}]
    roleless = list(roleless)
    roleless_matches = match(left, roleless)
    on_clickable = {id(m.node): m.annotation for m in roleless_matches}
    marks = []
    for clickable in roleless:
        matched = on_clickable.get(id(clickable))
        marks.append(
            ([matched] if matched else [])
            + [item for item in left if item is not matched and inside(box_of(item), clickable.bounds)]
        )
    matched_a = {id(m.annotation) for m in matches + roleless_matches}
    bad = [(item, why) for item, check in zip(annotations, checks) if (why := selector_problem(item, check))]
    return PageScore(
        page,
        truth,
        annotations,
        total_found,
        matches,
        missed=[node for node in truth if id(node) not in matched_n],
        extra=[item for item in annotations if id(item) not in matched_a],
        bad_selectors=bad,
        roleless=roleless,
        roleless_matches=roleless_matches,
        marks=marks,
    )


def totals(scores: list[PageScore]) -> dict[str, float]:
    """The measures micro-averaged over the pages: each count summed over them before the division."""

    def share(part: int, whole: int) -> float:
        return part / whole if whole else 1.0

    named = [m for s in scores for m in s.named_matches]
    misnamed = sum(id(m) in {id(w) for w in s.misnamed} for s in scores for m in s.named_matches)
    return {
        "recall": share(sum(len(s.truth) - len(s.missed) for s in scores), sum(len(s.truth) for s in scores)),
        "precision": share(
            sum(len(s.matches) + len(s.roleless_matches) for s in scores), sum(len(s.annotations) for s in scores)
        ),
        "named": 1 - share(misnamed, len(named)) if named else 1.0,
        "selectors": 1 - share(sum(len(s.bad_selectors) for s in scores), sum(len(s.annotations) for s in scores)),
        "roleless_marked": share(sum(len(s.roleless_matches) for s in scores), sum(len(s.roleless) for s in scores)),
        "overmarked": sum(len(s.overmarked) for s in scores),
    }


# -- reporting ----------------------------------------------------------------------------------


def _at(bounds: dict) -> str:
    return f"({bounds['x']},{bounds['y']} {bounds['width']}x{bounds['height']})"


def describe_node(node: AXNode) -> str:
    states = " ".join(f"{key}={value}" for key, value in node.states.items() if key != "value")
    return f"{node.role} {node.name[:60]!r} {_at(node.bounds.as_dict())}{' ' + states if states else ''}"


def describe_annotation(item: dict) -> str:
    tag = f"<{item['tag']}> " if item.get("tag") else ""  # left out of an annotation when it equals the role
    return (
        f"#{item.get('label')} {tag}{item.get('role') or '-'} {str(item.get('name', ''))[:60]!r} "
        f"{_at(item['bounds'])} {item.get('selector', '')[:100]}"
    )


def describe_clickable(c: Clickable) -> str:
    hint = f" [{c.hint[:40]}]" if c.hint else ""
    return f"{c.tag} {c.text[:60]!r}{hint} {_at(c.bounds.as_dict())} ({', '.join(c.why)})"


def describe_overmarked(c: Clickable, marks: list[dict]) -> str:
    return f"{describe_clickable(c)}: {len(marks)} marks " + ", ".join(f"#{item.get('label')}" for item in marks)


def describe_misnamed(m: Match) -> str:
    return (
        f"#{m.annotation.get('label')} {m.node.role}: tabsight {str(m.annotation.get('name', ''))[:60]!r}, "
        f"Chromium {m.node.name[:60]!r}"
    )


def describe_misstated(m: Match) -> str:
    return f"#{m.annotation.get('label')} {m.node.role} {m.node.name[:40]!r}: {', '.join(state_differences(m))}"


def cells(s: PageScore) -> str:
    """A page's table cells: truth, annotations (found), the measures (✗ when under target), states."""
    measured = [f"{value:.2f}" + ("" if value >= TARGETS[name] else " ✗") for name, value in s.measures().items()]
    return f"{len(s.truth)} | {len(s.annotations)} ({s.total_found}) | {' | '.join(measured)} | {s.states:.2f}"


#: the header of a table of cells()
HEADER = "truth | annotations (found) | recall | precision | names | selectors valid | states"


def table(scores: list[PageScore]) -> str:
    lines = [f"| page | {HEADER} |", "|---|" + "---:|" * 7]
    lines += [f"| {s.page} | {cells(s)} |" for s in scores]
    return "\n".join(lines)


def report(s: PageScore) -> str:
    """What a developer needs to see about one page: its misses, extras, names and selectors."""
    lines = [f"{s.page}: {', '.join(s.failures()) or 'all targets met'}"]
    sections = (
        ("missed", [describe_node(n) for n in s.missed]),
        ("extra (no interactive node or role-less clickable there)", [describe_annotation(a) for a in s.extra]),
        ("role-less clickables not marked", [describe_clickable(c) for c in s.unmarked]),
        ("role-less clickables with more than one mark", [describe_overmarked(c, m) for c, m in s.overmarked]),
        ("names differ", [describe_misnamed(m) for m in s.misnamed]),
        ("states differ (no target)", [describe_misstated(m) for m in s.misstated]),
        ("bad selectors", [f"{describe_annotation(a)}: {why}" for a, why in s.bad_selectors]),
    )
    for title, items in sections:
        if items:
            lines.append(f"  {title} ({len(items)}):")
            lines += [f"    - {item}" for item in items]
    if s.missed:
        by_role = Counter(node.role for node in s.missed)
        lines.append("  missed by role: " + ", ".join(f"{role} {count}" for role, count in by_role.most_common()))
    if s.total_found > len(s.annotations):
        lines.append(f"  note: {s.total_found} found, only {len(s.annotations)} returned (max_annotations)")
    return "\n".join(lines)
