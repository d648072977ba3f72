"""Several agents, one browser (issue 21): 4 MCP clients at once, each on a tab of its own, against one alone.

    .venv/bin/python bench/multiagent_bench.py [--rounds 3] [--clients 4] [--chromium PATH]

Five `tabsight mcp` servers, each with its own official SDK client (named multiagent-bench-N in initialize),
all on one fresh 0700 runtime folder, so they share the one embedded headless Chromium. The page is the
bench's own, served from 127.0.0.1: page.html?agent=N has a text input (Note) and two buttons (Go, Count),
and keeps every trusted event it gets (clicks, input, Enter) in window.log, each entry with the agent id
from its own URL; the log lives in the tab's sessionStorage, so it spans the tab's navigations.

Before any timing, every server makes its first calls (observe tabs, then on a tab it opens and closes
again an annotation and a screenshot): the browser's start and the first annotation's imports are no
step's time. Each
client then opens its tab with interact open_tab (its page URL) and, on the tab it tracks (no tab_id),
runs a 20-step script per round, each step timed end to end through the MCP client: navigate to its page,
observe page with annotate_screenshot (labels found by name) twice, click by label three times and by
selector three times, type by label twice and by selector once (a text carrying the agent's id), screenshot
three times, press Enter twice, execute (the page log's length) twice, observe page once.

Phase 1: client 1 alone, --rounds rounds. Phase 2: --clients clients at the same time (one task each),
the same rounds. After each phase every tab's log is read by its owner (interact execute with tab_id) and
checked: every entry from a page of its own agent, every click, Enter, typed text and load the client made
there and nothing more, typed values only its own (zero landings on another client's tab); each client's
tab is distinct; every answer naming a tab names the client's own. Phase 3: a fifth client lists the tabs
(is client 1's shown with its owner?), clicks on client 1's tab with tab_id (must be refused: tab_owned),
observes it and screenshots it (must work), takes it over (configure take_over; the answer names the
previous owner), clicks (must land: the page's Go count rises by one); then client 1 acts on it (must be
refused, saying it was taken over) and observes it (must work); the fifth releases it (configure release).

Targets (issue 21): zero errors, zero actions landing on another client's tab, p50 per action with 4
clients within 1.5x of one client alone, and a take-over only when asked for.

What bounds the p50 ratio: every call also records the machine's busy CPU time while it ran (/proc/stat,
all cores). A kind whose calls keep U cores busy alone (browser, host and front together) would need N*U
cores if N clients ran it at the same moment; on C cores it then could not take less than max(1, N*U/C)
times its time alone. The report gives that floor beside each ratio. The clients' steps overlap only in
part (most of an input action's time is waiting for the page), so a measured ratio falls between 1 and its
floor: a kind over 1.5x whose floor is higher still is held back by the machine's cores, not by a lock of
tabsight's.

Results are printed as markdown tables and written to bench/results/multiagent.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from collections import Counter
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp import Client
from mcp.types import Implementation
from mcp_types import CallToolResult

from common import CHROMIUM, percentile, tabsight_server, text_of, workspace
from harness.calls import payload
from harness.servers import serve_folder

#: the page every agent works on; its agent id is from its own URL, so its log shows where an action landed
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>agent</title>
<style>
  body { font-family: sans-serif; margin: 40px; }
  input, button { font-size: 20px; margin: 10px; padding: 6px 14px; }
</style></head>
<body>
<h1 id="who">Agent</h1>
<p><input id="note" aria-label="Note" placeholder="Note" autocomplete="off"></p>
<p><button id="go">Go</button> <button id="count">Count</button></p>
<script>
  const agent = new URLSearchParams(location.search).get('agent');
  document.title = `agent ${agent}`;
  document.getElementById('who').textContent = `Agent ${agent}`;
  // kept in the tab's sessionStorage: the log spans this tab's navigations, and no other tab's
  window.log = JSON.parse(sessionStorage.getItem('log') || '[]');
  function record(entry) {
    window.log.push({ agent, ...entry });
    sessionStorage.setItem('log', JSON.stringify(window.log));
  }
  record({ kind: 'load' });
  document.addEventListener('click', (e) => {
    if (e.isTrusted) record({ kind: 'click', id: e.target.id || e.target.tagName });
  }, true);
  document.addEventListener('input', (e) => {
    if (e.isTrusted) record({ kind: 'input', id: e.target.id, value: e.target.value });
  }, true);
  document.addEventListener('keydown', (e) => {
    if (e.isTrusted && e.key === 'Enter') record({ kind: 'enter', id: e.target.id });
  }, true);
</script>
</body></html>
"""

