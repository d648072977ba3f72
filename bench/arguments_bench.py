"""What a bad argument costs: a tool call refused by validation, and tools/list, in-process.

    .venv/bin/python bench/arguments_bench.py [--calls 2000]

An agent that gets an argument wrong pays for the error message before it
can try again; the message quotes the tool's JSON schema (the allowed values
and ranges). Each case runs the real dispatch (``tabsight.tools.dispatch``) on
a session whose browser connection is never reached (validation comes first),
``--calls`` times after a warm-up; ``tools/list`` builds every tool's
definition. No browser, no MCP transport: this is the front's own time.
Results are printed as a markdown table and written to
bench/results/arguments.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import common  # noqa: F401  (puts tests/ on sys.path, as every bench script does first)

#: (tool, arguments) that validation refuses
CASES = {
    "screenshot quality 0": ("screenshot", {"quality": 0}),
    "screenshot unknown argument": ("screenshot", {"colour": "red"}),
    "interact unknown action": ("interact", {"action": "fly"}),
    "observe missing what": ("observe", {}),
}


async def measure(calls: int) -> dict[str, dict[str, float]]:
    from tabsight.browser.connection import BrowserConnection
    from tabsight.session.state import Session
    from tabsight.tools import TOOLS
    from tabsight.tools.dispatch import call

    session = Session(BrowserConnection("bench", mode="never"))
    results = {}
    for name, (tool, arguments) in CASES.items():
        samples = []
        for n in range(calls + 20):
            started = time.perf_counter()
            result = await call(session, tool, arguments)
            if n >= 20:
                samples.append((time.perf_counter() - started) * 1000)
            assert result.is_error, name
        results[name] = {"p50_ms": statistics.median(samples), "max_ms": max(samples)}
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        [tool.definition() for tool in TOOLS.values()]
        samples.append((time.perf_counter() - started) * 1000)
    results["tools/list definitions"] = {"p50_ms": statistics.median(samples), "max_ms": max(samples)}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runtime:
        os.environ["TABSIGHT_RUNTIME_DIR"] = runtime  # no host in sight
        results = asyncio.run(measure(args.calls))
    lines = ["| case | p50 ms | max ms |", "|---|---|---|"]
    lines += [f"| {name} | {r['p50_ms']:.3f} | {r['max_ms']:.3f} |" for name, r in results.items()]
    print("\n".join(lines))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "arguments.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
