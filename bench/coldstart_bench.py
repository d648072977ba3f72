"""Cold start to first image: p50 and min over N runs, each a fresh MCP server and a fresh browser.

    .venv/bin/python bench/coldstart_bench.py [--runs 5] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

One run is what an agent's first look at a page costs when nothing is
running yet: wall time from spawning the MCP server process (through the
official MCP SDK client, as the other benches do), through `initialize`, to
the first image block of a 1280x720 JPEG of the local bench page (served on
127.0.0.1):

- tabsight (`python -m tabsight mcp`): one `screenshot` call with `url`; it
  starts its embedded headless Chromium on that call. Every run has a fresh
  private runtime folder, so it never finds the previous run's browser.
- Playwright MCP: `browser_navigate` (which starts its browser) then
  `browser_take_screenshot` (JPEG).
- Chrome DevTools MCP: `navigate_page` (which starts its browser) then
  `take_screenshot` (JPEG quality 80), with --no-page-id-routing.

All on the same Chromium binary, headless, with a fresh profile. After each
run the bench waits until the server's whole process tree (its browser too)
has ended before the next starts, and kills by pid what is left after 20 s
(counted in the table). TABSIGHT_EMBEDDED_LINGER is set to 0.5 s (default 2)
so tabsight's browser ends soon after its last client. Runs alternate
between the servers, so a noisy moment of the machine is shared. The time
to `initialize` (the SDK client's connect) is reported apart.

Peers default to their install in /tmp/peers and are skipped when missing:

    mkdir -p /tmp/peers && cd /tmp/peers && npm install @playwright/mcp@latest chrome-devtools-mcp@latest

docs/design.md §7 sets no target for this. Results are printed as a markdown table
and written to bench/results/coldstart.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time
from pathlib import Path

import anyio
from common import (
    UrlServer,
    describe,
    failure_notes,
    fresh_server,
    image_of,
    peer_arguments,
    serve,
    url_servers,
    workspace,
)

#: seconds the bench waits for a closed server's processes to end before it kills them
GONE_WITHIN = 20.0


async def one_run(server: UrlServer, url: str) -> dict:
    """Spawn the server, screenshot url; the times from the spawn, in ms."""
    workdir, runtime = workspace()
    try:
        async with fresh_server(server.start(runtime), GONE_WITHIN) as fresh:
            image = image_of(await server.sample(fresh.client, url))
            first_image = time.perf_counter()
        return {
            "first_image_ms": round((first_image - fresh.spawned) * 1000),
            "initialize_ms": round((fresh.initialized - fresh.spawned) * 1000),
            "image_bytes": len(image),
            "processes": len(fresh.tree),
            "killed": len(fresh.killed),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def summary(runs: list[dict]) -> dict:
    timed = [run for run in runs if "error" not in run]
    errors = [run["error"] for run in runs if "error" in run]
    out = {"runs": len(runs), "failures": len(errors), "first_error": errors[0] if errors else None}
    if timed:
        first = [run["first_image_ms"] for run in timed]
        out.update({
            "p50_ms": round(statistics.median(first)),
            "min_ms": min(first),
            "max_ms": max(first),
            "initialize_p50_ms": round(statistics.median(run["initialize_ms"] for run in timed)),
            "processes_at_close": max(run["processes"] for run in timed),
            "killed_after_close": sum(run["killed"] for run in timed),
        })
    return {**out, "samples": runs}


def table(results: dict[str, dict]) -> str:
    lines = [
        "| server | first image p50 ms | min ms | max ms | initialize p50 ms | failures | processes | killed after close |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in results.items():
        if "p50_ms" in r:
            lines.append(f"| {name} | {r['p50_ms']} | {r['min_ms']} | {r['max_ms']} | {r['initialize_p50_ms']} | "
                         f"{r['failures']}/{r['runs']} | {r['processes_at_close']} | {r['killed_after_close']} |")
    lines += failure_notes(results)
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, _ = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    servers = url_servers(args.chromium, args.playwright_mcp, args.devtools_mcp, workdir / "pw")
    runs: dict[str, list[dict]] = {s.name: [] for s in servers if not s.missing}
    for number in range(args.runs):
        for s in servers:
            if s.missing:
                continue
            try:
                runs[s.name].append(await one_run(s, f"{url}?run={number}"))
            except Exception as error:  # noqa: BLE001 -- a failed run is counted, the others go on
                runs[s.name].append({"error": describe(error)})
            print(f"  run {number + 1}/{args.runs} {s.name}: {runs[s.name][-1]}", flush=True)

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    results = {s.name: {"error": s.missing} if s.missing else summary(runs[s.name]) for s in servers}
    print(table(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "coldstart.json").write_text(json.dumps(
        {"page": "bench page, 1280x720 JPEG", "runs": args.runs, "results": results}, indent=2,
    ))


if __name__ == "__main__":
    anyio.run(main)
