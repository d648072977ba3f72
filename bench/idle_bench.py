"""What a browser started ahead costs while nobody uses it, and how long it stays after its session.

    .venv/bin/python bench/idle_bench.py [--window 60] [--chromium PATH]

A fresh `tabsight mcp` (a fresh runtime folder, the default settings: TABSIGHT_START_AHEAD on) is opened through
the official MCP SDK client, which lists the tools and calls none, as a client that starts its servers with the
session does while its model has not asked for anything yet. tabsight starts its browser as the session opens.
Once its host is up and 5 s have passed, the CPU of the browser's process tree (Chromium's processes and
tabsight's host; the front apart) is measured over --window seconds (utime + stime from /proc, as
bench/cpu_bench.py does), then its memory (the sum of the processes' proportional set size). Then the client
quits, and the time until the browser's last process has ended is measured (TABSIGHT_EMBEDDED_LINGER's default,
2 s, plus the browser's own exit).

Target (issue "The first call answers at once"): at most 1 % of a core over a minute. Results: printed, and
bench/results/idle.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import anyio

from common import CHROMIUM, fresh_server, tabsight_server, tree_memory, workspace
from cpu_bench import window
from harness.processes import alive, descendants, host_pids

TARGET_CORE_PCT = 1.0
SETTLE_S = 5.0
HOST_WITHIN_S = 30.0


async def measure(seconds: float, chromium: str) -> dict:
    workdir, runtime = workspace()
    try:
        async with fresh_server(tabsight_server(runtime, chromium), gone_within=60) as fresh:
            await fresh.client.list_tools()
            deadline = time.monotonic() + HOST_WITHIN_S
            while not host_pids(runtime) and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            if not host_pids(runtime):
                raise RuntimeError(f"no browser started ahead within {HOST_WITHIN_S:g} s")
            host_up = time.perf_counter() - fresh.spawned
            await anyio.sleep(SETTLE_S)
            idle = await window(fresh.pid, seconds)
            memory = tree_memory(fresh.pid)
            browser = set(descendants(fresh.pid)) - {fresh.pid}
            quit_at = time.monotonic()
        # fresh_server waited for the whole tree to end; the browser's own processes tell when
        gone_after = None if any(alive(pid) for pid in browser) else time.monotonic() - quit_at
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "host_up_after_spawn_s": round(host_up, 2),
        "window_s": seconds,
        "browser_core_pct": idle["browser_core_pct"],
        "host_core_pct": idle["host_core_pct"],
        "front_core_pct": idle["front_core_pct"],
        "browser_and_host_core_pct": round(idle["browser_core_pct"] + idle["host_core_pct"], 2),
        "processes": memory["processes"],
        "pss_sum_mb": memory["pss_sum_mb"],
        "gone_after_quit_s": None if gone_after is None else round(gone_after, 1),
    }


def report(result: dict) -> str:
    within = "within" if result["browser_and_host_core_pct"] <= TARGET_CORE_PCT else "OVER"
    return "\n".join(
        [
            "| what | measured |",
            "|---|---|",
            f"| browser started ahead: host up after the spawn | {result['host_up_after_spawn_s']} s |",
            f"| idle CPU over {result['window_s']:g} s, browser + host | {result['browser_and_host_core_pct']} % "
            f"of a core ({within} the {TARGET_CORE_PCT:g} % target) |",
            f"| idle CPU, the front | {result['front_core_pct']} % of a core |",
            f"| memory: processes, PSS sum | {result['processes']}, {result['pss_sum_mb']} MB |",
            f"| gone after the client quit | {result['gone_after_quit_s']} s |",
        ]
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--window", type=float, default=60.0, help="seconds of idle CPU measured (default 60)")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    result = await measure(args.window, args.chromium)
    print(report(result))
    out = Path(__file__).parent / "results" / "idle.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    anyio.run(main)
