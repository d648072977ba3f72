"""How fast `tabsight mcp` exits when a client stops it, and how long until nothing of it is left.

    .venv/bin/python bench/lifecycle_bench.py [--runs 5]

Each run spawns `python -m tabsight mcp` over pipes with a private TMPDIR and runtime folder
(tests/harness/lifecycle.py), initializes it with raw JSON-RPC lines, makes one tool call (which
starts the embedded headless Chromium), then stops it one way: stdin closed (what MCP clients do
first; the TypeScript SDK sends SIGTERM 2 s later), SIGINT (Ctrl-C) or SIGTERM, with stdin still
open. Measured from that moment: the front's exit (p50, min, max of --runs), and the moment the
run has left nothing (its browser and host gone after their linger, TABSIGHT_EMBEDDED_LINGER=0.5,
its temp and runtime folders empty). A run whose front printed a traceback, exited with another
code than 0 (stdin), 130 (SIGINT) or 143 (SIGTERM), or left something is counted as a failure.
Ways alternate within a run, so a noisy moment of the machine is shared. Issue 17's target: the
front exits within 1 s. Results go to bench/results/lifecycle.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from harness.lifecycle import EXIT_CODES, STOPS, RawFront

RESULTS = Path(__file__).resolve().parent / "results" / "lifecycle.json"
TARGET_S = 1.0


def one_run(how: str) -> dict:
    front = RawFront()
    try:
        front.initialize().start_browser()
        stopped = time.monotonic()
        exit_s = front.stop(how)
        log = front.log()
        processes, temp, runtime = front.left()
        clean_s = time.monotonic() - stopped
        problems = []
        if front.process.returncode != EXIT_CODES[how]:
            problems.append(f"exit code {front.process.returncode}")
        if "Traceback" in log:
            problems.append("a traceback on stderr")
        if processes or temp or runtime:
            problems.append(f"left: processes {processes}, temp {temp}, runtime {runtime}")
        return {"exit_s": round(exit_s, 3), "clean_s": round(clean_s, 2), "problems": problems}
    finally:
        front.close()


def summary(runs: list[dict]) -> dict:
    exits = [run["exit_s"] for run in runs]
    return {
        "exit_p50_s": round(statistics.median(exits), 3),
        "exit_min_s": min(exits),
        "exit_max_s": max(exits),
        "clean_p50_s": round(statistics.median(run["clean_s"] for run in runs), 2),
        "failures": sum(bool(run["problems"]) for run in runs),
        "runs": len(runs),
        "samples": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {how: [] for how in STOPS}
    for number in range(args.runs):
        for how in STOPS:
            runs[how].append(one_run(how))
            print(f"  run {number + 1}/{args.runs} {how}: {runs[how][-1]}", flush=True)
    results = {how: summary(samples) for how, samples in runs.items()}
    print("| stopped by | exit p50 s | min s | max s | nothing left after, p50 s | failures |")
    print("|---|---:|---:|---:|---:|---:|")
    for how, r in results.items():
        print(
            f"| {how if how != 'stdin' else 'stdin closed'} | {r['exit_p50_s']} | {r['exit_min_s']} | "
            f"{r['exit_max_s']} | {r['clean_p50_s']} | {r['failures']}/{r['runs']} |"
        )
    met = all(r["exit_p50_s"] <= TARGET_S for r in results.values())
    print(f"target: the front exits within {TARGET_S:g} s: {'met' if met else 'NOT met'}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"runs": args.runs, "target_s": TARGET_S, "results": results}, indent=2))


if __name__ == "__main__":
    main()
