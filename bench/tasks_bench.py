"""Tasks on real web apps, done by a scripted agent through tabsight and through Playwright MCP: what each
costs the agent in tokens read, calls, looks and time; and what one look at a page costs on each.

    .venv/bin/python bench/tasks_bench.py [--tasks NAME ...] [--servers tabsight,playwright]
        [--no-looks | --looks-only] [--before PATH/TO/OTHER/CHECKOUT] [--repeat N] [--verbose]

Run it under the browser lock: flock /tmp/browser.lock .venv/bin/python bench/tasks_bench.py ...

The apps are npm packages served as static files on 127.0.0.1 from the repository's root:
tests/realapps/pages and unseen (tests/realapps/install.sh), bench/tasks/swagger.html (Swagger UI as a
user first meets it) and, for the looks, bench/corpus/pages (bench/corpus/install.sh). The peers and the
tokenizers come from bench/peers/install.sh.

The agent. One per server (TabsightAgent, PlaywrightAgent), with the same interface and the same task
scripts (TASKS: a task is a page, a few steps and the outcome the agent checks). For each step the agent
finds its target by role and accessible name in what the tool last showed it (``find``: the role and
the exact name, then the role and a name that contains it, then any role with that name or text, then
any role with a name that starts with it; the same rule for both), acts on it, and reads the answer. It
looks again only when it must: when it has no map of the page, when its map may be out of date, or when
the target is not in it (up to LOOK_TRIES looks). At the end it checks the task's outcome in what it
read since its last action, looking again (up to CHECK_LOOKS looks) when that does not show it. It
never reads the page any other way: the task's real
outcome is checked after it, out of band (an ``execute`` or ``browser_evaluate`` the agent does not pay
for); a task whose out-of-band check fails is lost, whatever the agent believed.

- tabsight: looks with ``observe({what:"page", annotate_screenshot:true})``, the picture taken on its
  first look and after every navigation; its other looks pass ``image: false`` when the observe schema
  has that boolean. It acts by label (``interact`` click, type with clear, select, press; an element
  listed outside the viewport by its selector). An answer that says ``unchanged`` keeps its map; an
  action answer's ``changes`` (added, changed, removed) are applied to it. After an action answer with
  neither changes nor ``navigated``, its map still holds only when the server supports changes (an
  answer of the session carried them, or observe takes ``full_map``); otherwise it looks again before
  its next step, as tabsight without them needs. It reads the JSON map and the compact one
  (``TabsightAgent.parse_map``). A text the outcome needs that it has not read since its last action is
  looked for with ``page_text``.
- Playwright MCP 0.0.83: looks with ``browser_snapshot``, acts by ref (``browser_click``, ``browser_type``,
  ``browser_select_option``, ``browser_press_key``). Its action answers write the new snapshot to a
  file and give its link (a snapshot in the answer itself would be read); refs stay valid while their
  element lives, so the agent acts on its last snapshot's refs and snapshots again when a target is
  not in it, when an action fails, and to check the outcome. An element given no ref (a control whose
  label takes its clicks) is acted on through the ref of what is beside or around it and shows just its
  name (``parse_snapshot``).

Both agents: ``select`` on a control that is no native select falls back to clicking it and clicking the
option; an action that errors is retried once after a fresh look.

Measured per task and server (issue on tokens): the tokens of every content block of every answer the
agent receives, error answers too (bench/tokencount.py: text the worse of characters/4 and the real
tokenizers, one ``count`` call for the whole run; each image at ``image_tokens(w, h)``, after Claude's
downscaling); the calls; the looks (observe, browser_snapshot); the wall time from the navigation to the
outcome check, without the server's start and the out-of-band steps (the wait until the page is quiet
after navigating, the final check); and whether the task was lost. A fresh server for each task, its
browser started (an out-of-band navigation to about:blank) before the clock starts.
Targets: tabsight's tokens at most 0.8x Playwright's, its calls at most Playwright's, its time at most 0.6x.

"One look": for each page of bench/corpus/pages and each task's page, the tokens of tabsight's default
look (its image and text) against Playwright's ``browser_snapshot`` answer, each after navigating and
the same wait until the page is quiet (harness.axtree.QUIET_SCRIPT). Targets: the geometric mean of the
ratios at most 0.8, no page above 1.5.

``--before PATH`` also runs the tabsight agent with PATH/.venv/bin/python (another checkout's tabsight),
as "tabsight (before)", for before and after in one run. Results: markdown tables on stdout, and
bench/results/tasks.json.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import math
import re
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult
from PIL import Image

import tokencount
from common import (
    CHROMIUM,
    PEERS_INSTALL,
    PLAYWRIGHT_MCP,
    Failed,
    describe,
    playwright_server,
    tabsight_server,
    text_of,
    workspace,
)
from harness.axtree import QUIET_SCRIPT
from harness.calls import json_block, unmarked
from harness.realapps import missing_bundles
from harness.servers import serve_folder
from toollist_bench import tool_list, weigh as weigh_tools

ROOT = Path(__file__).resolve().parent.parent
CORPUS_PAGES = ROOT / "bench" / "corpus" / "pages"
RESULTS = Path(__file__).resolve().parent / "results" / "tasks.json"
#: looks an agent takes, at most, to find one target; to check the outcome
LOOK_TRIES = 3
CHECK_LOOKS = 2
#: seconds between two looks for the same target (a menu still opening)
RELOOK_PAUSE = 0.3
#: page_text asked for when the agent must read a text the outcome needs
PAGE_TEXT = 2000
TARGETS = {"tokens": 0.8, "calls": 1.0, "wall": 0.6, "look_geomean": 0.8, "look_max": 1.5}

# -- the tasks, as data ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One thing the agent does: ``do`` on the element of this role and name (the nth such, from 0)."""

    do: str  # click | fill | check | select | press
    role: str = ""
    name: str = ""
    #: fill: the text; select: the option; press: the key
    text: str = ""
    submit: bool = False
    #: check: the state wanted
    checked: bool = True
    nth: int = 0


def click(role: str, name: str, nth: int = 0) -> Step:
    return Step("click", role, name, nth=nth)


def fill(role: str, name: str, text: str, submit: bool = False) -> Step:
    return Step("fill", role, name, text, submit)


def check(role: str, name: str, checked: bool = True) -> Step:
    return Step("check", role, name, checked=checked)


