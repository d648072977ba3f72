"""Hostile pages: how long each dialog, crash and busy-page case takes to answer, and the largest answer provoked.

    .venv/bin/python bench/hostile_bench.py [--runs 5]

Runs `tabsight mcp` (embedded headless Chromium, a private runtime folder)
through the official MCP SDK client against the suite's hostile pages
(tests/pages/hostile-pages/, served on 127.0.0.1), `--runs` times each, and
reports the median and the worst latency of every case, plus the text size
of the largest answer any case gave (the budget is 100,000 characters).
Results are printed as a markdown table and written to
bench/results/hostile.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import anyio
from mcp import Client

from common import CHROMIUM, tabsight_server, workspace
from harness.servers import serve_folder

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"


def text_chars(result) -> int:
    return sum(len(block.text) for block in result.content if block.type == "text")


async def measure(client: Client, base: str, runs: int) -> tuple[dict[str, list[float]], int]:
    times: dict[str, list[float]] = {}
    largest = 0

    async def case(name: str, tool: str, arguments: dict, expect_error: bool = False):
        nonlocal largest
        started = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        times.setdefault(name, []).append((time.perf_counter() - started) * 1000)
        largest = max(largest, text_chars(result))
        if result.is_error != expect_error:
            raise RuntimeError(f"{name}: {result.content[0].text[:300]}")
        return result

    async def navigate(page: str):
        await client.call_tool("interact", {"action": "navigate", "url": f"{base}/hostile-pages/{page}"})

    for _ in range(runs):
        await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "accept"})
        await case(
            "navigate to a page with an alert on load (accept)",
            "interact",
            {"action": "navigate", "url": f"{base}/hostile-pages/dialog-on-load.html"},
        )
        await navigate("dialogs.html")
        await case("click that opens a confirm (accept)", "interact", {"action": "click", "selector": "#confirm"})
        await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "report"})
        await case(
            "click that opens a prompt (report): the call ends",
            "interact",
            {"action": "click", "selector": "#prompt"},
            expect_error=True,
        )
        await case("screenshot with the dialog open", "screenshot", {}, expect_error=True)
        await case(
            "annotated observe with the dialog open",
            "observe",
            {"what": "page", "annotate_screenshot": True},
            expect_error=True,
        )
        await case("observe page with the dialog open", "observe", {"what": "page"})
        await case("interact dialog (answer it)", "interact", {"action": "dialog", "prompt_text": "x"})
        await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "dismiss"})
        await navigate("beforeunload.html")
        await client.call_tool("interact", {"action": "type", "selector": "#draft", "text": "unsaved"})
        await case(
            "navigate away from beforeunload (dismiss policy)",
            "interact",
            {"action": "navigate", "url": f"{base}/index.html"},
        )
        await case(
            "execute Page.crash: named",
            "interact",
            {"action": "execute", "cdp": [{"method": "Page.crash", "params": {}}]},
            expect_error=True,
        )
        await case("observe page on the crashed tab", "observe", {"what": "page"}, expect_error=True)
        await case(
            "navigate: recovers the crashed tab", "interact", {"action": "navigate", "url": f"{base}/index.html"}
        )
        await case(
            "screenshot url of a page busy after load, timeout 5000",
            "screenshot",
            {"url": f"{base}/hostile-pages/busy-after-load.html", "timeout": 5000},
            expect_error=True,
        )
        await navigate("huge-title.html")
        await case("observe page: 5 MB title, 100 KB URL", "observe", {"what": "page"})
        await case(
            "execute returning 50 MB", "interact", {"action": "execute", "script": "'x'.repeat(50 * 1000 * 1000)"}
        )
    await client.call_tool("configure", {"action": "dialogs", "dialog_policy": "accept"})
    return times, largest


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    workdir, runtime = workspace()
    server = serve_folder(PAGES)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        async with Client(tabsight_server(runtime, args.chromium)) as client:
            times, largest = await measure(client, base, args.runs)
    finally:
        server.shutdown()
    rows = {name: {"p50_ms": statistics.median(samples), "max_ms": max(samples)} for name, samples in times.items()}
    lines = ["| case | p50 ms | max ms |", "|---|---|---|"]
    lines += [f"| {name} | {r['p50_ms']:.0f} | {r['max_ms']:.0f} |" for name, r in rows.items()]
    lines.append(f"\nlargest answer: {largest} characters of text")
    print("\n".join(lines))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "hostile.json").write_text(json.dumps({"cases": rows, "largest_answer_chars": largest}, indent=2))


if __name__ == "__main__":
    anyio.run(main)
