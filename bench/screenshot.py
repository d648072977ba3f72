"""Screenshot of the tracked tab through MCP: p50/p90 over N calls, 1280x720 JPEG.

    .venv/bin/python bench/screenshot.py [--calls 50] [--interval 0.6] [--playwright-mcp PATH/TO/cli.js]

Runs tabsight (embedded headless Chromium) and, when given, Playwright MCP
(`@playwright/mcp` from npm, on the same Chromium binary, viewport and page)
in one run, each through the official MCP SDK client, and prints a table.
DESIGN.md §7's target: tabsight's p50 at most half of Playwright MCP's.
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
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import CHROMIUM, percentile, playwright_server, serve, tabsight_server, workspace


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
    parser.add_argument("--playwright-mcp", help="path to @playwright/mcp's cli.js")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()

    workdir, runtime = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    results = {}

    tabsight = tabsight_server(runtime, args.chromium)
    for cadence, interval in (("back to back", 0.0), (f"every {args.interval:g} s", args.interval)):
        results[f"tabsight screenshot, {cadence}"] = await measure(
            tabsight,
            lambda c: c.call_tool("interact", {"action": "navigate", "url": url}),
            lambda c: c.call_tool("screenshot", {"format": "jpeg", "quality": 80}),
            args.calls,
            interval,
        )

    if args.playwright_mcp:
        playwright = playwright_server(args.playwright_mcp, args.chromium, workdir / "pw")
        for cadence, interval in (("back to back", 0.0), (f"every {args.interval:g} s", args.interval)):
            results[f"playwright-mcp take_screenshot, {cadence}"] = await measure(
                playwright,
                lambda c: c.call_tool("browser_navigate", {"url": url}),
                lambda c: c.call_tool("browser_take_screenshot", {"type": "jpeg"}),
                args.calls,
                interval,
            )

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"{'':48} {'p50 ms':>8} {'p90 ms':>8} {'min ms':>8} {'bytes':>8}")
    for name, r in results.items():
        print(f"{name:48} {r['p50_ms']:>8} {r['p90_ms']:>8} {r['min_ms']:>8} {r['image_bytes']:>8}")
    if len(results) == 4:
        rows = list(results.values())
        for label, ours, theirs in (("back to back", rows[0], rows[2]), ("paced", rows[1], rows[3])):
            print(f"{label}: tabsight p50 / Playwright MCP p50 = {ours['p50_ms'] / theirs['p50_ms']:.2f} (target <= 0.5)")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "screenshot.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    anyio.run(main)
