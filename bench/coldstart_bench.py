"""Cold start to first image, and `tabsight shot`: p50 and min over N runs, each from nothing.

    .venv/bin/python bench/coldstart_bench.py [--runs 5] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js] [--chromium PATH]

One run of an MCP server is what an agent's first look at a page costs when
nothing is running yet: wall time from spawning the MCP server process
(through the official MCP SDK client, as the other benches do), through its
opening request, to the first image block of a 1280x720 JPEG of the local
bench page (served on 127.0.0.1):

- tabsight (`python -m tabsight mcp`): one `screenshot` call with `url`; it
  starts its embedded headless Chromium on that call. Every run has a fresh
  private runtime folder, so it never finds the previous run's browser.
- Playwright MCP: `browser_navigate` (which starts its browser) then
  `browser_take_screenshot` (JPEG).
- Chrome DevTools MCP: `navigate_page` (which starts its browser) then
  `take_screenshot` (JPEG quality 80), with --no-page-id-routing.

One run of `tabsight shot` is the command as a user types it, `python -m
tabsight shot URL -o FILE.jpg` (its defaults: JPEG quality 80, 1280x720, and
waitForNetworkIdle, which waits 500 ms past the page's load), timed from the
spawn until it has exited, with a fresh private runtime folder; the processes
of its browser still running at that moment are counted (there should be
none). It runs a second time with TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE=false
(it captures at DOMContentLoaded, as the MCP runs do): what the wait costs.

All on the same Chromium binary, headless, with a fresh profile. After each
run the bench waits until the server's whole process tree (its browser too)
has ended before the next starts, and kills by pid what is left after 20 s
(counted in the table). TABSIGHT_EMBEDDED_LINGER is set to 0.5 s (default 2)
so tabsight's MCP browser ends soon after its last client. Runs alternate
between the servers and the command, so a noisy moment of the machine is
shared. The time to the opening answer (the SDK client's connect) is
reported apart.

tabsight's modules are byte-compiled first, as an installed tabsight's are
(pip compiles them): a source tree run with PYTHONDONTWRITEBYTECODE would
compile them again in every process, some 0.1 s of each start.

The same servers run again with their first call 3 s after the opening answer: what an agent meets, whose client
starts its servers with its session and calls a tool later. By then each server has loaded, and the first image
is timed from the call: the browser's start, the page and the capture.

Targets (issue "The first call answers at once"), p50 over Playwright MCP's: the loaded server's first call
(tabsight starts its browser as the session opens: TABSIGHT_START_AHEAD) at most 0.5x; the first image with the
call at once at most 1.0x; `tabsight shot` at most 1.0x of Playwright MCP's first image. Every row has its ratio
to Chrome DevTools MCP's beside it.

Peers default to their install in bench/peers (pinned versions) and are skipped when missing:

    bench/peers/install.sh

Results are printed as a markdown table and written to bench/results/coldstart.json.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio

import tabsight
from common import (
    DEVTOOLS,
    PLAYWRIGHT,
    TABSIGHT,
    UrlServer,
    describe,
    failure_notes,
    fresh_server,
    image_of,
    peer_arguments,
    serve,
    url_servers,
    wait_gone,
    workspace,
)
from harness.processes import descendants, environ

#: seconds the bench waits for a closed server's processes to end before it kills them
GONE_WITHIN = 20.0
#: the rows of `tabsight shot` in the table and the results: with its defaults, and without the network-idle wait
SHOT = "tabsight shot"
SHOT_NO_IDLE = "tabsight shot, TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE=false"
#: seconds between the opening answer and the first call in the runs of a loaded server (an agent's client opens
#: its servers when its session starts, and calls a tool later), and what their rows add to the server's name
SETTLE = 3.0
LOADED = f", first call {SETTLE:g} s after the opening answer"
#: issue "The first call answers at once": tabsight's p50 at most this many times Playwright MCP's, row by row
TARGETS = {TABSIGHT + LOADED: 0.5, TABSIGHT: 1.0, SHOT: 1.0}


async def one_run(server: UrlServer, url: str, settle: float = 0.0) -> dict:
    """Spawn the server, screenshot url; the times from the spawn, in ms. With settle, the call comes that many
    seconds after the opening answer, and the first image is timed from the call instead."""
    workdir, runtime = workspace()
    try:
        async with fresh_server(server.start(runtime), GONE_WITHIN) as fresh:
            await anyio.sleep(settle)
            called = time.perf_counter() if settle else fresh.spawned
            image = image_of(await server.sample(fresh.client, url))
            first_image = time.perf_counter()
        return {
            "first_image_ms": round((first_image - called) * 1000),
            "initialize_ms": round((fresh.initialized - fresh.spawned) * 1000),
            "image_bytes": len(image),
            "processes": len(fresh.tree),
            "killed": len(fresh.killed),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def shot_run(url: str, chromium: str, wait_for_network_idle: bool = True) -> dict:
    """`tabsight shot URL -o FILE.jpg` from its spawn to its exit, in ms; its browser's processes left then."""
    workdir, runtime = workspace()
    output = workdir / "shot.jpg"
    env = dict(
        os.environ,
        TABSIGHT_RUNTIME_DIR=str(runtime),
        TABSIGHT_CHROMIUM=chromium,
        TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE=str(wait_for_network_idle).lower(),
    )
    try:
        spawned = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "tabsight", "shot", url, "-o", str(output)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        exited = time.perf_counter()
        marker = f"TABSIGHT_RUNTIME_DIR={runtime}\0".encode()
        left = [pid for pid in descendants(1) if marker in environ(pid)]
        if run.returncode != 0:
            raise RuntimeError(f"exit code {run.returncode}: {run.stderr.strip()[-300:]}")
        image = output.read_bytes()
        if image[:2] != b"\xff\xd8":
            raise RuntimeError("the file written is not a JPEG")
        killed = anyio.run(wait_gone, left, GONE_WITHIN) if left else []
        return {
            "first_image_ms": round((exited - spawned) * 1000),
            "image_bytes": len(image),
            "processes": len(left),
            "killed": len(killed),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def summary(runs: list[dict]) -> dict:
    timed = [run for run in runs if "error" not in run]
    errors = [run["error"] for run in runs if "error" in run]
    out = {"runs": len(runs), "failures": len(errors), "first_error": errors[0] if errors else None}
    if timed:
        first = [run["first_image_ms"] for run in timed]
        out.update(
            {
                "p50_ms": round(statistics.median(first)),
                "min_ms": min(first),
                "max_ms": max(first),
                "processes_at_close": max(run["processes"] for run in timed),
                "killed_after_close": sum(run["killed"] for run in timed),
            }
        )
        if all("initialize_ms" in run for run in timed):
            out["initialize_p50_ms"] = round(statistics.median(run["initialize_ms"] for run in timed))
    return {**out, "samples": runs}


def ratios(results: dict[str, dict], peer: str = PLAYWRIGHT) -> dict[str, float]:
    """tabsight's p50s over ``peer``'s first image p50 (the targets' measure: Playwright MCP's), each against the
    peer's run of the same kind (at once, or a loaded server's call)."""
    theirs = results.get(peer, {}).get("p50_ms")
    if not theirs:
        return {}
    out = {
        name: round(results[name]["p50_ms"] / theirs, 2)
        for name in (TABSIGHT, SHOT, SHOT_NO_IDLE)
        if "p50_ms" in results.get(name, {})
    }
    theirs_loaded = results.get(peer + LOADED, {}).get("p50_ms")
    if theirs_loaded and "p50_ms" in results.get(TABSIGHT + LOADED, {}):
        out[TABSIGHT + LOADED] = round(results[TABSIGHT + LOADED]["p50_ms"] / theirs_loaded, 2)
    return out


def table(results: dict[str, dict]) -> str:
    lines = [
        "| server | first image (shot: exit; loaded: from the call) p50 ms | min ms | max ms | ÷ Playwright MCP "
        "| ÷ Chrome DevTools MCP | opening answered p50 ms | failures | processes | killed after close |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ratio, devtools = ratios(results), ratios(results, DEVTOOLS)
    for name, r in results.items():
        if "p50_ms" in r:
            lines.append(
                f"| {name} | {r['p50_ms']} | {r['min_ms']} | {r['max_ms']} | {ratio.get(name, '')} | "
                f"{devtools.get(name, '')} | {r.get('initialize_p50_ms', '')} | {r['failures']}/{r['runs']} | "
                f"{r['processes_at_close']} | {r['killed_after_close']} |"
            )
    lines += failure_notes(results)
    met = [
        f"{name}: {ratio[name]} x (target {target:g} x): {'met' if ratio[name] <= target else 'missed'}"
        for name, target in TARGETS.items()
        if name in ratio
    ]
    if met:
        lines.append(
            "\ntargets (p50 over Playwright MCP's first image p50):\n" + "\n".join(f"- {line}" for line in met)
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    peer_arguments(parser)
    args = parser.parse_args()

    compileall.compile_dir(Path(tabsight.__file__).parent, quiet=1)
    workdir, _ = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    servers = url_servers(args.chromium, args.playwright_mcp, args.devtools_mcp, workdir / "pw")
    runs: dict[str, list[dict]] = {s.name: [] for s in servers if not s.missing}
    runs[SHOT], runs[SHOT_NO_IDLE] = [], []
    runs.update({s.name + LOADED: [] for s in servers if not s.missing})
    for number in range(args.runs):
        for s, settle in [(s, settle) for settle in (0.0, SETTLE) for s in servers if not s.missing]:
            name = s.name + (LOADED if settle else "")
            try:
                runs[name].append(await one_run(s, f"{url}?run={number}&settle={settle:g}", settle))
            except Exception as error:  # noqa: BLE001 -- a failed run is counted, the others go on
                runs[name].append({"error": describe(error)})
            print(f"  run {number + 1}/{args.runs} {name}: {runs[name][-1]}", flush=True)
        for name, idle in ((SHOT, True), (SHOT_NO_IDLE, False)):
            try:
                runs[name].append(
                    await anyio.to_thread.run_sync(shot_run, f"{url}?run={number}&idle={idle}", args.chromium, idle)
                )
            except Exception as error:  # noqa: BLE001 -- as above
                runs[name].append({"error": describe(error)})
            print(f"  run {number + 1}/{args.runs} {name}: {runs[name][-1]}", flush=True)

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    results = {s.name: {"error": s.missing} if s.missing else summary(runs[s.name]) for s in servers}
    results.update({s.name + LOADED: summary(runs[s.name + LOADED]) for s in servers if not s.missing})
    results[SHOT], results[SHOT_NO_IDLE] = summary(runs[SHOT]), summary(runs[SHOT_NO_IDLE])
    print(table(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "coldstart.json").write_text(
        json.dumps(
            {
                "page": "bench page, 1280x720 JPEG",
                "runs": args.runs,
                "targets": TARGETS,
                "ratios": ratios(results),
                "ratios_to_devtools_mcp": ratios(results, DEVTOOLS),
                "results": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
