"""Soak: MCP clients making mixed calls through one browser while it is restarted and its host killed.

Each client is the official SDK client driving its own `tabsight mcp`; all
share one embedded headless Chromium in a private runtime folder. A client
loads the soak page in the tab its session works in (on the embedded
browser, a tab of its own in a window of its own), finds it again after a
fault and tracks it (`configure track`)
and then makes calls drawn from MIX until the run's count is spent:
observe, telemetry, screenshots with and without `url` (cookies included),
annotated screenshots, interactions by label and selector, and `execute`
with `Page.captureScreenshot`. Half of the clients speak the 2025-11-25
protocol and have alert streaming on. At RESTART_AT of the calls the browser
is terminated (tabsight must start a new one); at KILL_AT its host gets
SIGKILL (the extension must start a new one).

What the run checks, and prints:
- every call is answered, with a result or an error; a call still without an
  answer after CALL_DEADLINE seconds is "unanswered";
- every result is right: images decode at the size their text says, JSON
  parses, an annotated screenshot's marks come with their map;
- which errors fell in an outage (between a fault and the moment every client
  had a good answer again) and which did not;
- memory: the RSS of every front, and of the last host, is sampled at
  MEMORY_AT of the calls; the growth after warm-up is reported;
- no process of the chain listens on TCP or UDP (sampled every second), and
  every host socket is 0600 in a 0700 folder;
- nothing is left: no tab tabsight opened, no debugger attachment, and, once
  the clients are gone, no socket file, process or browser profile;
- no secret the soak page leaks (a token in a URL, a bearer header and a
  password in console messages, a cookie given to screenshot) appears in any
  answer, notification, telemetry buffer, or front or host log; the masked
  forms must be there, so the check cannot pass on empty buffers.

failures(summary) lists the checks that failed. bench/soak_bench.py runs a
full soak from the command line (it writes bench/results/soak.json and exits 1
when a check fails); the suite runs a shorter one (tests/test_soak.py).
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import shutil
import signal
import stat
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import stdio_client
from PIL import Image

from .calls import Failed, notes, percentile, text_of, unmarked
from .processes import (
    alive,
    command_line,
    descendants,
    environ,
    front_pids,
    host_pids,
    inet_listeners,
    parent,
    rss_kb,
)
from .servers import CHROMIUM, serve, tabsight_server, workspace

#: how the calls are drawn (relative weights)
MIX = {
    "observe": 12,
    "telemetry": 8,
    "screenshot": 20,
    "screenshot_url": 8,
    "annotate": 14,
    "interact": 28,
    "execute": 10,
}
RESTART_AT, KILL_AT = 0.25, 0.5
#: kinds of call that may succeed without the client's tab (see Soak.outage_windows)
NOT_ON_THE_TAB = {"setup", "telemetry", "screenshot_url"}
MEMORY_AT = (0.2, 0.6, 0.8, 1.0)
#: a call with no answer after this long is counted unanswered (every tool's own timeouts are shorter)
CALL_DEADLINE = 150.0
#: after an error, a client waits this long before its next call (an agent reads the error first)
ERROR_PAUSE = 0.5

#: growth from the 60% sample (after the faults) to the end that counts as a leak. A front's RSS is a
#: high-water mark: it steps up by 10-15 MB the first time a call of a kind peaks higher than any before
#: (a full-page PNG, an annotation), which a short run may meet that late
FRONT_GROWTH_KB, HOST_GROWTH_KB = 40_000, 15_000

SECRETS = {
    "url token": "sOaKtOkEn4711",
    "bearer": "sOaKbEaReR0815abcd",
    "password": "sOaKpAsS2342",
    "cookie": "sOaKcOoKiE9999",
}
MASK = "[REDACTED]"

SOAK_PAGE = f"""<!doctype html><html><head><title>soak page</title></head>
<body style="font-family:sans-serif"><h1>Soak</h1>
<nav style="position:fixed;top:0;right:0"><button id="menu" type="button">Menu</button></nav>
<form onsubmit="return false"><label>Name <input id="name"></label>
<label>Colour <select id="colour"><option>red</option><option>green</option></select></label>
<button id="add" type="button">Add</button></form>
<ul id="items"></ul><p style="margin-top:900px"><a href="#top">top</a></p>
<script>
document.getElementById('add').onclick = () => {{
  const item = document.createElement('li');
  item.textContent = document.getElementById('name').value || 'item';
  document.getElementById('items').append(item);
}};
console.log('signing in with password={SECRETS["password"]}');
console.error('request failed, Authorization: Bearer {SECRETS["bearer"]}');
fetch('/missing.json?token={SECRETS["url token"]}').catch(() => {{}});
</script></body></html>"""


@dataclass
class Outcome:
    client: int
    kind: str
    started: float
    seconds: float
    status: str  # ok | error | wrong | unanswered
    detail: str = ""


@dataclass
class Config:
    clients: int = 8
    calls: int = 2000
    max_seconds: float = 1200.0
    seed: int = 1
    faults: bool = True


@dataclass
class Findings:
    """What the run saw besides the calls' outcomes."""

    faults: list[dict] = field(default_factory=list)
    memory: dict[str, dict] = field(default_factory=dict)
    listeners: list[str] = field(default_factory=list)
    modes: list[str] = field(default_factory=list)
    samples: int = 0
    secrets: list[str] = field(default_factory=list)
    masked: Counter = field(default_factory=Counter)
    notifications: int = 0
    tracebacks: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    end_tabs: list[dict] = field(default_factory=list)