#: one round: (kind, target). A label's target is the element's accessible name in the latest annotation.
SCRIPT: list[tuple[str, str | None]] = [
    ("navigate", None),
    ("annotate", None),
    ("click by label", "Go"),
    ("type by label", "Note"),
    ("screenshot", None),
    ("click by selector", "#count"),
    ("press Enter", "#note"),
    ("execute", None),
    ("type by selector", "#note"),
    ("click by label", "Count"),
    ("observe page", None),
    ("screenshot", None),
    ("click by selector", "#go"),
    ("press Enter", "#note"),
    ("annotate", None),
    ("click by label", "Go"),
    ("type by label", "Note"),
    ("execute", None),
    ("screenshot", None),
    ("click by selector", "#count"),
]
assert len(SCRIPT) == 20
KINDS = list(dict.fromkeys(kind for kind, _ in SCRIPT))

#: the button a selector or a label names, as the page logs its clicks
BUTTON = {"#go": "go", "#count": "count", "Go": "go", "Count": "count"}
#: a refusal for a tab another session owns, and the previous owner's answer after a take-over
OWNED = re.compile(r"tab_owned|belongs to", re.I)
TAKEN = re.compile(r"taken over|took over|take_over|taken_over", re.I)


def warm_up_calls(page: str) -> list[tuple[str, dict]]:
    """Each server's first calls, not timed: they start the browser and load what annotating and capturing
    need, on a tab of the server's own (closed afterwards)."""
    return [
        ("observe", {"what": "tabs"}),
        ("interact", {"action": "open_tab", "url": page}),
        ("observe", {"what": "page", "annotate_screenshot": True}),
        ("screenshot", {"format": "jpeg", "quality": 80}),
    ]