def select(role: str, name: str, option: str) -> Step:
    return Step("select", role, name, option)


def press(key: str) -> Step:
    return Step("press", text=key)


@dataclass(frozen=True)
class Expect:
    """What the agent checks at the end, in what it read: an element (with these states), an element gone,
    a text shown, the URL."""

    kind: str  # element | gone | text | url
    role: str = ""
    name: str = ""
    state: tuple[tuple[str, Any], ...] = ()
    text: str = ""


def element(role: str, name: str, **state: Any) -> Expect:
    return Expect("element", role, name, tuple(state.items()))


def gone(role: str, name: str) -> Expect:
    return Expect("gone", role, name)


def shows(text: str) -> Expect:
    return Expect("text", text=text)


def url_has(fragment: str) -> Expect:
    return Expect("url", text=fragment)


@dataclass(frozen=True)
class Task:
    name: str
    app: str
    #: the page, from the repository's root
    page: str
    steps: tuple[Step, ...]
    expect: tuple[Expect, ...]
    #: a JavaScript expression, true when the task is really done (run out of band)
    verify: str


REALAPPS = "tests/realapps/pages/"
UNSEEN = "tests/realapps/unseen/"

TASKS = (
    Task(
        "todomvc-add",
        "TodoMVC (Vue)",
        REALAPPS + "todomvc.html",
        (
            fill("textbox", "What needs to be done?", "buy milk", submit=True),
            fill("textbox", "What needs to be done?", "call mom", submit=True),
            click("link", "Active"),
        ),
        (shows("buy milk"), shows("call mom"), url_has("#/active")),
        "location.hash === '#/active' && ['buy milk', 'call mom'].every(title => "
        "[...document.querySelectorAll('#todo-list li label')].some(label => label.textContent.trim() === title))",
    ),
    Task(
        "todomvc-clear",
        "TodoMVC (AngularJS)",
        UNSEEN + "todomvc-angularjs.html",
        (
            check("checkbox", "Mark all as complete"),
            click("link", "Completed"),
            click("button", "Clear completed"),
        ),
        (url_has("#/completed"), gone("button", "Clear completed")),
        "location.hash === '#/completed' && JSON.parse(localStorage.getItem('todos-angularjs') || '[1]').length === 0",
    ),
    Task(
        "swagger-try",
        "Swagger UI",
        "bench/tasks/swagger.html",
        (
            click("button", "GET /pets/{petId}"),
            click("button", "Try it out"),
            fill("textbox", "petId", "p-123"),
        ),
        (element("textbox", "petId", value="p-123"), element("button", "Execute")),
        "(() => { const op = document.querySelector('#operations-pets-showPetById');"
        " return !!op && op.classList.contains('is-open') && !!op.querySelector('.try-out__btn.cancel')"
        " && op.querySelector('input[placeholder=petId]')?.value === 'p-123'; })()",
    ),
    Task(
        "jsoneditor-code",
        "JSONEditor",
        REALAPPS + "jsoneditor.html",
        (click("button", "Tree ▾"), click("button", "Code")),
        (element("button", "Code ▾"),),
        "!!document.querySelector('.jsoneditor-mode-code')",
    ),
    Task(
        "shoelace-request",
        "Shoelace",
        REALAPPS + "shoelace.html",
        (
            fill("textbox", "Title", "Printer jam"),
            select("combobox", "Team", "Platform"),
            click("radio", "Urgent"),
            check("switch", "Notify me by email", checked=False),
            check("checkbox", "I have read the guidelines"),
        ),
        (
            element("radio", "Urgent", checked=True),
            element("switch", "Notify me by email", checked=False),
            element("checkbox", "I have read the guidelines", checked=True),
        ),
        "(() => { const $ = s => document.querySelector(s); return $('sl-input[name=title]').value === 'Printer jam'"
        " && $('sl-select[name=team]').value === 'platform' && $('sl-radio-group[name=priority]').value === 'urgent'"
        " && !$('sl-switch[name=notify]').checked && $('sl-checkbox[name=terms]').checked; })()",
    ),
    Task(
        "bootstrap-settings",
        "Bootstrap",
        REALAPPS + "bootstrap.html",
        (
            fill("textbox", "Email address", "ada@example.com"),
            select("combobox", "Language", "Deutsch"),
            check("switch", "Dark mode"),
            click("button", "API keys"),
        ),
        (element("switch", "Dark mode", checked=True), element("button", "API keys", expanded=True)),
        "(() => { const $ = s => document.querySelector(s); return $('#email').value === 'ada@example.com'"
        " && $('#language').selectedOptions[0].text === 'Deutsch' && $('#darkMode').checked"
        " && $('#apiKeys').classList.contains('show'); })()",
    ),
    Task(
        "ionic-settings",
        "Ionic",
        UNSEEN + "ionic.html",
        (
            click("tab", "Grid"),
            fill("textbox", "Name", "Ada"),
            check("switch", "Notifications"),
        ),
        (element("tab", "Grid", selected=True), element("switch", "Notifications", checked=True)),
        "(() => { const $ = s => document.querySelector(s); return $('#view').value === 'grid'"
        " && $('#name').value === 'Ada' && $('#notifications').checked; })()",
    ),
    Task(
        "naive-plan",
        "Naive UI",
        UNSEEN + "naive.html",
        (click("option", "Team"), click("tab", "Billing"), click("button", "3")),
        (shows("Billing settings"),),
        "(() => { const $ = s => document.querySelector(s);"
        " return $('#plan .n-base-selection-label')?.textContent.trim() === 'Team'"
        " && $('.n-tabs-tab--active')?.textContent.trim() === 'Billing'"
        " && $('#pager .n-pagination-item--active')?.textContent.trim() === '3'; })()",
    ),
    Task(
        "blueprint-tree",
        "Blueprint",
        UNSEEN + "blueprint.html",
        # the last folder first: the first "Expand group" is then the same folder's whether the agent's map
        # shows the first one renamed "Collapse group" or not
        (click("button", "Expand group", nth=2), click("button", "Expand group", nth=0)),
        (shows("unit.test.ts"), shows("app.tsx")),
        "['unit.test.ts', 'app.tsx'].every(file => [...document.querySelectorAll('.bp6-tree-node-label')]"
        ".some(label => label.textContent.trim() === file))",
    ),
    Task(
        "material-account",
        "Material Web",
        UNSEEN + "material.html",
        (
            click("tab", "Billing"),
            click("radio", "Business"),
            fill("textbox", "Full name", "Ada Lovelace"),
        ),
        (element("radio", "Business", checked=True),),
        "(() => { const $ = s => document.querySelector(s); return $('#tab-billing').active"
        " && $('#type-business').checked && $('#full-name').value === 'Ada Lovelace'; })()",
    ),
    Task(
        "fluent-signup",
        "Fluent UI",
        UNSEEN + "fluent.html",
        (check("checkbox", "I agree to the terms"), click("link", "Read the terms")),
        (url_has("#terms"),),
        "location.hash === '#terms' && document.querySelector('#agree').checked",
    ),
)