def image_size(data: str) -> tuple[int, int]:
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        image.load()
        return image.size


def answer_json(result) -> Any:
    """The first text block as JSON (images come before it or after it; alerts and notes after it)."""
    try:
        return json.loads(unmarked(next(block.text for block in result.content if block.type == "text")))
    except (StopIteration, json.JSONDecodeError) as exc:
        raise Failed(f"answer is not JSON: {exc}") from None


def images_of(result) -> list:
    return [block for block in result.content if block.type == "image"]


class Chain:
    """The soak's processes and files, seen from outside through /proc and the runtime folder."""

    def __init__(self, runtime: Path) -> None:
        self.runtime = runtime
        self.seen: set[int] = set()
        self.profiles: set[str] = set()

    def hosts(self) -> list[int]:
        return host_pids(self.runtime)

    def fronts(self) -> list[int]:
        return sorted(front_pids(self.runtime))

    def browser_of(self, host: int) -> int | None:
        browser = parent(host)
        return browser if browser and browser > 1 else None

    def pids(self) -> set[int]:
        """Every live process of the chain; remembered, with the browser profiles, for the leak check."""
        found = set(self.fronts())
        for host in self.hosts():
            if alive(host):
                found.add(host)
                profile = dict(line.split(b"=", 1) for line in environ(host).split(b"\0") if b"=" in line).get(
                    b"TABSIGHT_EMBEDDED_PROFILE"
                )
                if profile:
                    self.profiles.add(profile.decode())
                browser = self.browser_of(host)
                if browser:
                    found |= descendants(browser)
        self.seen |= found
        return found

    def host_log(self) -> str:
        """The browser logs (where each host's stderr goes) of the profiles still on disk."""
        return "".join(
            (Path(p) / "browser.log").read_text(errors="replace")
            for p in self.profiles
            if (Path(p) / "browser.log").exists()
        )


