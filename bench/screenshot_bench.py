"""Screenshot of the tracked tab through MCP: p50/p90 over N calls, 1280x720 JPEG.

    .venv/bin/python bench/screenshot_bench.py [--calls 50] [--interval 0.6] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

Runs tabsight (embedded headless Chromium) and the peers found, Playwright MCP
(`browser_take_screenshot`, JPEG) and Chrome DevTools MCP (`take_screenshot`,
JPEG quality 80), on the same Chromium binary, viewport and page, in one run,
each through the official MCP SDK client, and prints a table. Peers default to
their install in /tmp/peers and are skipped when missing:

    mkdir -p /tmp/peers && cd /tmp/peers && npm install @playwright/mcp@latest chrome-devtools-mcp@latest

docs/design.md §7's target: tabsight's p50 at most half of Playwright MCP's.
Times are wall-clock from the client's call to its parsed result.

Two cadences are measured: back to back, and with --interval seconds between
calls (default 0.6: an agent looks, thinks, looks again). The cadence matters
to tabsight: chrome.tabs.captureVisibleTab (fast, reads the frame already on
screen) allows 2 calls a second, so faster bursts are served by
Page.captureScreenshot, the same mechanism Playwright uses.
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import statistics
import time
from pathlib import Path

import anyio
from common import (
    describe,
    devtools_server,
    peer_arguments,
    percentile,
    playwright_server,
    serve,
    tabsight_server,
    workspace,
)
from mcp import Client
from mcp.client.stdio import StdioServerParameters

#: docs/design.md §7: tabsight's p50 at most this fraction of Playwright MCP's
TARGET_RATIO = 0.5


async def measure(params: StdioServerParameters, navigate, shoot, calls: int, interval: float, warmup: int = 5) -> dict:
    async with Client(params, read_timeout_seconds=60) as client:
        started = time.perf_counter()
        await navigate(client)
        first_ready = time.perf_counter() - started
        for _ in range(warmup):
            await shoot(client)
        samples, sizes = [], []
        for _ in range(calls):
            await anyio.sleep(interval)
            t0 = time.perf_counter()
            result = await shoot(client)
            samples.append((time.perf_counter() - t0) * 1000)
            image = next(block for block in result.content if block.type == "image")
            sizes.append(len(base64.b64decode(image.data)))
    return {
        "p50_ms": round(statistics.median(samples), 1),
        "p90_ms": round(percentile(samples, 0.9), 1),
        "min_ms": round(min(samples), 1),
        "image_bytes": int(statistics.median(sizes)),
        "first_navigate_s": round(first_ready, 2),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.6, help="seconds between calls in the paced run")
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, runtime = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    results = {}

    cadences = (("back to back", 0.0), (f"every {args.interval:g} s", args.interval))
    # name: (server, how it loads the page, how it takes a screenshot)
    servers = {"tabsight screenshot": (
        tabsight_server(runtime, args.chromium),
        lambda c: c.call_tool("interact", {"action": "navigate", "url": url}),
        lambda c: c.call_tool("screenshot", {"format": "jpeg", "quality": 80}),
    )}
    if Path(args.playwright_mcp).is_file():
        servers["playwright-mcp take_screenshot"] = (
            playwright_server(args.playwright_mcp, args.chromium, workdir / "pw"),
            lambda c: c.call_tool("browser_navigate", {"url": url}),
            lambda c: c.call_tool("browser_take_screenshot", {"type": "jpeg"}),
        )
    if Path(args.devtools_mcp).is_file():
        servers["chrome-devtools-mcp take_screenshot"] = (
            devtools_server(args.devtools_mcp, args.chromium),
            lambda c: c.call_tool("navigate_page", {"type": "url", "url": url}),
            lambda c: c.call_tool("take_screenshot", {"format": "jpeg", "quality": 80}),
        )
    for name, (params, navigate, shoot) in servers.items():
        for cadence, interval in cadences:
            try:
                results[f"{name}, {cadence}"] = await measure(params, navigate, shoot, args.calls, interval)
            except Exception as error:  # noqa: BLE001 -- a server that fails is reported, the others still run
                results[f"{name}, {cadence}"] = {"error": describe(error)}

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"{'':48} {'p50 ms':>8} {'p90 ms':>8} {'min ms':>8} {'bytes':>8}")
    for name, r in results.items():
        if "error" in r:
            print(f"{name:48} failed: {r['error'][:300]}")
        else:
            print(f"{name:48} {r['p50_ms']:>8} {r['p90_ms']:>8} {r['min_ms']:>8} {r['image_bytes']:>8}")
    for cadence, _ in cadences:
        ours, theirs = results[f"tabsight screenshot, {cadence}"], results.get(f"playwright-mcp take_screenshot, {cadence}")
        if theirs and "p50_ms" in ours and "p50_ms" in theirs:
            print(f"{cadence}: tabsight p50 / Playwright MCP p50 = {ours['p50_ms'] / theirs['p50_ms']:.2f} (target <= {TARGET_RATIO})")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "screenshot.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    anyio.run(main)