# -- what the agent knows of a page, and how it finds a target in it ---------------------------------


@dataclass
class Element:
    """One element as the agent read it: role, name, what else it shows (a value, its text), its states, and
    how to act on it (the tool's arguments that name it)."""

    role: str
    name: str
    text: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    handle: dict[str, Any] = field(default_factory=dict)


INVISIBLE = re.compile("[\u200b-\u200f\u2060\ufeff\ue000-\uf8ff]")
TRUNCATED = re.compile(r"… \[truncated: \d+ chars\]$")


def norm(text: str) -> str:
    """A name as the agent compares it: without invisible characters, a truncation mark, case and extra space."""
    return " ".join(INVISIBLE.sub("", TRUNCATED.sub("", text or "")).split()).casefold()


def find(elements: list[Element], role: str, name: str, nth: int = 0) -> Element | None:
    """The nth element of this role and name, by the first rule that finds one: the role and the exact name;
    the role and a name that contains it; any role whose name or text is it (a library that gives the
    control no role, or its name to its label); any role with a name that starts with it. The same rule
    for every agent."""
    want = norm(name)

    def named(item: Element) -> list[str]:
        return [norm(item.name), norm(item.text)]

    rules = (
        lambda item: item.role == role and norm(item.name) == want,
        lambda item: item.role == role and want in norm(item.name),
        lambda item: want in named(item),
        lambda item: norm(item.name).startswith(want),
    )
    for rule in rules:
        hits = [item for item in elements if item.handle and rule(item)]
        if len(hits) > nth:
            return hits[nth]
    return None


# -- an agent's run: what it paid ------------------------------------------------------------------


@dataclass
class Run:
    task: str
    server: str
    calls: int = 0
    looks: int = 0
    texts: list[str] = field(default_factory=list)
    images: list[tuple[int, int]] = field(default_factory=list)
    wall: float = 0.0
    #: what the agent concluded: None when it did all steps and saw the outcome, else why not
    agent_error: str | None = None
    #: the out-of-band check: True when the task is really done
    verified: bool = False
    text_tokens: int = 0
    image_tokens: int = 0

    @property
    def lost(self) -> bool:
        return not self.verified

    @property
    def tokens(self) -> int:
        return self.text_tokens + self.image_tokens


def image_size(data: str) -> tuple[int, int]:
    with Image.open(io.BytesIO(base64.b64decode(data))) as picture:
        return picture.size


class Agent:
    """The scripted agent, whatever the server: its steps, targets and checks; a subclass says how it looks,
    acts and reads answers on its server."""

    server = ""

    def __init__(self, client: Client, run: Run, verbose: bool = False) -> None:
        self.client = client
        self.run = run
        self.verbose = verbose
        self.elements: list[Element] = []
        #: "none": no map; "fresh": the page as the map says; "usable": acted on since, its handles hold;
        #: "stale": acted on since, the map can no longer be trusted
        self.map = "none"
        self.url = ""
        #: what the agent read since its last action (the outcome is looked for there)
        self.read: list[str] = []
        self.offband = 0.0

    # -- calls ----------------------------------------------------------------------------------

    async def call(self, tool: str, arguments: dict[str, Any], look: bool = False) -> CallToolResult:
        """A call the agent makes and pays for: every content block of its answer is counted."""
        started = time.perf_counter()
        result = await self.client.call_tool(tool, arguments)
        took = time.perf_counter() - started
        self.run.calls += 1
        self.run.looks += look
        if not look:
            self.read = []  # an action: what was read before it says nothing of the outcome
        for block in result.content:
            if block.type == "text":
                self.run.texts.append(block.text)
                self.read.append(block.text)
            elif block.type == "image":
                self.run.images.append(image_size(block.data))
        if self.verbose:
            shown = {key: value for key, value in arguments.items() if key != "script"}
            print(f"  [{self.server}] {took:.2f} s {tool} {json.dumps(shown)[:200]}", file=sys.stderr)
            print(f"    -> {'ERROR ' if result.is_error else ''}{text_of(result)[:1500]}", file=sys.stderr)
        return result

    async def offband_call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        """A call the harness makes (not the agent): neither counted nor timed."""
        started = time.perf_counter()
        try:
            return await self.client.call_tool(tool, arguments)
        finally:
            self.offband += time.perf_counter() - started

    # -- a task ---------------------------------------------------------------------------------

    async def do(self, task: Task, url: str) -> None:
        await self.warm_up()
        self.offband = 0.0
        started = time.perf_counter()
        try:
            await self.navigate(url)
            await self.quiet()
            for step in task.steps:
                await self.step(step)
            missing = await self.check(task.expect)
            if missing:
                self.run.agent_error = "the outcome it read lacks: " + "; ".join(missing)
        except Failed as error:
            self.run.agent_error = str(error)
        finally:
            self.run.wall = time.perf_counter() - started - self.offband
        await self.quiet()  # the page's own transitions finished (a Bootstrap collapse takes 350 ms), out of band
        self.run.verified = await self.verify(task.verify)

    async def step(self, step: Step) -> None:
        if step.do == "press":
            await self.act(step, None)
            return
        target = await self.target(step)
        if step.do == "check" and bool(target.state.get("checked")) == step.checked:
            return
        try:
            await self.act(step, target)
        except Failed:
            if step.do == "select":
                await self.select_by_clicks(step)
                return
            # once more, on a fresh look: the map may have been out of date
            await self.act(step, await self.target(step, fresh=True))

    async def select_by_clicks(self, step: Step) -> None:
        """A select the tool could not make (no native select): the option clicked, after clicking the control
        open when a fresh look does not show the option."""
        option = click("option", step.text)
        found = await self.seek(option, looks=1, fresh=True)
        if found is None:
            await self.act(click(step.role, step.name), await self.target(step))
            found = await self.target(option)
        await self.act(option, found)

    async def target(self, step: Step, fresh: bool = False) -> Element:
        found = await self.seek(step, LOOK_TRIES, fresh)
        if found is None:
            raise Failed(f"{step.do} {step.role} {step.name!r}: not in what {self.server} showed")
        return found

    async def seek(self, step: Step, looks: int, fresh: bool = False) -> Element | None:
        """The step's element in the map, looking again when the map is out of date or lacks it (at most
        ``looks`` looks)."""
        looked = 0
        if fresh or self.map in ("none", "stale"):
            await self.look()
            looked += 1
        found = find(self.elements, step.role, step.name, step.nth)
        while found is None and looked < looks:
            if looked:
                await anyio.sleep(RELOOK_PAUSE)
            await self.look()
            looked += 1
            found = find(self.elements, step.role, step.name, step.nth)
        return found

    async def check(self, expect: tuple[Expect, ...]) -> list[str]:
        """What the outcome lacks in what the agent read (empty: done), looking again when it must."""
        wants_text = any(item.kind == "text" for item in expect)
        for attempt in range(CHECK_LOOKS):
            missing = [self.describe(item) for item in expect if not self.holds(item)]
            if not missing:
                return []
            if attempt > 0:
                await anyio.sleep(RELOOK_PAUSE)
            await self.look(page_text=wants_text)
        return [self.describe(item) for item in expect if not self.holds(item)]

    def holds(self, item: Expect) -> bool:
        if item.kind == "url":
            return item.text in self.url
        if item.kind == "text":
            want = norm(item.text)
            return any(want in norm(text) for text in self.read) or any(
                want in norm(e.name) or want in norm(e.text) for e in self.elements if self.map == "fresh"
            )
        if self.map != "fresh":
            return False
        found = find(self.elements, item.role, item.name)
        if item.kind == "gone":
            return found is None
        return found is not None and all(found.state.get(key, False) == value for key, value in item.state)

    @staticmethod
    def describe(item: Expect) -> str:
        if item.kind in ("text", "url"):
            return f"{item.kind} {item.text!r}"
        states = "".join(f" {key}={value}" for key, value in item.state)
        return f"{item.kind} {item.role} {item.name!r}{states}"

    # -- per server -----------------------------------------------------------------------------

    async def start(self) -> None:
        """What the agent learns from the server before its task."""

    async def warm_up(self) -> None:
        """Out of band, before the task: the server's browser started (part of the server's start)."""
        raise NotImplementedError

    async def navigate(self, url: str) -> None:
        raise NotImplementedError

    async def quiet(self) -> None:
        raise NotImplementedError

    async def look(self, page_text: bool = False) -> None:
        raise NotImplementedError

    async def act(self, step: Step, target: Element | None) -> None:
        raise NotImplementedError

    async def verify(self, expression: str) -> bool:
        raise NotImplementedError