class Soak:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.workdir, self.runtime = workspace()
        (self.workdir / "soak.html").write_text(SOAK_PAGE)
        self.server = serve(self.workdir)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.chain = Chain(self.runtime)
        self.params = tabsight_server(self.runtime, os.environ.get("TABSIGHT_CHROMIUM", CHROMIUM))
        self.outcomes: list[Outcome] = []
        self.findings = Findings()
        self.issued = 0
        self.started = 0.0
        self.logs: dict[str, str] = {}
        self.all_done = anyio.Event()
        self.checked = anyio.Event()
        self.finished_clients = 0

    # -- the run ---------------------------------------------------------------

    async def run(self) -> Soak:
        self.started = time.monotonic()
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(self._sample_forever)
                tasks.start_soon(self._memory_and_faults)
                async with anyio.create_task_group() as clients:
                    for index in range(self.config.clients):
                        clients.start_soon(self._client, index)
                    await self.all_done.wait()
                    with anyio.fail_after(60):
                        await self._end_checks()
                    self.checked.set()
                tasks.cancel_scope.cancel()
            await self._teardown_checks()
        finally:
            self.server.shutdown()
            shutil.rmtree(self.workdir, ignore_errors=True)  # its logs were read into self.logs
        return self

    def spent(self) -> bool:
        """The count of calls or the time is spent (a client's setup may overrun the count by a few calls)."""
        return self.issued >= self.config.calls or time.monotonic() - self.started > self.config.max_seconds

    @property
    def completed(self) -> int:
        return len(self.outcomes)

    async def _client(self, index: int) -> None:
        legacy = index % 2 == 0
        errlog_path = self.workdir / f"front-{index}.err"
        with errlog_path.open("w") as errlog:
            async with Client(
                stdio_client(self.params, errlog=errlog),
                mode="legacy" if legacy else "auto",
                logging_callback=self._heard if legacy else None,
            ) as client:
                agent = Agent(self, index, client, random.Random(self.config.seed * 100 + index), legacy)
                while not self.spent():
                    await agent.step()
                self.finished_clients += 1
                if self.finished_clients == self.config.clients:
                    self.all_done.set()
                await self.checked.wait()
        self.logs[f"front {index}"] = errlog_path.read_text(errors="replace")

    async def _heard(self, params) -> None:
        self.findings.notifications += 1
        alert = json.loads(unmarked(params.data))  # the alert's JSON, as a page-content region
        self.scan(f"notification {alert.get('title', '')!r}", params.data)

    async def call(self, agent: Agent, kind: str, tool: str, arguments: dict, check=None) -> Any:
        """One call, timed and judged; the result when it is good, else None."""
        self.issued += 1
        started = time.monotonic()
        outcome = Outcome(agent.index, kind, started - self.started, 0.0, "ok")
        result = None
        try:
            with anyio.fail_after(CALL_DEADLINE):
                result = await agent.client.call_tool(tool, arguments)
        except TimeoutError:
            outcome.status, outcome.detail = "unanswered", f"no answer in {CALL_DEADLINE:g} s"
        except Exception as exc:  # noqa: BLE001 -- the client or its server process broke: the call was lost
            outcome.status, outcome.detail = "unanswered", f"{type(exc).__name__}: {exc}"
        if result is not None:
            self.scan(f"{kind} answer", text_of(result))
            if result.is_error:
                outcome.status, outcome.detail = "error", text_of(result).splitlines()[0][:160]
            elif notes(result):
                # the browser changed under the session (a restart), and the answer says so: it is about
                # the tab the session was moved to; the client finds its own tab again
                agent.ready = False
            elif check:
                try:
                    check(result)
                except Failed as exc:
                    outcome.status, outcome.detail = "wrong", str(exc)
        outcome.seconds = time.monotonic() - started
        self.outcomes.append(outcome)
        return result if outcome.status == "ok" else None

    def scan(self, where: str, text: str) -> None:
        for name, secret in SECRETS.items():
            if secret in text:
                self.findings.secrets.append(f"{name} in {where}")
        self.findings.masked[where.split()[0]] += text.count(MASK)

    # -- faults and samples ----------------------------------------------------

    async def _memory_and_faults(self) -> None:
        events = [(at, "memory", f"{round(at * 100)}%") for at in MEMORY_AT if at < 1]
        if self.config.faults:
            events += [(RESTART_AT, "restart", "browser restart"), (KILL_AT, "kill", "host kill -9")]
        for at, what, label in sorted(events):
            while self.completed < at * self.config.calls:
                await anyio.sleep(0.05)
            if what == "memory":
                self.findings.memory[label] = self.memory()
            else:
                self.findings.faults.append(self.fault(what, label))

    def fault(self, what: str, label: str) -> dict:
        hosts = [pid for pid in self.chain.hosts() if alive(pid)]
        self.chain.pids()  # remember the profile and its processes before they go
        self.logs[f"host log before {label}"] = self.chain.host_log()
        record = {"fault": label, "at_call": self.completed, "t": time.monotonic() - self.started, "hosts": hosts}
        for host in hosts:
            if what == "restart":
                browser = self.chain.browser_of(host)
                if browser:
                    os.kill(browser, signal.SIGTERM)  # as when the user quits the browser
            else:
                os.kill(host, signal.SIGKILL)
        return record

    def memory(self) -> dict:
        hosts = [pid for pid in self.chain.hosts() if alive(pid)]
        return {
            "fronts_kb": {pid: rss_kb(pid) for pid in self.chain.fronts()},
            "host_kb": {pid: rss_kb(pid) for pid in hosts},
        }

    async def _sample_forever(self) -> None:
        while True:
            self.sample()
            await anyio.sleep(1.0)

    def sample(self) -> None:
        pids = self.chain.pids()
        self.findings.samples += 1
        for listener in inet_listeners(pids):
            self.findings.listeners.append(listener)
        if stat.S_IMODE(self.runtime.stat().st_mode) != 0o700:
            self.findings.modes.append(f"runtime folder is {oct(self.runtime.stat().st_mode)}")
        for path in self.runtime.glob("host-*.sock"):
            try:
                mode = stat.S_IMODE(path.stat().st_mode)
            except FileNotFoundError:
                continue
            if mode != 0o600:
                self.findings.modes.append(f"{path.name} is {oct(mode)}")

    # -- at the end ------------------------------------------------------------

    async def _end_checks(self) -> None:
        """With the clients still connected: memory, tabs, debugger, telemetry buffers, host log."""
        from tabsight.browser.client import BrowserClient
        from tabsight.browser.link import HostLink

        self.findings.memory["100%"] = self.memory()
        self.sample()
        for path in self.runtime.glob("host-*.sock"):
            link = await HostLink.open(path, "soak-check", 5)
            browser = BrowserClient(link)
            try:
                for _ in range(100):  # debugger attachments end a moment after their last use
                    tabs = (await browser.tabs(timeout=10))["tabs"]
                    if not any(tab["debugger_attached"] or tab.get("owned") for tab in tabs):
                        break
                    await anyio.sleep(0.2)
                self.findings.end_tabs = tabs
                for tab in tabs:
                    if tab.get("owned"):
                        self.findings.leaks.append(f"tab {tab['id']} opened by screenshot(url) still open")
                    if tab["debugger_attached"]:
                        self.findings.leaks.append(f"debugger still attached to tab {tab['id']} ({tab['url']})")
                if len(tabs) > self.config.clients + 1:
                    self.findings.leaks.append(f"{len(tabs)} tabs open for {self.config.clients} clients")
                for what in ("logs", "network"):
                    items = await browser.telemetry(None, what, limit=200, timeout=10)  # every tab's
                    self.scan(f"telemetry {what} buffer", json.dumps(items))
            finally:
                await link.close()
        self.logs["host log at the end"] = self.chain.host_log()

    async def _teardown_checks(self) -> None:
        """Once the clients have exited: nothing of the chain may remain."""

        def gone() -> bool:
            return (
                not any(alive(pid) for pid in self.chain.seen)
                and not list(self.runtime.glob("host-*.sock"))
                and not any(Path(p).exists() for p in self.chain.profiles)
            )

        deadline = time.monotonic() + 30
        while not gone() and time.monotonic() < deadline:
            await anyio.sleep(0.2)
        self.findings.leaks += [
            f"process {pid} still running: {' '.join(command_line(pid))[:120]}"
            for pid in sorted(self.chain.seen)
            if alive(pid)
        ]
        self.findings.leaks += [f"socket file {path.name} left" for path in self.runtime.glob("host-*.sock")]
        self.findings.leaks += [f"browser profile {p} left" for p in sorted(self.chain.profiles) if Path(p).exists()]
        for where, text in self.logs.items():
            self.scan(where, text)
            self.findings.tracebacks += [f"{where}: {trace}" for trace in tracebacks(text)]

    # -- the report --------------------------------------------------------------

    def outage_windows(self) -> list[tuple[float, float]]:
        """From each fault until every client has had a good answer, started after it, to a call on its tab.

        Only calls on the tab count: listing tabs, reading alerts or screenshotting a URL can succeed while
        the client's tab is gone with the old browser, and the client learns that on its next tab call.
        """
        windows = []
        for fault in self.findings.faults:
            recovered = fault["t"]
            for index in range(self.config.clients):
                firsts = [
                    o.started + o.seconds
                    for o in self.outcomes
                    if o.client == index
                    and o.status == "ok"
                    and o.started >= fault["t"]
                    and o.kind not in NOT_ON_THE_TAB
                ]
                recovered = max(recovered, min(firsts, default=float("inf")))
            fault["recovered_s"] = round(recovered - fault["t"], 1)
            windows.append((fault["t"], recovered))
        return windows

    def summary(self) -> dict:
        windows = self.outage_windows()

        def in_outage(o: Outcome) -> bool:
            return any(o.started < end and o.started + o.seconds >= start for start, end in windows)

        by_status = Counter(o.status for o in self.outcomes)
        errors = [o for o in self.outcomes if o.status == "error"]
        steady = [o for o in errors if not in_outage(o)]
        latency = {}
        for kind in sorted({o.kind for o in self.outcomes}):
            times = [o.seconds * 1000 for o in self.outcomes if o.kind == kind and o.status == "ok"]
            if times:
                latency[kind] = {
                    "ok": len(times),
                    "p50_ms": round(statistics.median(times)),
                    "p99_ms": round(percentile(times, 0.99)),
                    "max_ms": round(max(times)),
                }
        memory = self.findings.memory
        return {
            "config": asdict(self.config),
            "seconds": round(max((o.started + o.seconds for o in self.outcomes), default=0), 1),
            "calls": len(self.outcomes),
            "ok": by_status["ok"],
            "errors": len(errors),
            "errors_in_outages": len(errors) - len(steady),
            "errors_outside_outages": [asdict(o) for o in steady],
            "error_messages": Counter(o.detail for o in errors).most_common(12),
            "wrong": [asdict(o) for o in self.outcomes if o.status == "wrong"],
            "unanswered": [asdict(o) for o in self.outcomes if o.status == "unanswered"],
            "slowest_error_s": round(max((o.seconds for o in errors), default=0), 1),
            "latency": latency,
            "faults": self.findings.faults,
            "memory": memory,
            "front_growth_kb": front_growth(memory.get("60%"), memory.get("100%")),
            "host_growth_kb": host_growth(memory.get("60%"), memory.get("100%")),
            "listener_samples": self.findings.samples,
            "listeners": self.findings.listeners,
            "modes": self.findings.modes,
            "leaks": self.findings.leaks,
            "end_tabs": len(self.findings.end_tabs),
            "secrets": self.findings.secrets,
            "masked": dict(self.findings.masked),
            "notifications": self.findings.notifications,
            "tracebacks": self.findings.tracebacks,
        }