@dataclass
class Agent:
    """One MCP client, its tab, what it did there (what its tab's log must show), and its timings."""

    number: int
    name: str
    client: Client
    url: str = ""
    tab: int | None = None
    labels: dict[str, int] = field(default_factory=dict)
    #: what landed there by this client's calls: ("load",), ("click", id), ("enter",)
    expected: Counter = field(default_factory=Counter)
    typed: list[str] = field(default_factory=list)
    #: (kind, wall ms, the machine's busy CPU ms meanwhile)
    samples: list[tuple[str, float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: answers that named a tab other than the client's own
    elsewhere: list[str] = field(default_factory=list)

    def page(self, round_: int | str) -> str:
        return f"{self.url}?agent={self.number}&round={round_}"


def busy_cpu_ms() -> float:
    """CPU time all cores have spent busy since boot (/proc/stat: all but idle and iowait), in ms; 0 elsewhere."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) * 1000 / os.sysconf("SC_CLK_TCK")


async def call(agent: Agent, kind: str, tool: str, arguments: dict, timed: bool = True) -> dict | None:
    """One call: timed, its answer's JSON, or None with the error counted."""
    busy = busy_cpu_ms()
    started = time.perf_counter()
    try:
        result = await agent.client.call_tool(tool, arguments)
    except Exception as error:  # noqa: BLE001 -- counted and reported, the run goes on
        agent.errors.append(f"{kind}: {type(error).__name__}: {error}"[:300])
        return None
    seconds = time.perf_counter() - started
    busy = busy_cpu_ms() - busy
    if result.is_error:
        agent.errors.append(f"{kind}: {text_of(result)}"[:300])
        return None
    if timed:
        agent.samples.append((kind, seconds * 1000, busy))
    try:
        answer = payload(result)
    except AssertionError:
        answer = {}
    named = answer.get("tab_id")
    if agent.tab is not None and isinstance(named, int) and named != agent.tab:
        agent.elsewhere.append(f"{kind}: answered from tab {named}, not {agent.tab}")
    return answer


async def open_tab(agent: Agent) -> None:
    answer = await call(agent, "open_tab", "interact", {"action": "open_tab", "url": agent.page("open")})
    if answer is not None:
        agent.tab = answer.get("tracked", {}).get("tab_id") or answer.get("tab_id")
        agent.expected[("load",)] += 1


async def step(agent: Agent, round_: int, number: int, kind: str, target: str | None) -> None:
    """One step of the script on the tab the client tracks."""
    if kind == "navigate":
        if await call(agent, kind, "interact", {"action": "navigate", "url": agent.page(round_)}) is not None:
            agent.expected[("load",)] += 1
    elif kind == "annotate":
        answer = await call(agent, kind, "observe", {"what": "page", "annotate_screenshot": True})
        if answer is not None:
            agent.labels = {item.get("name", ""): item["label"] for item in answer.get("annotations", [])}
    elif kind == "observe page":
        await call(agent, kind, "observe", {"what": "page"})
    elif kind == "screenshot":
        await call(agent, kind, "screenshot", {"format": "jpeg", "quality": 80})
    elif kind == "execute":
        answer = await call(agent, kind, "interact", {"action": "execute", "script": "return window.log.length"})
        if answer is not None and not isinstance(answer.get("script", {}).get("result"), int):
            agent.errors.append(f"{kind}: the page log's length is not a number: {answer.get('script')}"[:300])
    elif kind == "press Enter":
        if await call(agent, kind, "interact", {"action": "press", "key": "Enter", "selector": target}) is not None:
            agent.expected[("enter",)] += 1
    else:  # click or type, by label or by selector
        if kind.endswith("by label"):
            label = agent.labels.get(target or "")
            if label is None:
                agent.errors.append(f"{kind}: no label named {target!r} in the latest annotation: {agent.labels}")
                return
            interact = {"label": label}
        else:
            interact = {"selector": target}
        if kind.startswith("click"):
            if await call(agent, kind, "interact", {"action": "click", **interact}) is not None:
                agent.expected[("click", BUTTON[target or ""])] += 1
        else:
            text = f"a{agent.number}-r{round_}-s{number}"
            if (
                await call(agent, kind, "interact", {"action": "type", "text": text, "clear": True, **interact})
                is not None
            ):
                agent.typed.append(text)


async def run_script(agent: Agent, rounds: int) -> float:
    """The agent's tab opened, then its rounds of the script; the seconds the rounds took."""
    await open_tab(agent)
    if agent.tab is None:
        return 0.0
    started = time.perf_counter()
    for round_ in range(rounds):
        for number, (kind, target) in enumerate(SCRIPT, 1):
            await step(agent, round_, number, kind, target)
    return time.perf_counter() - started


async def read_log(reader: Agent, tab: int) -> list[dict] | str:
    """The page log of a tab, read by interact execute with tab_id; the error's text if refused."""
    try:
        result = await reader.client.call_tool(
            "interact", {"action": "execute", "tab_id": tab, "script": "return window.log"}
        )
    except Exception as error:  # noqa: BLE001
        return f"{type(error).__name__}: {error}"
    if result.is_error:
        return text_of(result)
    script = payload(result).get("script", {})
    if "error" in script or not isinstance(script.get("result"), list):
        return f"the script failed: {str(script)[:300]}"
    return script["result"]


async def landings(agent: Agent) -> dict:
    """What the agent's tab's log shows against what the agent did there: entries from a page of another
    agent, surplus events (landed here but not done here), missing ones (done here but not landed), typed
    values that are not this agent's."""
    log = await read_log(agent, agent.tab) if agent.tab is not None else "no tab"
    if isinstance(log, str):
        return {"tab": agent.tab, "error": log[:300], "cross": 0, "missing": 0}
    own = [entry for entry in log if str(entry.get("agent")) == str(agent.number)]
    seen: Counter = Counter()
    foreign_input = []
    for entry in own:
        kind = entry.get("kind")
        if kind == "load" or kind == "enter":
            seen[(kind,)] += 1
        elif kind == "click":
            seen[("click", entry.get("id"))] += 1
        elif kind == "input":
            value = entry.get("value") or ""
            if value and not any(text.startswith(value) for text in agent.typed):
                foreign_input.append(value)
    values = {entry.get("value") for entry in own if entry.get("kind") == "input"}
    surplus = {" ".join(key): seen[key] - agent.expected[key] for key in seen if seen[key] > agent.expected[key]}
    missing = {
        " ".join(key): agent.expected[key] - seen[key] for key in agent.expected if seen[key] < agent.expected[key]
    }
    typed_missing = [text for text in agent.typed if text not in values]
    foreign_agent = len(log) - len(own)
    return {
        "tab": agent.tab,
        "entries": len(log),
        "foreign_agent_entries": foreign_agent,
        "surplus": surplus,
        "missing": missing,
        "foreign_input": foreign_input[:5],
        "typed_missing": typed_missing[:5],
        "cross": foreign_agent + sum(surplus.values()) + len(foreign_input),
        "lost": sum(missing.values()) + len(typed_missing),
    }


def stats(samples: list[tuple[float, float]]) -> dict:
    """p50 and p90 of the wall times, and the cores kept busy meanwhile (busy CPU time over wall time)."""
    if not samples:
        return {"n": 0}
    walls = [wall for wall, _ in samples]
    return {
        "n": len(samples),
        "p50_ms": round(percentile(walls, 0.5)),
        "p90_ms": round(percentile(walls, 0.9)),
        "cores_busy": round(sum(busy for _, busy in samples) / sum(walls), 2),
    }


def by_kind(agents: list[Agent]) -> dict[str, dict]:
    rows = {
        kind: stats([(ms, busy) for agent in agents for k, ms, busy in agent.samples if k == kind])
        for kind in [*KINDS, "open_tab"]
    }
    rows["all 20 steps"] = stats([(ms, busy) for agent in agents for k, ms, busy in agent.samples if k != "open_tab"])
    return rows


def floor(alone: dict, clients: int, cores: int) -> float | None:
    """The least p50 ratio ``clients`` at once can have on ``cores`` cores, from the cores a kind keeps busy alone."""
    if "cores_busy" not in alone:
        return None
    return round(max(1.0, clients * alone["cores_busy"] / cores), 2)


async def run_phase(agents: list[Agent], rounds: int) -> dict:
    """The agents' scripts at the same time, then each tab's log checked."""
    started = time.perf_counter()
    seconds: dict[int, float] = {}

    async def one(agent: Agent) -> None:
        seconds[agent.number] = await run_script(agent, rounds)

    async with anyio.create_task_group() as group:
        for agent in agents:
            group.start_soon(one, agent)
    wall = time.perf_counter() - started
    checks = {agent.number: await landings(agent) for agent in agents}
    tabs = [agent.tab for agent in agents]
    return {
        "clients": len(agents),
        "wall_s": round(wall, 2),
        "script_s": {number: round(s, 2) for number, s in seconds.items()},
        "by_kind": by_kind(agents),
        "errors": sum(len(agent.errors) for agent in agents),
        "first_errors": [error for agent in agents for error in agent.errors[:2]][:8],
        "answers_naming_another_tab": [item for agent in agents for item in agent.elsewhere][:8],
        "tabs": tabs,
        "tabs_distinct": None not in tabs and len(set(tabs)) == len(tabs),
        "landings": checks,
        "cross_tab_landings": sum(check["cross"] for check in checks.values())
        + sum(len(agent.elsewhere) for agent in agents),
        "lost_actions": sum(check.get("lost", 0) for check in checks.values()),
        "log_unreadable": [number for number, check in checks.items() if "error" in check],
    }


# -- phase 3: a fifth client and client 1's tab --------------------------------------------------


async def raw(agent: Agent, tool: str, arguments: dict) -> CallToolResult | str:
    """A call whose refusal is the point: its result, or the exception's text."""
    try:
        return await agent.client.call_tool(tool, arguments)
    except Exception as error:  # noqa: BLE001
        return f"{type(error).__name__}: {error}"


def said(result: CallToolResult | str) -> str:
    return (result if isinstance(result, str) else text_of(result)).replace("\n", " ")[:300]


async def go_clicks(reader: Agent, tab: int) -> int | str:
    log = await read_log(reader, tab)
    return log if isinstance(log, str) else sum(1 for e in log if e.get("kind") == "click" and e.get("id") == "go")


async def take_over(fifth: Agent, owner: Agent) -> list[dict]:
    """The fifth client and the owner's tab: refused until it asks, then its own; the owner refused then."""
    tab = owner.tab
    checks: list[dict] = []

    def check(name: str, ok: bool, detail: str) -> None:
        checks.append({"check": name, "ok": ok, "detail": detail})

    # 1. observe tabs: the tab, with its owner
    listing = await raw(fifth, "observe", {"what": "tabs"})
    entry = None
    if not isinstance(listing, str) and not listing.is_error:
        for browser in payload(listing).get("browsers", []):
            entry = next((t for t in browser.get("tabs", []) if t.get("id") == tab), entry)
    owner_shown = (entry or {}).get("owner") or {}
    check(
        "observe tabs lists client 1's tab with its owner",
        bool(entry) and owner.name in json.dumps(owner_shown) and not entry.get("mine"),
        f"entry: {json.dumps(entry)[:300]}" if entry else f"tab {tab} not listed: {said(listing)}",
    )

    # 2. acting on it without asking: refused, and nothing lands
    before = await go_clicks(owner, tab)
    result = await raw(fifth, "interact", {"action": "click", "selector": "#go", "tab_id": tab})
    after = await go_clicks(owner, tab)
    refused = not isinstance(result, str) and result.is_error and bool(OWNED.search(said(result)))
    if refused:
        check(
            "a click on it without asking is refused (tab_owned)",
            after == before,
            f"refused: {said(result)}" + ("" if after == before else f"; yet Go clicks went {before} -> {after}"),
        )
        check(
            "the refusal says how to take over",
            bool(re.search(r"take_over|take over", said(result), re.I)),
            said(result),
        )
    else:
        how = (
            "an error, not tab_owned: " + said(result)
            if isinstance(result, str) or result.is_error
            else f"answered {said(result)[:150]}"
        )
        check(
            "a click on it without asking is refused (tab_owned)",
            False,
            f"the click on another's tab was NOT refused ({how}); Go clicks on client 1's page {before} -> {after}",
        )

    # 3. observing it is allowed
    result = await raw(fifth, "observe", {"what": "page", "tab_id": tab})
    ok = not isinstance(result, str) and not result.is_error and payload(result).get("tab_id") == tab
    check("observe page with tab_id works", ok, "ok" if ok else said(result))
    result = await raw(fifth, "screenshot", {"tab_id": tab, "format": "jpeg"})
    ok = not isinstance(result, str) and not result.is_error and any(b.type == "image" for b in result.content)
    check("screenshot with tab_id works", ok, "ok" if ok else said(result))

    # 4. take-over when asked, naming the previous owner
    before = await go_clicks(owner, tab)
    result = await raw(fifth, "configure", {"action": "take_over", "tab_id": tab})
    taken = not isinstance(result, str) and not result.is_error
    check("configure take_over works", taken, said(result))
    check("the take-over answer names the previous owner", taken and owner.name in said(result), said(result))

    # 5. then its click lands
    result = await raw(fifth, "interact", {"action": "click", "selector": "#go", "tab_id": tab})
    after = await go_clicks(fifth, tab)
    ok = not isinstance(result, str) and not result.is_error and isinstance(before, int) and after == before + 1
    check(
        "the fifth client's click then lands (Go count +1)",
        ok,
        f"Go clicks {before} -> {after}"
        + ("" if not isinstance(result, str) and not result.is_error else f"; the click: {said(result)}"),
    )

    # 6. the previous owner: refused when acting, told why; observing still allowed
    before = after
    result = await raw(owner, "interact", {"action": "click", "selector": "#go", "tab_id": tab})
    after = await go_clicks(fifth, tab)
    refused = not isinstance(result, str) and result.is_error
    if refused:
        check(
            "client 1's next click on it is refused",
            after == before,
            said(result) + ("" if after == before else f"; yet Go clicks went {before} -> {after}"),
        )
        check("client 1's refusal says the tab was taken over", bool(TAKEN.search(said(result))), said(result))
    else:
        check(
            "client 1's next click on it is refused",
            False,
            f"client 1's click on the taken-over tab was NOT refused ({said(result)[:150]}); "
            f"Go clicks {before} -> {after}",
        )
    result = await raw(owner, "observe", {"what": "page", "tab_id": tab})
    ok = not isinstance(result, str) and not result.is_error
    check("client 1 may still observe it", ok, "ok" if ok else said(result))

    # 7. release
    result = await raw(fifth, "configure", {"action": "release", "tab_id": tab})
    check("configure release works", not isinstance(result, str) and not result.is_error, said(result))
    return checks


# -- the report ---------------------------------------------------------------------------------


def ratio(alone: dict, together: dict) -> float | None:
    if not alone.get("p50_ms") or "p50_ms" not in together:
        return None
    return round(together["p50_ms"] / alone["p50_ms"], 2)


def report(results: dict) -> str:
    alone, together = results["alone"], results["together"]
    clients = together["clients"]
    cores = results["cores"]
    lines = [
        f"| action | alone p50 ms | alone p90 ms | {clients} clients p50 ms | {clients} clients p90 ms | "
        f"p50 ratio | cores busy alone | floor on {cores} cores | samples alone / together |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for kind, row in alone["by_kind"].items():
        other = together["by_kind"][kind]
        r = ratio(row, other)
        least = floor(row, clients, cores)
        lines.append(
            f"| {kind} | {row.get('p50_ms', '-')} | {row.get('p90_ms', '-')} | {other.get('p50_ms', '-')} | "
            f"{other.get('p90_ms', '-')} | {'-' if r is None else f'{r}x'} | {row.get('cores_busy', '-')} | "
            f"{'-' if least is None else f'{least}x'} | {row['n']} / {other['n']} |"
        )
    worst = results["worst_step_ratio"]
    overall = results["all_steps_ratio"]
    worst_floor = floor(alone["by_kind"].get(worst[0], {}), clients, cores)

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    errors = alone["errors"] + together["errors"]
    cross = alone["cross_tab_landings"] + together["cross_tab_landings"]
    takeover = results["take_over"]
    lines += [
        "",
        "| target | result | |",
        "|---|---|---|",
        f"| zero errors (phases 1 and 2) | {errors} | {met(errors == 0)} |",
        f"| zero actions on another client's tab | {cross} (lost: {alone['lost_actions'] + together['lost_actions']}; "
        f"tabs distinct: {together['tabs_distinct']}) | {met(cross == 0 and together['tabs_distinct'] and not together['log_unreadable'] and not alone['log_unreadable'])} |",
        f"| p50 per action within 1.5x of one client alone | all steps {overall}x, worst step kind {worst[1]}x "
        f"({worst[0]}; its floor on {cores} cores: {worst_floor}x) | {met(worst[1] is not None and worst[1] <= 1.5)} |",
        f"| a fifth client takes over only when it asks | {sum(c['ok'] for c in takeover)} of {len(takeover)} checks "
        f"| {met(all(c['ok'] for c in takeover))} |",
        "",
        f"wall time of the rounds: alone {alone['wall_s']} s, {clients} clients {together['wall_s']} s",
        "",
        "| take-over check | result | detail |",
        "|---|---|---|",
    ]
    for c in takeover:
        lines.append(f"| {c['check']} | {'ok' if c['ok'] else 'FAILED'} | {c['detail'][:200].replace('|', '/')} |")
    for error in results["warm_up_errors"]:
        lines.append(f"\nwarm-up (not counted), error: {error}")
    for phase in ("alone", "together"):
        data = results[phase]
        for error in data["first_errors"]:
            lines.append(f"\n{phase}, error: {error}")
        for item in data["answers_naming_another_tab"]:
            lines.append(f"\n{phase}, answer naming another tab: {item}")
        for number, check in data["landings"].items():
            if check.get("error") or check["cross"] or check.get("lost"):
                lines.append(f"\n{phase}, client {number}'s tab log: {json.dumps(check)[:400]}")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the 20-step script per client and phase")
    parser.add_argument("--clients", type=int, default=4, help="clients at the same time in phase 2")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()

    workdir, runtime = workspace()
    site = workdir / "site"
    site.mkdir()
    (site / "page.html").write_text(PAGE)
    server = serve_folder(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/page.html"

    async with AsyncExitStack() as stack:
        agents = []
        for number in range(1, args.clients + 2):  # the last one is phase 3's fifth client
            name = f"multiagent-bench-{number}"
            client = await stack.enter_async_context(
                Client(
                    tabsight_server(runtime, args.chromium),
                    read_timeout_seconds=90,
                    client_info=Implementation(name=name, version="1.0"),
                )
            )
            agents.append(Agent(number, name, client, url))
        warm_up = []
        for agent in agents:  # not timed: the browser's start, and each server's first annotation and capture
            opened = None
            for tool, arguments in warm_up_calls(f"{url}?agent=warm-up-{agent.number}"):
                result = await raw(agent, tool, arguments)
                if isinstance(result, str) or result.is_error:
                    warm_up.append(f"client {agent.number}, {tool} {arguments.get('action', '')}: {said(result)}")
                elif arguments.get("action") == "open_tab":
                    opened = payload(result).get("tab_id")
            if opened is not None:
                await raw(agent, "interact", {"action": "close_tab", "tab_id": opened})
        fifth = agents.pop()

        print(f"phase 1: client 1 alone, {args.rounds} round(s) of {len(SCRIPT)} steps", flush=True)
        solo = Agent(1, agents[0].name, agents[0].client, url)
        alone = await run_phase([solo], args.rounds)
        if solo.tab is not None:
            await call(solo, "close_tab", "interact", {"action": "close_tab", "tab_id": solo.tab}, timed=False)
        print(f"phase 2: {len(agents)} clients at once", flush=True)
        together = await run_phase(agents, args.rounds)
        print("phase 3: a fifth client and client 1's tab", flush=True)
        takeover = (
            await take_over(fifth, agents[0])
            if agents[0].tab is not None
            else [{"check": "client 1 has a tab", "ok": False, "detail": "its open_tab failed"}]
        )
    server.shutdown()

    ratios = {kind: ratio(alone["by_kind"][kind], together["by_kind"][kind]) for kind in KINDS}
    known = {kind: r for kind, r in ratios.items() if r is not None}
    worst = max(known.items(), key=lambda item: item[1]) if known else ("-", None)
    results = {
        "rounds": args.rounds,
        "steps_per_round": len(SCRIPT),
        "clients": args.clients,
        "cores": os.cpu_count(),
        "warm_up_errors": warm_up,
        "alone": alone,
        "together": together,
        "take_over": takeover,
        "p50_ratios": ratios,
        "worst_step_ratio": list(worst),
        "all_steps_ratio": ratio(alone["by_kind"]["all 20 steps"], together["by_kind"]["all 20 steps"]),
    }
    print(report(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "multiagent.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    anyio.run(main)
