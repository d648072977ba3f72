"""Screenshot of the tracked tab through MCP, tabsight and the peers interleaved in one run: p50/p90 per mode.

    .venv/bin/python bench/screenshot_bench.py [--calls 40] [--block 10] [--interval 0.6] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

tabsight (embedded headless Chromium), Playwright MCP (`browser_take_screenshot`) and Chrome DevTools MCP
(`take_screenshot`) run at once, on the same Chromium binary, 1280x720 viewport and page (the bench page on
127.0.0.1), each through the official MCP SDK client, each having loaded the page once. The calls alternate in
blocks: --block calls to tabsight, then --block to Playwright MCP, then to Chrome DevTools MCP, again and again
until each has made --calls; so a change of the machine's load (2 cores, shared) falls on all of them alike.
Peers default to their install in bench/peers (pinned versions) and are skipped when missing:

    bench/peers/install.sh

Three modes, one after the other, each with 5 uncounted calls per server first:

- back to back, JPEG: each call as soon as the one before answered (tabsight quality 80, Playwright MCP its
  fixed 90, Chrome DevTools MCP 80);
- paced, JPEG: --interval seconds (default 0.6: an agent looks, thinks, looks again) between calls;
- each server's default format, back to back: the tool called with no arguments (tabsight's `screenshot`: WebP
  quality 80; the peers: PNG).

Times are wall-clock from the client's call to its parsed result. docs/design.md §7's target: tabsight's p50 at
most half of Playwright MCP's, in each mode. Results: printed, and bench/results/screenshot.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import statistics
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import (
    DEVTOOLS,
    PLAYWRIGHT,
    TABSIGHT,
    Failed,
    devtools_server,
    peer_arguments,
    percentile,
    playwright_server,
    serve,
    tabsight_server,
    text_of,
    workspace,
)

#: docs/design.md §7: tabsight's p50 at most this fraction of Playwright MCP's
TARGET_RATIO = 0.5
WARMUP = 5
BACK_TO_BACK, PACED, DEFAULTS = "back to back, JPEG", "paced, JPEG", "each server's default format"


@dataclass
class Server:
    name: str
    params: StdioServerParameters
    navigate: tuple[str, dict]
    #: the screenshot tool, its arguments for JPEG, and the format it answers with no arguments
    tool: str
    jpeg: dict
    default_format: str


def tabsight(params: StdioServerParameters, url: str, name: str = TABSIGHT) -> Server:
    """tabsight's row: `interact` navigate, then `screenshot` (JPEG quality 80; WebP with no arguments)."""
    return Server(
        name,
        params,
        ("interact", {"action": "navigate", "url": url}),
        "screenshot",
        {"format": "jpeg", "quality": 80},
        "webp",
    )


def servers(args: argparse.Namespace, url: str, workdir: Path) -> list[Server]:
    found = [tabsight(tabsight_server(workdir / "runtime", args.chromium), url)]
    if Path(args.playwright_mcp).is_file():
        found.append(
            Server(
                PLAYWRIGHT,
                playwright_server(args.playwright_mcp, args.chromium, workdir / "pw"),
                ("browser_navigate", {"url": url}),
                "browser_take_screenshot",
                {"type": "jpeg"},
                "png",
            )
        )
    if Path(args.devtools_mcp).is_file():
        found.append(
            Server(
                DEVTOOLS,
                devtools_server(args.devtools_mcp, args.chromium),
                ("navigate_page", {"type": "url", "url": url}),
                "take_screenshot",
                {"format": "jpeg", "quality": 80},
                "png",
            )
        )
    return found


async def shoot(client: Client, server: Server, arguments: dict, expected: str) -> tuple[float, int]:
    """One call: its time in ms and its image's size; Failed if it answers no image of the expected format."""
    started = time.perf_counter()
    result = await client.call_tool(server.tool, arguments)
    elapsed = (time.perf_counter() - started) * 1000
    image = next((block for block in result.content if block.type == "image"), None)
    if result.is_error or image is None or image.mime_type != f"image/{expected}":
        raise Failed(f"{server.name} {server.tool}({arguments}): {text_of(result) or image and image.mime_type}")
    return elapsed, len(base64.b64decode(image.data))


async def mode(
    clients: dict[str, Client], servers: list[Server], name: str, calls: int, block: int, interval: float
) -> dict[str, dict]:
    """One mode's calls, interleaved in blocks; each server's figures."""

    def arguments(server: Server) -> tuple[dict, str]:
        return ({}, server.default_format) if name == DEFAULTS else (server.jpeg, "jpeg")

    for server in servers:
        for _ in range(WARMUP):
            await shoot(clients[server.name], server, *arguments(server))
    samples: dict[str, list[float]] = {server.name: [] for server in servers}
    sizes: dict[str, list[int]] = {server.name: [] for server in servers}
    while any(len(times) < calls for times in samples.values()):
        for server in servers:
            for _ in range(min(block, calls - len(samples[server.name]))):
                await anyio.sleep(interval)
                elapsed, size = await shoot(clients[server.name], server, *arguments(server))
                samples[server.name].append(elapsed)
                sizes[server.name].append(size)
    return {
        server.name: {
            "format": arguments(server)[1],
            "p50_ms": round(statistics.median(samples[server.name]), 1),
            "p90_ms": round(percentile(samples[server.name], 0.9), 1),
            "min_ms": round(min(samples[server.name]), 1),
            "image_bytes": int(statistics.median(sizes[server.name])),
        }
        for server in servers
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=40, help="counted calls per server in each mode")
    parser.add_argument("--block", type=int, default=10, help="calls to one server before the next one's turn")
    parser.add_argument("--interval", type=float, default=0.6, help="seconds between calls in the paced mode")
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, _ = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    chosen = servers(args, url, workdir)
    modes = {BACK_TO_BACK: 0.0, PACED: args.interval, DEFAULTS: 0.0}
    results: dict[str, dict] = {}
    try:
        async with AsyncExitStack() as stack:
            clients = {}
            for each in chosen:
                clients[each.name] = await stack.enter_async_context(Client(each.params, read_timeout_seconds=60))
                tool, arguments = each.navigate
                await clients[each.name].call_tool(tool, arguments)
            for name, interval in modes.items():
                results[name] = await mode(clients, chosen, name, args.calls, args.block, interval)
    finally:
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)

    print(f"{'':48} {'p50 ms':>8} {'p90 ms':>8} {'min ms':>8} {'bytes':>8}")
    for name, by_server in results.items():
        for each, r in by_server.items():
            label = f"{each}, {name} ({r['format']})"
            print(f"{label:48} {r['p50_ms']:>8} {r['p90_ms']:>8} {r['min_ms']:>8} {r['image_bytes']:>8}")
        if PLAYWRIGHT in by_server:
            ratio = by_server[TABSIGHT]["p50_ms"] / by_server[PLAYWRIGHT]["p50_ms"]
            print(f"{name}: tabsight p50 / Playwright MCP p50 = {ratio:.2f} (target <= {TARGET_RATIO})")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "screenshot.json").write_text(
        json.dumps({"calls": args.calls, "block": args.block, "interval_s": args.interval, "modes": results}, indent=2)
    )


if __name__ == "__main__":
    anyio.run(main)