def front_growth(early: dict | None, late: dict | None) -> int | None:
    """The largest RSS growth of a front between two samples (the fronts live through the whole run)."""
    if not early or not late:
        return None
    common = set(early["fronts_kb"]) & set(late["fronts_kb"])
    growths = [
        late["fronts_kb"][pid] - early["fronts_kb"][pid]
        for pid in common
        if late["fronts_kb"][pid] and early["fronts_kb"][pid]
    ]
    return max(growths, default=None)


def host_growth(early: dict | None, late: dict | None) -> int | None:
    """The RSS growth of the host between two samples, if it is the same host in both."""
    if not early or not late:
        return None
    common = set(early["host_kb"]) & set(late["host_kb"])
    return max((late["host_kb"][pid] - early["host_kb"][pid] for pid in common), default=None)


def tracebacks(log: str) -> list[str]:
    """Each Python traceback in a log, with the line before it (what logged it) and any traceback chained to it,
    cut to its end: the last frames and the exception, which say why."""
    found = []
    lines = log.splitlines()
    start = 0
    while start < len(lines):
        if not lines[start].startswith("Traceback (most recent call last):"):
            start += 1
            continue
        end = start
        while True:
            end += 1
            while end < len(lines) and lines[end].startswith(" "):
                end += 1
            # the exception's line; then maybe "During handling of the above exception..." and another traceback
            chained = end + 2 < len(lines) and lines[end + 2].startswith(("During handling", "The above exception"))
            if not chained:
                break
            end += 4  # the exception, a blank line, the sentence, a blank line: at the next "Traceback"
        found.append("\n".join(lines[max(start - 1, 0) : end + 1])[-1500:])
        start = end + 1
    return found


