"""Screenshot of a URL through MCP: p50/p90 over N calls, 1280x720 JPEG.

    .venv/bin/python bench/screenshot_url_bench.py [--calls 30] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

One sample is everything an agent does to see a URL it has not loaded yet:

- tabsight (`python -m tabsight mcp`, embedded headless Chromium): one
  `screenshot` call with `url`, JPEG quality 80; one row with
  waitForNetworkIdle false and one with true.
- Playwright MCP: `browser_navigate` then `browser_take_screenshot` (JPEG; the
  server fixes the quality at 90).
- Chrome DevTools MCP: `navigate_page` then `take_screenshot` (JPEG quality 80),
  with --no-page-id-routing so the calls need no pageId.

All run in one go, each through the official MCP SDK client, on the same
Chromium binary, headless, 1280x720 viewport, fresh profile, and the same page
served on 127.0.0.1. Every sample loads URL?n=<i>, a URL not seen before, so
no server can skip the navigation. Times are wall-clock from the first call to
the last parsed result; warm-up samples (which include the browser's start)
are not counted. A sample whose calls return isError or no image block is a
failure: counted in the table, not timed. A server whose warm-up fails (for
tabsight, a build whose screenshot tool has no `url` yet) is skipped with the
error it returned.

Peers default to their install in bench/peers (pinned versions) and are skipped when missing:

    bench/peers/install.sh

Results are printed as a markdown table and written to bench/results/screenshot_url.json.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from PIL import Image

from common import (
    Failed,
    Sample,
    describe,
    devtools_server,
    devtools_url_sample,
    failure_notes,
    image_of,
    peer_arguments,
    percentile,
    playwright_server,
    playwright_url_sample,
    serve,
    tabsight_server,
    tabsight_url_sample,
    workspace,
)

BASELINE = "tabsight screenshot(url), waitForNetworkIdle=false"


async def run_sample(sample: Sample, client: Client, url: str) -> bytes:
    try:
        results = await sample(client, url)
    except Exception as error:  # a protocol error or timeout fails the sample, like isError does
        raise Failed(describe(error)) from error
    return image_of(results)


async def measure(params: StdioServerParameters, sample: Sample, url: str, calls: int, warmup: int = 3) -> dict:
    loads = (f"{url}?n={i}" for i in range(warmup + calls))
    async with Client(params, read_timeout_seconds=60) as client:
        started = time.perf_counter()
        for _ in range(warmup):
            await run_sample(sample, client, next(loads))  # Failed here skips the server
        warmup_s = time.perf_counter() - started
        samples, images, errors = [], [], []
        for _ in range(calls):
            t0 = time.perf_counter()
            try:
                image = await run_sample(sample, client, next(loads))
            except Failed as error:
                errors.append(str(error))
                continue
            samples.append((time.perf_counter() - t0) * 1000)
            images.append(image)
    if not samples:
        raise Failed(f"all {calls} samples failed; first: {errors[0]}")
    with Image.open(io.BytesIO(images[0])) as first:
        width, height = first.size
    return {
        "p50_ms": round(statistics.median(samples), 1),
        "p90_ms": round(percentile(samples, 0.9), 1),
        "min_ms": round(min(samples), 1),
        "failures": len(errors),
        "calls": calls,
        "first_error": errors[0] if errors else None,
        "image": f"{width}x{height}",
        "image_bytes": int(statistics.median(len(image) for image in images)),
        "warmup_s": round(warmup_s, 2),
    }


def table(results: dict[str, dict]) -> str:
    baseline = results.get(BASELINE, {}).get("p50_ms")
    lines = [
        "| server | p50 ms | p90 ms | p50 / tabsight(waitForNetworkIdle=false) | failures | image |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, r in results.items():
        if "error" in r:
            continue
        ratio = f"{r['p50_ms'] / baseline:.2f}" if baseline else "n/a"
        image = f"{r['image']} JPEG, {r['image_bytes'] / 1000:.0f} kB"
        lines.append(f"| {name} | {r['p50_ms']} | {r['p90_ms']} | {ratio} | {r['failures']}/{r['calls']} | {image} |")
    lines += failure_notes(results)
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=30)
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, runtime = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"

    def peer(cli: str, start: Callable[[str], StdioServerParameters]) -> StdioServerParameters | str:
        return start(cli) if Path(cli).is_file() else f"{cli} not found (see the npm install line in --help)"

    runs: dict[str, tuple[StdioServerParameters | str, Sample]] = {
        BASELINE: (tabsight_server(runtime, args.chromium), tabsight_url_sample(False)),
        "tabsight screenshot(url), waitForNetworkIdle=true": (
            tabsight_server(runtime, args.chromium),
            tabsight_url_sample(True),
        ),
        "playwright-mcp browser_navigate + browser_take_screenshot": (
            peer(args.playwright_mcp, lambda cli: playwright_server(cli, args.chromium, workdir / "pw")),
            playwright_url_sample,
        ),
        "chrome-devtools-mcp navigate_page + take_screenshot": (
            peer(args.devtools_mcp, lambda cli: devtools_server(cli, args.chromium)),
            devtools_url_sample,
        ),
    }
    results: dict[str, dict] = {}
    for name, (params, sample) in runs.items():
        if isinstance(params, str):
            results[name] = {"error": params}
            continue
        try:
            results[name] = await measure(params, sample, url, args.calls)
        except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
            results[name] = {"error": describe(error)}

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    print(table(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "screenshot_url.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    anyio.run(main)
