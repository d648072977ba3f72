"""Streamed alert latency, and the host's memory under a flood of console errors.

    .venv/bin/python bench/telemetry_bench.py [--events 200] [--per-session 10] [--flood 100000] [--frames 50]

One run measures two figures on one embedded headless Chromium, kept up for
the whole run by an in-process BrowserConnection (as bench/annotate_bench.py's is):

- Alert latency, end to end: from a page's `console.error` to the
  `notifications/message` that the official SDK client (legacy mode, so
  streamed alerts come as logging notifications) receives from a real
  `python -m tabsight mcp` subprocess. The page writes `Date.now()` (ms)
  into each message; the client's logging_callback parses it back from the
  alert's title ("Console error: bench-latency <ms> s<k> i<n>") and takes
  `time.time()*1000 - that`. Page and bench share the machine's clock.
  Streaming allows at most one notification per throttle_seconds (>= 1 s)
  and 12 a minute per session, so every event must stay outside the
  throttle and under the cap: each session (a fresh `tabsight mcp`) enables
  streaming (events ["errors"], throttle_seconds 1, severity_min "error"),
  navigates its tracked tab to a page that logs one distinct console.error
  every 1.1 s, --per-session times, and is closed after. An event counts as
  missed when no notification names it within 5 s; one that came in a batch
  (it fell inside a throttle window) is counted apart and not timed.
- Host memory under a flood: the host process's VmRSS (/proc/<pid>/status;
  pid from the host's hello) while one tab, with --frames same-origin
  iframes, logs --flood distinct console errors in all. The extension's
  relay passes at most 100 reports a second per frame (and counts the rest
  as dropped), so each frame logs --rate (default 90) a second: the flood
  takes --flood / (frames * rate) seconds (~22 s by default) and should
  lose nothing. An MCP client stays connected meanwhile, with streaming on
  (errors, throttle 1 s), as an agent's would: every error is an alert the
  host sends to every connected front. "Ingested" is how far the host's
  global telemetry sequence (telemetry.query's cursor) moved: the console
  errors, plus the few Web Vitals records the frames' loads report. The
  host's RSS is sampled as it goes (and reported at 0, 25%, 50%, 75%, 100%
  of --flood ingested), then again a few seconds after; the front's
  (`tabsight mcp`) RSS is shown too.

TABSIGHT_RUNTIME_DIR is a fresh 0700 folder for the whole run, so the bench
never meets a user's browser.

docs/design.md targets: alert latency p99 < 20 ms; host RSS < 60 MB (§7).
Results are printed as a markdown table and written to bench/results/telemetry.json.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import (
    CHROMIUM,
    Failed,
    describe,
    mb,
    percentile,
    serve,
    tabsight_server,
    text_of,
    use_in_process,
    workspace,
)
from harness.calls import unmarked  # after common, which puts tests/ on sys.path
from harness.processes import front_pids, rss_kb

#: ms between the latency page's errors: just over the 1 s throttle
EVERY_MS = 1100
#: an event with no notification within this long is missed
MISS_AFTER_MS = 5000
THROTTLE_SECONDS = 1
#: the relay's cap per frame and second (extension/content-scripts/isolated-world/telemetry.js)
RELAY_CAP = 100
#: the flood page logs this often, rate/10 errors each time
FLOOD_TICK_MS = 100
#: the flood gives up when the host's sequence stops moving this long, or after FLOOD_LIMIT_S
STALL_S = 15
FLOOD_LIMIT_S = 240
#: the host's RSS is looked at this often during the flood
SAMPLE_S = 0.25
SETTLE_S = 5

LATENCY = "alert latency: console.error -> notifications/message"
HOST_RSS = "host RSS after the flood"
TARGETS = {LATENCY: "p99 < 20 ms", HOST_RSS: "< 60 MB"}
TARGET_P99_MS = 20
TARGET_RSS_MB = 60

TITLE = re.compile(r"^Console error: bench-latency (\d+) s(\d+) i(\d+)$")


# -- the pages --------------------------------------------------------------

LATENCY_PAGE = """<!doctype html><html><head><title>latency bench</title></head><body>
<h1>console.error every EVERY ms</h1><script>
const q = new URLSearchParams(location.search);
const session = q.get('s'), count = Number(q.get('n')), every = Number(q.get('every'));
let i = 0;
const timer = setInterval(() => {
  i += 1;
  console.error('bench-latency ' + Date.now() + ' s' + session + ' i' + i);
  if (i >= count) clearInterval(timer);
}, every);
</script></body></html>"""

FLOOD_PAGE = """<!doctype html><html><head><title>flood bench</title>
<style>iframe{width:60px;height:40px;border:1px solid #ccc}</style></head><body><script>
const q = new URLSearchParams(location.search);
const frames = Number(q.get('frames'));
for (let f = 0; f < frames; f++) {
  const frame = document.createElement('iframe');
  frame.src = 'flood-frame.html?f=' + f + '&' + q.toString();
  document.body.appendChild(frame);
}
</script></body></html>"""

FLOOD_FRAME = """<!doctype html><html><head><title>flood frame</title></head><body><script>
const q = new URLSearchParams(location.search);
const frame = q.get('f'), total = Number(q.get('total')), perTick = Number(q.get('per')), tick = Number(q.get('tick'));
let n = 0;
const timer = setInterval(() => {
  for (let k = 0; k < perTick && n < total; k++) {
    n += 1;
    console.error('bench-flood f' + frame + ' n' + n);
  }
  if (n >= total) clearInterval(timer);
}, tick);
</script></body></html>"""


# -- helpers -------------------------------------------------------------------


async def call(client: Client, tool: str, arguments: dict) -> dict:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise Failed(f"{tool} {arguments} failed: {text_of(result)[:300]}")
    return json.loads(unmarked(text_of(result)))


class Heard:
    """What one session's logging_callback received: (arrival ms, data)."""

    def __init__(self) -> None:
        self.received: list[tuple[float, dict]] = []

    async def __call__(self, params) -> None:
        arrived = time.time() * 1000
        if params.logger == "tabsight":  # the alert's JSON, as a page-content region
            self.received.append((arrived, json.loads(unmarked(params.data))))


# -- 1. alert latency ---------------------------------------------------------------


async def latency_session(params: StdioServerParameters, base_url: str, number: int, count: int) -> dict:
    """One fresh `tabsight mcp`: streaming on, a page that logs `count` errors; what arrived."""
    heard = Heard()
    events: dict[int, dict] = {}
    other: list[str] = []
    with anyio.fail_after(count * EVERY_MS / 1000 + 60):
        async with Client(params, mode="legacy", logging_callback=heard, read_timeout_seconds=60) as client:
            enabled = await call(
                client,
                "configure",
                {
                    "action": "streaming",
                    "streaming_action": "enable",
                    "events": ["errors"],
                    "throttle_seconds": THROTTLE_SECONDS,
                    "severity_min": "error",
                },
            )
            if not enabled.get("config", {}).get("enabled"):
                raise Failed(f"streaming not enabled: {enabled}")
            await call(
                client,
                "interact",
                {
                    "action": "navigate",
                    "url": f"{base_url}/latency.html?s={number}&n={count}&every={EVERY_MS}",
                },
            )
            # the page's last error comes count * EVERY_MS after its load; then MISS_AFTER_MS to arrive
            deadline = time.monotonic() + (count * EVERY_MS + MISS_AFTER_MS) / 1000 + 1
            while time.monotonic() < deadline:
                seen = sum(len(data.get("alerts", [data])) for _, data in heard.received)
                if seen >= count:
                    break
                await anyio.sleep(0.05)
            status = await call(client, "configure", {"action": "streaming", "streaming_action": "status"})
    for arrived, data in heard.received:
        batched = data.get("category") == "batch"
        for alert in data.get("alerts", [data]) if batched else [data]:
            match = TITLE.match(alert.get("title", ""))
            if not match or int(match.group(2)) != number:
                other.append(alert.get("title", "")[:120])
                continue
            sent, index = int(match.group(1)), int(match.group(3))
            if index in events:
                other.append(f"duplicate: {alert['title'][:120]}")
                continue
            events[index] = {"ms": arrived - sent, "batched": batched, "sent": sent}
    return {
        "events": events,
        "other": other,
        "notify_count": status.get("notify_count"),
        "pending": status.get("pending"),
    }


async def measure_latency(params: StdioServerParameters, base_url: str, total: int, per_session: int) -> dict:
    sessions = math.ceil(total / per_session)
    samples: list[float] = []
    batched = missed = late = 0
    errors: list[str] = []
    others: list[str] = []
    started = time.monotonic()
    for number in range(sessions):
        count = min(per_session, total - number * per_session)
        try:
            outcome = await latency_session(params, base_url, number, count)
        except Exception as error:  # noqa: BLE001 -- a session that failed: its events are missed, the next goes on
            errors.append(f"session {number}: {describe(error)}")
            missed += count
            continue
        others += outcome["other"]
        for index in range(1, count + 1):
            event = outcome["events"].get(index)
            if event is None:
                missed += 1
            elif event["ms"] > MISS_AFTER_MS:
                late += 1
                missed += 1
            elif event["batched"]:
                batched += 1
            else:
                samples.append(event["ms"])
        print(
            f"  session {number + 1}/{sessions}: {len(outcome['events'])}/{count} heard, "
            f"notify_count {outcome['notify_count']}",
            flush=True,
        )
    result: dict[str, Any] = {
        "events": total,
        "sessions": sessions,
        "per_session": per_session,
        "timed": len(samples),
        "missed": missed,
        "late_over_5s": late,
        "batched_not_timed": batched,
        "session_failures": len(errors),
        "first_error": errors[0] if errors else None,
        "unexpected_notifications": others[:10],
        "duration_s": round(time.monotonic() - started, 1),
    }
    if samples:
        result.update(
            {
                "p50_ms": round(statistics.median(samples), 1),
                "p90_ms": round(percentile(samples, 0.9), 1),
                "p99_ms": round(percentile(samples, 0.99), 1),
                "max_ms": round(max(samples), 1),
                "min_ms": round(min(samples), 1),
                "mean_ms": round(statistics.fmean(samples), 1),
                "note": "page Date.now() (1 ms resolution) to the SDK client's logging_callback",
            }
        )
    return result


# -- 2. host memory under a flood ----------------------------------------------------


async def host_cursor(browser, timeout: float = 5) -> int:
    """The host's global telemetry sequence: how many records it has ingested since it started."""
    return (await browser.telemetry(None, "logs", limit=1, timeout=timeout))["cursor"]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure_flood(
    browser, params: StdioServerParameters, base_url: str, flood: int, frames: int, rate: int
) -> dict:
    host_pid = browser.hello.pid
    per_tick = max(1, rate * FLOOD_TICK_MS // 1000)
    per_frame = math.ceil(flood / frames)
    produced = per_frame * frames
    heard = Heard()
    before_pids = front_pids()
    with anyio.fail_after(FLOOD_LIMIT_S + 120):
        async with Client(params, mode="legacy", logging_callback=heard, read_timeout_seconds=60) as client:
            await call(
                client,
                "configure",
                {
                    "action": "streaming",
                    "streaming_action": "enable",
                    "events": ["errors"],
                    "throttle_seconds": THROTTLE_SECONDS,
                },
            )
            await call(client, "observe", {"what": "tabs"})  # the session has its browser: alerts reach it
            front = sorted(front_pids() - before_pids)
            front_pid = front[-1] if front else None
            tab = (await browser.tabs())["focused_tab_id"]
            await browser.navigate(tab, f"{base_url}/index.html", timeout_ms=30_000)
            await anyio.sleep(1)
            status0 = await browser.status()
            cursor0 = await host_cursor(browser)
            rss0, front_rss0 = rss_kb(host_pid), rss_kb(front_pid) if front_pid else None
            cpu0 = cpu_seconds(host_pid)

            url = f"{base_url}/flood.html?frames={frames}&total={per_frame}&per={per_tick}&tick={FLOOD_TICK_MS}"
            started = time.monotonic()
            await browser.navigate(tab, url, timeout_ms=30_000)
            curve = [{"t_s": 0.0, "ingested": 0, "host_rss_mb": mb(rss0), "front_rss_mb": mb(front_rss0)}]
            marks = {0: curve[0]}
            steps = [round(flood * q) for q in (0.25, 0.5, 0.75, 1.0)]
            last_move, last = time.monotonic(), 0
            peak = rss0 or 0
            answers: list[float] = []  # how long the host took to answer each sample's query
            cpu_at, sampled = cpu_seconds(host_pid), time.monotonic()
            unanswered = 0
            while time.monotonic() - started < FLOOD_LIMIT_S:
                await anyio.sleep(SAMPLE_S)
                asked = time.monotonic()
                try:
                    ingested = await host_cursor(browser, timeout=30) - cursor0
                except Exception:  # noqa: BLE001 -- a busy host may not answer in time: skip this sample
                    unanswered += 1
                    continue
                answers.append(time.monotonic() - asked)
                host_rss = rss_kb(host_pid)
                peak = max(peak, host_rss or 0)
                now, cpu = time.monotonic(), cpu_seconds(host_pid)
                sample = {
                    "t_s": round(now - started, 2),
                    "ingested": ingested,
                    "host_rss_mb": mb(host_rss),
                    "front_rss_mb": mb(rss_kb(front_pid)) if front_pid else None,
                    "answer_ms": round(answers[-1] * 1000),
                    "host_cpu_pct": round((cpu - cpu_at) / (now - sampled) * 100) if cpu and cpu_at else None,
                }
                cpu_at, sampled = cpu, now
                curve.append(sample)
                for step in steps:
                    if step not in marks and ingested >= step:
                        marks[step] = sample
                if ingested != last:
                    last_move, last = time.monotonic(), ingested
                if ingested >= produced or time.monotonic() - last_move > STALL_S:
                    break
            flood_s = time.monotonic() - started
            cpu1 = cpu_seconds(host_pid)
            await anyio.sleep(SETTLE_S)  # what is left in the pipes arrives; the host settles
            ingested = await host_cursor(browser) - cursor0
            status1 = await browser.status()
            rss1 = rss_kb(host_pid)
            front_rss1 = rss_kb(front_pid) if front_pid else None
            stream = await call(client, "configure", {"action": "streaming", "streaming_action": "status"})
            await browser.navigate(tab, f"{base_url}/index.html", timeout_ms=30_000)
    ingested_at_mark = curve[-1]["ingested"]
    return {
        "host_pid": host_pid,
        "front_pid": front_pid,
        "frames": frames,
        "rate_per_frame_s": per_tick * 1000 // FLOOD_TICK_MS,
        "produced_by_pages": produced,
        "ingested_by_host": ingested,
        "relay_dropped": status1["telemetry"]["dropped"] - status0["telemetry"]["dropped"],
        "flood_s": round(flood_s, 1),
        "ingest_rate_per_s": round(ingested_at_mark / flood_s) if flood_s else None,
        "pages_logging_s": round(per_frame / (per_tick * 1000 / FLOOD_TICK_MS), 1),
        "host_cpu_percent": round((cpu1 - cpu0) / flood_s * 100) if cpu0 is not None and cpu1 is not None else None,
        "host_query_answer_ms": {"p50": round(statistics.median(answers) * 1000), "max": round(max(answers) * 1000)}
        if answers
        else None,
        "samples_unanswered": unanswered,
        "host_rss_before_mb": mb(rss0),
        "host_rss_peak_mb": mb(peak),
        "host_rss_after_mb": mb(rss1),
        "front_rss_before_mb": mb(front_rss0),
        "front_rss_after_mb": mb(front_rss1),
        "fronts_connected": status1.get("fronts"),
        "notifications_to_client": len(heard.received),
        "alerts_in_notifications": sum(len(d.get("alerts", [d])) for _, d in heard.received),
        "stream_status": stream,
        "rss_at": {str(step): marks.get(step) for step in [0, *steps]},
        "curve": curve[:: max(1, len(curve) // 60)] + ([curve[-1]] if len(curve) > 60 else []),
        "note": "ingested = advance of the host's telemetry sequence: console errors plus a few Web Vitals records",
    }


# -- report -------------------------------------------------------------------------


def table(latency: dict, flood: dict, baseline: dict) -> str:
    lines = ["| measurement | value | DESIGN target | verdict |", "|---|---|---|---|"]
    if "p99_ms" in latency:
        lines.append(
            f"| {LATENCY} | p50 {latency['p50_ms']} ms, p90 {latency['p90_ms']} ms, p99 {latency['p99_ms']} ms, "
            f"max {latency['max_ms']} ms ({latency['timed']} timed of {latency['events']}; missed {latency['missed']}, "
            f"batched {latency['batched_not_timed']}) | {TARGETS[LATENCY]} | "
            f"{'met' if latency['p99_ms'] < TARGET_P99_MS else 'MISSED'} |"
        )
    elif "error" in latency:
        lines.append(f"| {LATENCY} | failed: {latency['error'][:200]} | {TARGETS[LATENCY]} | |")
    else:
        lines.append(f"| {LATENCY} | nothing timed ({latency.get('first_error')}) | {TARGETS[LATENCY]} | |")
    if "host_rss_after_mb" in flood:
        reached = flood["ingested_by_host"]
        lines.append(
            f"| {HOST_RSS} ({reached:,} ingested of {flood['produced_by_pages']:,} produced, "
            f"{flood['relay_dropped']:,} dropped by the relay) | {flood['host_rss_after_mb']} MB "
            f"(before {flood['host_rss_before_mb']} MB, peak {flood['host_rss_peak_mb']} MB) | {TARGETS[HOST_RSS]} | "
            f"after: {'met' if flood['host_rss_after_mb'] < TARGET_RSS_MB else 'MISSED'}; "
            f"peak: {'met' if flood['host_rss_peak_mb'] < TARGET_RSS_MB else 'MISSED'} |"
        )
        for step, sample in flood["rss_at"].items():
            if sample:
                lines.append(
                    f"| host RSS at {int(step):,} ingested (t={sample['t_s']} s) | {sample['host_rss_mb']} MB "
                    f"(front {sample['front_rss_mb']} MB) | | |"
                )
            else:
                lines.append(f"| host RSS at {int(step):,} ingested | not reached | | |")
        lines.append(
            f"| front (tabsight mcp) RSS, before / after the flood | {flood['front_rss_before_mb']} / "
            f"{flood['front_rss_after_mb']} MB | | |"
        )
        answer = flood["host_query_answer_ms"] or {}
        lines.append(
            f"| flood: ingest rate, duration | {flood['ingest_rate_per_s']:,} /s over {flood['flood_s']} s (pages logged "
            f"for {flood['pages_logging_s']} s); host CPU {flood['host_cpu_percent']}%; host's answer to telemetry.query "
            f"p50 {answer.get('p50')} ms, max {answer.get('max')} ms | | |"
        )
    elif "error" in flood:
        lines.append(f"| {HOST_RSS} | failed: {flood['error'][:200]} | {TARGETS[HOST_RSS]} | |")
    lines.append(f"| host RSS at browser start | {baseline.get('host_rss_start_mb')} MB | | |")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=200, help="latency events in all")
    parser.add_argument("--per-session", type=int, default=10, help="latency events per MCP session (at most 11)")
    parser.add_argument("--flood", type=int, default=100_000, help="console errors the flood pages log in all")
    parser.add_argument("--frames", type=int, default=50, help="iframes logging at once in the flood")
    parser.add_argument("--rate", type=int, default=90, help=f"errors a second per frame (relay cap {RELAY_CAP})")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    if not 1 <= args.per_session <= 11:
        parser.error("--per-session must be 1 to 11: 12 notifications a minute is the cap")

    workdir, runtime = workspace()
    use_in_process(runtime, args.chromium)

    server = serve(workdir)
    (workdir / "latency.html").write_text(LATENCY_PAGE)
    (workdir / "flood.html").write_text(FLOOD_PAGE)
    (workdir / "flood-frame.html").write_text(FLOOD_FRAME)
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    params = tabsight_server(runtime, args.chromium)

    from tabsight.browser.connection import BrowserConnection

    browsers = BrowserConnection("bench")  # keeps the embedded browser up between the MCP sessions
    latency: dict[str, Any] = {}
    flood: dict[str, Any] = {}
    baseline: dict[str, Any] = {}
    try:
        with anyio.fail_after(90):
            browser = await browsers.client()
            baseline["host_rss_start_mb"] = mb(rss_kb(browser.hello.pid))
            baseline["browser"] = browser.name
        print(f"alert latency: {args.events} events, {args.per_session} per session ...", flush=True)
        try:
            latency = await measure_latency(params, base_url, args.events, args.per_session)
        except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
            latency = {"error": describe(error)}
        baseline["host_rss_after_latency_mb"] = mb(rss_kb(browser.hello.pid))
        print(f"flood: {args.flood} errors from {args.frames} frames ...", flush=True)
        try:
            flood = await measure_flood(browser, params, base_url, args.flood, args.frames, min(args.rate, RELAY_CAP))
        except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
            flood = {"error": describe(error)}
    except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
        baseline["error"] = describe(error)
    finally:
        with anyio.move_on_after(20, shield=True):
            await browsers.aclose()
            await browsers.wait_for_end()  # before its runtime folder is removed
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)

    print(table(latency, flood, baseline))
    for name, part in (("latency", latency), ("flood", flood), ("browser", baseline)):
        if part.get("error") or part.get("first_error"):
            print(f"\n{name}, first failure: {(part.get('error') or part.get('first_error'))[:500]}")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "telemetry.json").write_text(
        json.dumps(
            {"targets": TARGETS, "browser": baseline, "latency": latency, "flood": flood},
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