def failures(summary: dict) -> list[str]:
    """The checks a run must pass, as readable lines (empty: passed)."""
    checks = {
        "unanswered calls": summary["unanswered"],
        "wrong answers": summary["wrong"],
        "TCP/UDP listeners": summary["listeners"],
        "socket or folder modes": summary["modes"],
        "leaks": summary["leaks"],
        "secrets seen": summary["secrets"],
        "tracebacks in logs": summary["tracebacks"],
    }
    found = [f"{name}: {json.dumps(value)[:2000]}" for name, value in checks.items() if value]
    for who, growth, bound in (
        ("a front", summary["front_growth_kb"], FRONT_GROWTH_KB),
        ("the host", summary["host_growth_kb"], HOST_GROWTH_KB),
    ):
        if growth is not None and growth > bound:
            found.append(f"memory: {who} grew by {growth} kB after warm-up (bound {bound} kB)")
    expected = ("telemetry", "notification") if summary["config"]["clients"] > 1 else ("telemetry",)
    for where in expected:
        if not summary["masked"].get(where):
            found.append(f"no masked secret in any {where}: the secret check saw nothing to check")
    if summary["calls"] < summary["config"]["calls"]:
        found.append(f"only {summary['calls']} of {summary['config']['calls']} calls were made in time")
    return found