# -- tabsight ----------------------------------------------------------------------------------------


def json_answer(result: CallToolResult) -> dict[str, Any]:
    """The JSON object an answer carries (not its _notes or _alerts block); {} when there is none."""
    return json_block(result) or {}


def annotation(item: dict[str, Any]) -> Element:
    """One element of tabsight's map: by its label, or by its selector when it is outside the viewport."""
    state = dict(item.get("state") or {})
    text = item.get("text") or state.get("value") or ""
    handle = {"label": item["label"]} if item.get("label") else {"selector": item.get("selector")}
    return Element(item.get("role") or "", item.get("name") or "", str(text), state, handle)


COMPACT_LINE = re.compile(r"(\d+) (\S+) ")
OUTSIDE_LINE = re.compile(r"  (\S+) ")


def compact_item(line: str) -> dict[str, Any] | None:
    """One line of the compact form (``label role "name" (facts)``, a selector after it before tabsight dropped it;
    or an outside-the-viewport line, ``role "name" (facts) selector``) as a JSON map's entry; None for any other
    line."""
    decoder = json.JSONDecoder()
    head = COMPACT_LINE.match(line) or OUTSIDE_LINE.match(line)
    if not head:
        return None
    label = int(head.group(1)) if head.re is COMPACT_LINE else None
    role = head.group(head.re.groups)
    at = head.end()
    try:
        name, at = decoder.raw_decode(line, at)
    except ValueError:
        return None
    if not isinstance(name, str):
        return None  # "14 of 14 found, ..."
    state: dict[str, Any] = {}
    if line.startswith(" (", at):
        at += 2
        while at < len(line) and line[at] != ")":
            key = re.match(r"[a-z_]+", line[at:]).group(0)
            at += len(key)
            if line.startswith("=", at):
                state[key], at = decoder.raw_decode(line, at + 1)
            else:
                state[key] = True
            at += line[at] == " "
        at += 1
    selector = line[at:].strip()
    text = state.pop("text", None) or state.get("value") or ""
    for fact in ("name_from", "hint"):
        state.pop(fact, None)
    item = {"label": label, "role": "" if role == "-" else role, "name": name, "selector": selector}
    return item | {"state": state, "text": text}