class Agent:
    """One client's side of the soak: its own window on the soak page, and the calls it draws."""

    def __init__(self, soak: Soak, index: int, client: Client, rng: random.Random, streaming: bool) -> None:
        self.soak, self.index, self.client, self.rng = soak, index, client, rng
        self.streaming = streaming
        self.page = f"{soak.base}/soak.html?client={index}"
        self.ready = False
        self.labels: dict[str, int] = {}
        self.warmup = rng.sample(list(MIX), len(MIX))

    async def step(self) -> None:
        ok = await (self.step_setup() if not self.ready else self.step_mixed())
        if not ok:
            self.ready = False
            await anyio.sleep(ERROR_PAUSE)

    async def step_setup(self) -> bool:
        """Find this client's tab (it survives a host restart, not a browser restart), or open it; track it."""
        listing = await self.soak.call(self, "setup", "observe", {"what": "tabs"}, lambda r: answer_json(r)["browsers"])
        if listing is None:
            return False
        tabs = [tab for browser in answer_json(listing)["browsers"] for tab in browser["tabs"]]
        mine = next((tab for tab in tabs if tab["url"].split("#")[0] == self.page), None)
        if mine is None:  # the session's own tab (on the embedded browser, each has one) goes to the page
            opened = await self.soak.call(self, "setup", "interact", {"action": "navigate", "url": self.page})
            return False if opened is None else await self.step_setup()
        tracked = await self.soak.call(self, "setup", "configure", {"action": "track", "tab_id": mine["id"]})
        if tracked is None:
            return False
        if self.streaming:
            streaming = await self.soak.call(
                self,
                "setup",
                "configure",
                {
                    "action": "streaming",
                    "streaming_action": "enable",
                    "events": ["errors", "network_errors"],
                    "throttle_seconds": 2,
                },
            )
            if streaming is None:
                return False
        self.ready, self.labels = True, {}
        return True

    async def step_mixed(self) -> bool:
        # each kind of call once first, so that every front has loaded what it loads on first use (numpy
        # for annotations, say) before memory is compared; then drawn by MIX's weights
        kind = self.warmup[-1] if self.warmup else self.rng.choices(list(MIX), weights=list(MIX.values()))[0]
        ok = await getattr(self, kind)()
        if ok and self.warmup and self.warmup[-1] == kind:
            self.warmup.pop()
        return ok

    async def observe(self) -> bool:
        def check(result):
            if not answer_json(result)["url"].startswith(self.page):
                raise Failed(f"observe page shows {answer_json(result)['url']}, not the client's page")

        return await self.soak.call(self, "observe", "observe", {"what": "page"}, check) is not None

    async def telemetry(self) -> bool:
        what = self.rng.choice(["errors", "logs", "network", "vitals", "alerts"])
        return await self.soak.call(self, "telemetry", "observe", {"what": what, "limit": 20}, answer_json) is not None

    async def screenshot(self) -> bool:
        arguments: dict[str, Any] = {"format": self.rng.choice(["png", "jpeg", "webp"])}
        shape = self.rng.random()
        if shape < 0.1:
            arguments["fullPage"] = True
        elif shape < 0.2:
            arguments["selector"] = "#add"
        return await self.soak.call(self, "screenshot", "screenshot", arguments, check_screenshot) is not None

    async def screenshot_url(self) -> bool:
        width, height = self.rng.choice([(800, 600), (1024, 768)])
        arguments: dict[str, Any] = {
            "url": f"{self.page}&shot=1",
            "width": width,
            "height": height,
            "format": "jpeg",
            "waitForNetworkIdle": self.rng.random() < 0.3,
        }
        if self.rng.random() < 0.5:
            arguments["cookies"] = [{"name": "session", "value": SECRETS["cookie"], "domain": "127.0.0.1", "path": "/"}]

        def check(result):
            check_screenshot(result)
            size = image_size(images_of(result)[0].data)
            if size != (width, height):
                raise Failed(f"screenshot(url) is {size}, asked for {(width, height)}")

        return await self.soak.call(self, "screenshot_url", "screenshot", arguments, check) is not None

    async def annotate(self) -> bool:
        def check(result):
            (image,) = images_of(result)
            width, height = image_size(image.data)
            marks = answer_json(result)["annotations"]
            if not marks:
                raise Failed("an annotated screenshot of the soak page without marks")
            for mark in marks:
                box = mark["bounds"]
                outside = (
                    box["x"] >= width
                    or box["y"] >= height
                    or min(box["x"] + box["width"], box["y"] + box["height"]) <= 0
                )
                if outside:
                    raise Failed(f"mark {mark['label']} at {box} is outside the {width}x{height} image")

        result = await self.soak.call(
            self,
            "annotate",
            "observe",
            {
                "what": "page",
                "annotate_screenshot": True,
                "annotation_format": "json",
                "full_map": True,  # the whole map each time: a look at an unchanged page is a line
                "max_width": 1280,  # the picture at the viewport's size: bounds are its pixels
            },
            check,
        )
        if result is not None:
            # an unnamed element's mark has no name field
            self.labels = {mark.get("name", ""): mark["label"] for mark in answer_json(result)["annotations"]}
        return result is not None

    async def interact(self) -> bool:
        choice = self.rng.random()
        if choice < 0.3:
            target = {"label": self.labels["Add"]} if "Add" in self.labels else {"selector": "#add"}
            arguments = {"action": "click", **target}
        elif choice < 0.5:
            arguments = {"action": "type", "selector": "#name", "text": f"client {self.index}", "clear": True}
        elif choice < 0.6:
            arguments = {"action": "select", "selector": "#colour", "value": self.rng.choice(["red", "green"])}
        elif choice < 0.7:
            arguments = {"action": "scroll", "delta_y": self.rng.choice([-400, 400])}
        elif choice < 0.8:
            arguments = {"action": "press", "key": "Tab"}
        else:
            arguments = {"action": "navigate", "url": self.page}
        result = await self.soak.call(self, f"interact {arguments['action']}", "interact", arguments, answer_json)
        if arguments["action"] == "navigate":
            self.labels = {}
        return result is not None

    async def execute(self) -> bool:
        def check(result):
            (image,) = images_of(result)
            image_size(image.data)
            if not isinstance(answer_json(result)["script"]["result"], int):
                raise Failed("execute's script result is not the item count")

        arguments = {
            "action": "execute",
            "script": "document.querySelectorAll('#items li').length",
            "cdp": [{"method": "Page.captureScreenshot", "params": {"format": "jpeg", "quality": 60}}],
        }
        return await self.soak.call(self, "execute", "interact", arguments, check) is not None