class TabsightAgent(Agent):
    server = "tabsight"

    def __init__(self, client: Client, run: Run, verbose: bool = False) -> None:
        super().__init__(client, run, verbose)
        self.with_image = True
        self.image_flag = False
        self.full_map_flag = False
        self.changes_seen = False

    async def start(self) -> None:
        """What the agent learns from the server's tool list (listing is free: the client did it anyway)."""
        tools = await self.client.list_tools()
        observe = next(tool for tool in tools.tools if tool.name == "observe")
        properties = observe.input_schema.get("properties", {})
        self.image_flag = properties.get("image", {}).get("type") == "boolean"
        self.full_map_flag = "full_map" in properties

    @property
    def supports_changes(self) -> bool:
        return self.changes_seen or self.full_map_flag

    async def warm_up(self) -> None:
        await self.offband_call("interact", {"action": "navigate", "url": "about:blank"})

    async def navigate(self, url: str) -> None:
        await self.interact({"action": "navigate", "url": url})
        self.with_image = True

    async def quiet(self) -> None:
        await self.execute(f"return await {QUIET_SCRIPT}")

    async def look(self, page_text: bool = False) -> None:
        arguments: dict[str, Any] = {"what": "page", "annotate_screenshot": True}
        if not self.with_image and self.image_flag:
            arguments["image"] = False
        if page_text:
            arguments["page_text"] = PAGE_TEXT
        result = await self.call("observe", arguments, look=True)
        if result.is_error:
            raise Failed(f"observe: {text_of(result)[:300]}")
        self.with_image = False
        text = next(
            (
                unmarked(block.text)
                for block in result.content
                if block.type == "text" and not block.text.startswith(('{"_notes"', "_alerts"))
            ),
            "",
        )
        found = self.parse_map(text)
        if found["elements"] is not None:
            self.elements = found["elements"]
        self.url = found["url"] or self.url
        self.map = "fresh"

    @staticmethod
    def parse_map(text: str) -> dict[str, Any]:
        """An observe answer's page: its url and elements (None when it says the page is unchanged), from the
        JSON form or the compact one (a line per element: label role "name" (facts), with its selector before
        tabsight dropped it; then the elements outside the viewport, a line each: role "name" selector)."""

        if text.lstrip().startswith("{"):
            data = json.loads(text)
            url = (data.get("page") or {}).get("url", "")
            if isinstance(data.get("unchanged"), str) and "annotations" not in data:
                return {"url": url, "elements": None}
            elements = [annotation(item) for item in data.get("annotations", [])]
            for side in (data.get("outside_viewport") or {}).values():
                if isinstance(side, dict):
                    elements += [annotation(item) for item in side.get("elements", [])]
            return {"url": url, "elements": elements}

        lines = text.splitlines()
        at = re.search(r" (\S+) viewport \d+x\d+ ", lines[0]) if lines and lines[0].startswith("page ") else None
        url = at.group(1) if at else ""
        if any(line.startswith("unchanged") for line in lines[:3]):
            return {"url": url, "elements": None}
        elements = []
        for line in lines[1:]:
            if line.startswith("page text:"):
                break
            item = compact_item(line)
            if item is not None:
                elements.append(annotation(item))
        return {"url": url, "elements": elements}

    async def act(self, step: Step, target: Element | None) -> None:
        arguments: dict[str, Any] = dict(target.handle) if target else {}
        if step.do in ("click", "check"):
            arguments["action"] = "click"
        elif step.do == "fill":
            arguments |= {"action": "type", "text": step.text, "clear": True, "submit": step.submit}
        elif step.do == "select":
            arguments |= {"action": "select", "value": step.text}
        elif step.do == "press":
            arguments |= {"action": "press", "key": step.text}
        await self.interact(arguments)

    async def interact(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """An interact call of the agent's, its answer read into the map."""
        result = await self.call("interact", arguments)
        if result.is_error:
            if self.map != "none":
                self.map = "stale"
            raise Failed(f"interact {arguments.get('action')}: {text_of(result)[:300]}")
        answer = json_answer(result)
        self.url = answer.get("url", self.url)
        changes = answer.get("changes")
        if answer.get("navigated") is True:
            self.map, self.with_image = "none", True
        elif isinstance(changes, dict):
            self.changes_seen = True
            self.apply(changes)
        elif changes == "none":  # nothing changed in the map: it still shows the page
            self.changes_seen = True
        if isinstance(answer.get("label_now"), dict) and answer.get("navigated") is not True:
            state = self.map  # what the action made of its own target; the map is no fresher for it
            self.apply({"changed": [answer["label_now"]]})
            self.map = state
        elif self.map != "none":
            self.map = "fresh" if self.supports_changes else "stale"
        return answer

    def apply(self, changes: dict[str, Any]) -> None:
        """An action answer's changes, applied to the map (which then shows the page as it is)."""
        by_label = {item.handle.get("label"): item for item in self.elements if "label" in item.handle}
        removed = set(changes.get("removed") or [])
        # in the map's own form: JSON entries, or the compact form's lines
        entries = {
            kind: [compact_item(entry) if isinstance(entry, str) else entry for entry in changes.get(kind) or []]
            for kind in ("added", "changed")
        }
        for item in entries["changed"]:
            old = by_label.get(item.get("label"))
            if old is None:
                continue
            old.name = item.get("name", old.name)
            if "state" in item:
                old.state = dict(item["state"] or {})
            old.text = str(item.get("text") or old.state.get("value") or old.text)
        self.elements = [item for item in self.elements if item.handle.get("label") not in removed]
        self.elements += [annotation(item) for item in entries["added"] if item]
        if self.map != "none":
            # changes left out ("more") leave a map to act on, not one that shows the outcome
            self.map = "usable" if changes.get("more") else "fresh"

    async def execute(self, script: str) -> Any:
        result = await self.offband_call("interact", {"action": "execute", "script": script})
        outcome = json_answer(result).get("script", {})
        if result.is_error or "result" not in outcome:
            raise Failed(f"execute: {text_of(result)[:300]}")
        return outcome["result"]

    async def verify(self, expression: str) -> bool:
        try:
            return await self.execute(f"return ({expression});") is True
        except Failed:
            return False


# -- Playwright MCP ----------------------------------------------------------------------------------

SNAPSHOT = re.compile(r"### Snapshot\n```yaml\n(.*?)\n```", re.DOTALL)
PAGE_URL = re.compile(r"^- Page URL: (\S+)", re.MULTILINE)
#: a snapshot line (after "- " and any YAML quoting): role, "name", [attributes], : value
NODE = re.compile(
    r'^(?P<role>[^\s":\[]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)(?::(?: (?P<value>.*))?)?$'
)
ATTR = re.compile(r"\[([^\]=]+)(?:=([^\]]*))?\]")
STATE_KEYS = ("checked", "expanded", "selected", "pressed", "disabled")
#: roles whose missing [checked] means unchecked; roles whose text is their value
TOGGLES = ("checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio")
FIELDS = ("textbox", "searchbox", "combobox", "slider", "spinbutton")


def parse_snapshot(yaml: str) -> list[Element]:
    """Playwright's aria snapshot as elements: each line's role, name, what it shows (its value, or the text
    of its children that have no ref of their own), its states, and the ref to act on: its own; for one
    without (a control whose label takes its clicks), the ref of the element beside it or around it that
    shows just its name."""
    nodes: list[dict[str, Any]] = []
    stack: list[tuple[int, dict[str, Any]]] = []
    for line in yaml.splitlines():
        stripped = line.lstrip(" ")
        if not stripped.startswith("- "):
            continue
        depth, body = len(line) - len(stripped), stripped[2:]
        if body.startswith("'") and body.rstrip(":").endswith("'"):  # YAML's single quotes
            body = body.rstrip(":")[1:-1].replace("''", "'") + (":" if body.endswith(":") else "")
        match = NODE.match(body)
        if not match or match.group("role").startswith("/"):
            continue  # /url, /placeholder: properties
        while stack and stack[-1][0] >= depth:
            stack.pop()
        value = (match.group("value") or "").strip()
        if value.startswith('"'):
            value = json.loads(value)
        name = match.group("name") or ""
        node = {
            "role": match.group("role"),
            "name": json.loads(f'"{name}"') if name else "",
            "value": value,
            "attrs": {key: found or True for key, found in ATTR.findall(match.group("attrs") or "")},
            "parent": stack[-1][1] if stack else None,
            "children": [],
        }
        if node["parent"] is not None:
            node["parent"]["children"].append(node)
        nodes.append(node)
        stack.append((depth, node))

    def shown(node: dict[str, Any]) -> str:
        """What it shows besides its name: its value, else its children's (those without a ref)."""
        return node["value"] or " ".join(
            filter(None, (content(child) for child in node["children"] if "ref" not in child["attrs"]))
        )

    def content(node: dict[str, Any]) -> str:
        return node["value"] if node["role"] == "text" else node["name"] or shown(node)

    def ref(node: dict[str, Any]) -> str | None:
        if "ref" in node["attrs"]:
            return node["attrs"]["ref"]
        name, parent = norm(content(node)), node["parent"]
        if not name or parent is None:
            return None
        for sibling in parent["children"]:
            if "ref" in sibling["attrs"] and norm(content(sibling)) == name:
                return sibling["attrs"]["ref"]
        while parent is not None and "ref" not in parent["attrs"]:
            parent = parent["parent"]
        return parent["attrs"]["ref"] if parent is not None and norm(content(parent)) == name else None

    elements = []
    for node in nodes:
        if node["role"] == "text":
            continue
        state = {key: node["attrs"][key] for key in STATE_KEYS if key in node["attrs"]}
        if node["role"] in TOGGLES:
            state.setdefault("checked", False)
        if node["role"] in FIELDS and shown(node):
            state["value"] = shown(node)
        target = ref(node)
        elements.append(Element(node["role"], node["name"], shown(node), state, {"target": target} if target else {}))
    return elements


class PlaywrightAgent(Agent):
    server = "Playwright MCP"

    async def warm_up(self) -> None:
        await self.offband_call("browser_navigate", {"url": "about:blank"})

    async def navigate(self, url: str) -> None:
        await self.action("browser_navigate", {"url": url})
        self.map = "none"

    async def quiet(self) -> None:
        await self.evaluate(QUIET_SCRIPT)

    async def look(self, page_text: bool = False) -> None:
        result = await self.call("browser_snapshot", {}, look=True)
        if result.is_error:
            raise Failed(f"browser_snapshot: {text_of(result)[:300]}")
        self.read_answer(text_of(result))
        if self.map != "fresh":
            raise Failed("browser_snapshot: no snapshot in the answer")

    def read_answer(self, text: str) -> None:
        """An answer's page URL, and its snapshot when it carries one (the map is then fresh)."""
        if found := PAGE_URL.search(text):
            self.url = found.group(1)
        if found := SNAPSHOT.search(text):
            self.elements = parse_snapshot(found.group(1))
            self.map = "fresh"

    async def act(self, step: Step, target: Element | None) -> None:
        handle = dict(target.handle) if target else {}
        described = {"element": f'{step.role} "{step.name}"'} if target else {}
        if step.do in ("click", "check"):
            await self.action("browser_click", described | handle)
        elif step.do == "fill":
            await self.action("browser_type", described | handle | {"text": step.text, "submit": step.submit})
        elif step.do == "select":
            await self.action("browser_select_option", described | handle | {"values": [step.text]})
        elif step.do == "press":
            await self.action("browser_press_key", {"key": step.text})

    async def action(self, tool: str, arguments: dict[str, Any]) -> None:
        result = await self.call(tool, arguments)
        if self.map == "fresh":
            self.map = "usable"
        if result.is_error:
            raise Failed(f"{tool}: {text_of(result)[:300]}")
        self.read_answer(text_of(result))

    async def evaluate(self, expression: str) -> str:
        result = await self.offband_call("browser_evaluate", {"function": f"() => ({expression})"})
        text = text_of(result)
        if result.is_error or "### Result" not in text:
            raise Failed(f"browser_evaluate: {text[:300]}")
        return text.split("### Result\n", 1)[1].split("\n###", 1)[0].strip()

    async def verify(self, expression: str) -> bool:
        try:
            return await self.evaluate(expression) == "true"
        except Failed:
            return False


# -- the servers, and running the tasks on them -------------------------------------------------------


@dataclass
class Server:
    name: str
    agent: type[Agent]
    #: the server's parameters, given the run's workspace folder
    params: Any


def servers(args: argparse.Namespace, workdir: Path) -> list[Server]:
    chosen = [name.strip() for name in args.servers.split(",")]
    found = []
    if "tabsight" in chosen:
        found.append(
            Server("tabsight", TabsightAgent, lambda runtime: tabsight_server(runtime, args.chromium, linger=0.5))
        )
        if args.before:
            python = str(Path(args.before).resolve() / ".venv" / "bin" / "python")
            found.append(
                Server(
                    "tabsight (before)",
                    TabsightAgent,
                    lambda runtime: tabsight_server(runtime, args.chromium, linger=0.5, python=python),
                )
            )
    if "playwright" in chosen:
        if not Path(args.playwright_mcp).is_file():
            raise SystemExit(f"{args.playwright_mcp} not found; install the peers: {PEERS_INSTALL}")
        found.append(
            Server(
                "Playwright MCP",
                PlaywrightAgent,
                lambda runtime: playwright_server(args.playwright_mcp, args.chromium, workdir / "pw"),
            )
        )
    return found


def fresh_runtime(workdir: Path) -> Path:
    """A private runtime folder of its own for each tabsight server started."""
    for number in range(1, 10_000):
        runtime = workdir / f"runtime-{number}"
        if not runtime.exists():
            runtime.mkdir(mode=0o700)
            return runtime
    raise RuntimeError("no free runtime folder")


async def run_task(server: Server, task: Task, base_url: str, workdir: Path, verbose: bool) -> Run:
    run = Run(task.name, server.name)
    if verbose:
        print(f"{task.name} on {server.name}", file=sys.stderr)
    try:
        async with Client(server.params(fresh_runtime(workdir)), read_timeout_seconds=60) as client:
            agent = server.agent(client, run, verbose)
            agent.server = server.name
            await agent.start()
            await agent.do(task, base_url + task.page)
    except Exception as error:  # noqa: BLE001 -- the task is lost, the others still run
        run.agent_error = run.agent_error or describe(error)
    return run


def count_tokens(runs: list[Run]) -> None:
    """Every run's text and image tokens, the texts of all runs counted in one batch."""
    counted = iter(tokencount.count([text for run in runs for text in run.texts]))
    for run in runs:
        run.text_tokens = sum(next(counted) for _ in run.texts)
        run.image_tokens = sum(tokencount.image_tokens(width, height) for width, height in run.images)


# -- one look at a page ---------------------------------------------------------------------------------


async def tabsight_looks(server: Server, pages: list[str], base_url: str, workdir: Path) -> dict[str, Any]:
    """Per page, the texts and image sizes of tabsight's default look, after navigating and the quiet wait."""
    found: dict[str, Any] = {}
    async with Client(server.params(fresh_runtime(workdir)), read_timeout_seconds=60) as client:
        for page in pages:
            try:
                for arguments in (
                    {"action": "navigate", "url": base_url + page},
                    {"action": "execute", "script": f"return await {QUIET_SCRIPT}"},
                ):
                    result = await client.call_tool("interact", arguments)
                    if result.is_error:
                        raise Failed(f"interact {arguments['action']}: {text_of(result)[:300]}")
                result = await client.call_tool("observe", {"what": "page", "annotate_screenshot": True})
                if result.is_error:
                    raise Failed(f"observe: {text_of(result)[:300]}")
                found[page] = {
                    "texts": [block.text for block in result.content if block.type == "text"],
                    "images": [image_size(block.data) for block in result.content if block.type == "image"],
                }
            except Exception as error:  # noqa: BLE001 -- that page's row says so
                found[page] = {"error": describe(error)}
    return found


async def playwright_looks(server: Server, pages: list[str], base_url: str, workdir: Path) -> dict[str, Any]:
    """Per page, the text of Playwright's browser_snapshot answer after navigating and the same wait."""
    found: dict[str, Any] = {}
    async with Client(server.params(workdir), read_timeout_seconds=60) as client:
        for page in pages:
            try:
                for name, arguments in (
                    ("browser_navigate", {"url": base_url + page}),
                    ("browser_evaluate", {"function": f"() => {QUIET_SCRIPT}"}),
                ):
                    result = await client.call_tool(name, arguments)
                    if result.is_error:
                        raise Failed(f"{name}: {text_of(result)[:300]}")
                result = await client.call_tool("browser_snapshot", {})
                if result.is_error:
                    raise Failed(f"browser_snapshot: {text_of(result)[:300]}")
                found[page] = {"texts": [block.text for block in result.content if block.type == "text"], "images": []}
            except Exception as error:  # noqa: BLE001 -- that page's row says so
                found[page] = {"error": describe(error)}
    return found


def look_tokens(looks: dict[str, dict[str, Any]]) -> None:
    """Each look's text, image and total tokens, in place (its texts counted in one batch)."""
    ok = [look for look in looks.values() if "error" not in look]
    counted = iter(tokencount.count([text for look in ok for text in look["texts"]]))
    for look in ok:
        look["text_tokens"] = sum(next(counted) for _ in look["texts"])
        look["image_tokens"] = sum(tokencount.image_tokens(width, height) for width, height in look["images"])
        look["tokens"] = look["text_tokens"] + look["image_tokens"]
        del look["texts"]


# -- the report ---------------------------------------------------------------------------------------


def ratio(mine: float, theirs: float) -> str:
    return f"{mine / theirs:.2f}" if theirs else "n/a"


def median_runs(runs: list[Run]) -> list[Run]:
    """For each task and server, the run of median wall time (the only one, without --repeat), lost when any
    of its repetitions was."""
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.task, run.server), []).append(run)
    chosen = []
    for group in groups.values():
        median = sorted(group, key=lambda run: run.wall)[(len(group) - 1) // 2]
        chosen.append(replace(median, verified=not any(run.lost for run in group)))
    return chosen


def task_table(runs: list[Run], names: list[str]) -> str:
    lines = [
        "| task | server | text tokens | image tokens | tokens | calls | looks | wall s | outcome |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for run in runs:
        outcome = "lost" if run.lost else "done"
        if run.agent_error:
            outcome += " (agent: failed)" if not run.lost else ""
        lines.append(
            f"| {run.task} | {run.server} | {run.text_tokens} | {run.image_tokens} | {run.tokens} | {run.calls} "
            f"| {run.looks} | {run.wall:.1f} | {outcome} |"
        )
    lines += ["", "| server | tokens | calls | looks | wall s | lost |", "|---|---:|---:|---:|---:|---:|"]
    totals = {name: totals_of([run for run in runs if run.server == name]) for name in names}
    for name, total in totals.items():
        lines.append(
            f"| {name} | {total['tokens']} | {total['calls']} | {total['looks']} | {total['wall']:.1f} "
            f"| {total['lost']} |"
        )
    theirs = totals.get("Playwright MCP")
    if theirs:
        lines += ["", "| ratio to Playwright MCP | tokens | calls | wall |", "|---|---:|---:|---:|"]
        for name, total in totals.items():
            if name != "Playwright MCP":
                lines.append(
                    f"| {name} | {ratio(total['tokens'], theirs['tokens'])} | {ratio(total['calls'], theirs['calls'])} "
                    f"| {ratio(total['wall'], theirs['wall'])} |"
                )
        lines.append(f"| target | ≤ {TARGETS['tokens']} | ≤ {TARGETS['calls']} | ≤ {TARGETS['wall']} |")
    notes = [f"- {run.task} on {run.server}: {run.agent_error}" for run in runs if run.agent_error]
    if notes:
        lines += ["", "Where an agent failed (out of its own reading):", *notes]
    return "\n".join(lines)


def totals_of(runs: list[Run]) -> dict[str, Any]:
    return {
        "tokens": sum(run.tokens for run in runs),
        "text_tokens": sum(run.text_tokens for run in runs),
        "image_tokens": sum(run.image_tokens for run in runs),
        "calls": sum(run.calls for run in runs),
        "looks": sum(run.looks for run in runs),
        "wall": round(sum(run.wall for run in runs), 2),
        "lost": sum(run.lost for run in runs),
    }


def look_summary(looks: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """Per page, this server's look against Playwright's: the ratios, their geometric mean and their max."""
    theirs = looks.get("Playwright MCP", {})
    ratios = {}
    for page, look in looks.get(name, {}).items():
        other = theirs.get(page, {})
        if "tokens" in look and other.get("tokens"):
            ratios[page] = look["tokens"] / other["tokens"]
    return {
        "ratios": {page: round(value, 3) for page, value in ratios.items()},
        "geomean": round(math.exp(sum(map(math.log, ratios.values())) / len(ratios)), 3) if ratios else None,
        "max": round(max(ratios.values()), 3) if ratios else None,
        "max_page": max(ratios, key=ratios.get) if ratios else None,
    }


def look_table(looks: dict[str, dict[str, Any]], pages: list[str]) -> str:
    names = [name for name in looks if name != "Playwright MCP"]
    head = "| page | " + " | ".join(f"{name} text | image | total | ratio" for name in names)
    lines = [head + " | Playwright MCP snapshot |", "|---|" + "---:|" * (4 * len(names) + 1)]
    summaries = {name: look_summary(looks, name) for name in names}
    for page in pages:
        cells = []
        for name in names:
            look = looks[name].get(page, {})
            if "tokens" not in look:
                cells.append(f"error | | | {summaries[name]['ratios'].get(page, '')}")
                continue
            shown = summaries[name]["ratios"].get(page)
            cells.append(
                f"{look['text_tokens']} | {look['image_tokens']} | {look['tokens']} | "
                + (f"{shown:.2f}" if shown is not None else "n/a")
            )
        theirs = looks.get("Playwright MCP", {}).get(page, {})
        lines.append(f"| {page} | " + " | ".join(cells) + f" | {theirs.get('tokens', 'error')} |")
    lines.append("")
    for name, summary in summaries.items():
        lines.append(
            f"{name}: geometric mean of the ratios {summary['geomean']} (target ≤ {TARGETS['look_geomean']}), "
            f"max {summary['max']} on {summary['max_page']} (target ≤ {TARGETS['look_max']})"
        )
    errors = [
        f"- {page} on {name}: {look['error'][:300]}"
        for name, by_page in looks.items()
        for page, look in by_page.items()
        if "error" in look
    ]
    return "\n".join(lines + errors)


# -- main -------------------------------------------------------------------------------------------------


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    names = [task.name for task in TASKS]
    parser.add_argument("--tasks", nargs="+", choices=names, metavar="NAME", help=f"only these: {', '.join(names)}")
    parser.add_argument("--servers", default="tabsight,playwright", help="tabsight, playwright or both (default)")
    parser.add_argument("--no-looks", action="store_true", help="the tasks only")
    parser.add_argument("--looks-only", action="store_true", help="the one-look comparison only")
    parser.add_argument("--repeat", type=int, default=1, help="run each task N times, show the median (wall time)")
    parser.add_argument("--before", metavar="PATH", help="also run tabsight from this checkout's .venv/bin/python")
    parser.add_argument("--verbose", action="store_true", help="print every call of the agents and its answer")
    parser.add_argument("--playwright-mcp", default=str(PLAYWRIGHT_MCP), help="path to @playwright/mcp's cli.js")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    why = missing_bundles()
    if why:
        raise SystemExit(why)
    if not args.looks_only and not args.no_looks and not CORPUS_PAGES.is_dir():
        raise SystemExit(f"{CORPUS_PAGES} missing: run bench/corpus/install.sh")
    tasks = [task for task in TASKS if not args.tasks or task.name in args.tasks]

    workdir, _ = workspace()
    http = serve_folder(ROOT)
    base_url = f"http://127.0.0.1:{http.server_address[1]}/"
    started = time.perf_counter()
    report: dict[str, Any] = {"targets": TARGETS}
    try:
        chosen = servers(args, workdir)
        # the tool list every session of each server carries in its context (bench/toollist_bench.py)
        listed = {server.name: weigh_tools(await tool_list(server.params(workdir / "runtime"))) for server in chosen}
        print("## Tool list\n\n| server | tools | tokens |\n|---|---:|---:|")
        for name, found in listed.items():
            print(f"| {name} | {len(found['tools'])} | {found['total']:,} |")
        report["tool_list"] = {name: found["total"] for name, found in listed.items()}
        print()
        if not args.looks_only:
            every = []
            for _ in range(args.repeat):
                for task in tasks:
                    for server in chosen:
                        every.append(await run_task(server, task, base_url, workdir, args.verbose))
            count_tokens(every)
            runs = median_runs(every)
            print("## Tasks\n")
            if args.repeat > 1:
                print(f"Each task {args.repeat} times on each server; the run of median wall time shown.\n")
            print(task_table(runs, [server.name for server in chosen]))
            report["tasks"] = [
                {key: value for key, value in asdict(run).items() if key != "texts"}
                | {"tokens": run.tokens, "lost": run.lost}
                for run in every
            ]
            report["task_totals"] = {
                server.name: totals_of([run for run in runs if run.server == server.name]) for server in chosen
            }
        if not args.no_looks:
            pages = [str(path.relative_to(ROOT)) for path in sorted(CORPUS_PAGES.glob("*.html"))]
            pages += sorted({task.page for task in tasks})
            looks = {}
            for server in chosen:
                take = playwright_looks if server.agent is PlaywrightAgent else tabsight_looks
                looks[server.name] = await take(server, pages, base_url, workdir)
                look_tokens(looks[server.name])
            print("\n## One look\n")
            print(look_table(looks, pages))
            report["looks"] = looks
            report["look_summary"] = {name: look_summary(looks, name) for name in looks if name != "Playwright MCP"}
    finally:
        http.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(f"\n{report['seconds']} s in all")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    anyio.run(main)