def check_screenshot(result) -> None:
    images = images_of(result)
    if not images:
        raise Failed("no image in the screenshot's answer")
    metadata = answer_json(result)["metadata"]
    size = image_size(images[0].data)
    if size != (metadata["width"], metadata["height"]):
        raise Failed(f"image is {size}, metadata says {metadata['width']}x{metadata['height']}")


def print_report(summary: dict) -> None:
    ok, calls = summary["ok"], summary["calls"]
    print(
        f"calls        {calls} by {summary['config']['clients']} clients in {summary['seconds']} s: "
        f"{ok} ok, {summary['errors']} errors ({summary['errors_in_outages']} in outages), "
        f"{len(summary['wrong'])} wrong, {len(summary['unanswered'])} unanswered"
    )
    for fault in summary["faults"]:
        print(
            f"fault        {fault['fault']} at call {fault['at_call']}: every client answered well again "
            f"after {fault.get('recovered_s')} s"
        )
    print(
        f"memory       front growth {summary['front_growth_kb']} kB (60% to 100%), "
        f"host growth {summary['host_growth_kb']} kB (60% to 100%)"
    )
    for label, sample in summary["memory"].items():
        fronts = [kb for kb in sample["fronts_kb"].values() if kb]
        hosts = [kb for kb in sample["host_kb"].values() if kb]
        print(
            f"  at {label:5} fronts {min(fronts, default=0) // 1024}-{max(fronts, default=0) // 1024} MB, "
            f"host {', '.join(str(kb // 1024) for kb in hosts) or '-'} MB"
        )
    print(
        f"listeners    {len(summary['listeners'])} in {summary['listener_samples']} samples; "
        f"modes {summary['modes'] or 'all 0600/0700'}"
    )
    print(f"leaks        {summary['leaks'] or 'none'} ({summary['end_tabs']} tabs open at the end)")
    print(
        f"secrets      {summary['secrets'] or 'none seen'}; masked: {summary['masked']}; "
        f"{summary['notifications']} notifications"
    )
    print(
        "latency      "
        + "; ".join(
            f"{kind} p50 {r['p50_ms']} p99 {r['p99_ms']} max {r['max_ms']} ms" for kind, r in summary["latency"].items()
        )
    )
    for message, count in summary["error_messages"]:
        print(f"error x{count:<4} {message}")
