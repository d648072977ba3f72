"""Soak: MCP clients making mixed calls through one browser while it is restarted and its host killed.

    .venv/bin/python bench/soak_bench.py [--clients 8] [--calls 2000] [--max-minutes 20] [--seed 1]

The soak itself, and every check it makes, is tests/harness/soak.py (its
docstring says what a run does); the suite runs a shorter one with that same
code (tests/test_soak.py). This script runs it, prints its report, writes
bench/results/soak.json, and exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import anyio

from common import CHROMIUM  # first: it puts tests/ on sys.path for harness
from harness.soak import Config, Soak, failures, print_report


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--max-minutes", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-faults", action="store_true", help="no browser restart, no host kill")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    os.environ["TABSIGHT_CHROMIUM"] = args.chromium
    soak = await Soak(Config(args.clients, args.calls, args.max_minutes * 60, args.seed, not args.no_faults)).run()
    summary = soak.summary()
    print_report(summary)
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "soak.json").write_text(json.dumps(summary, indent=2))
    failed = failures(summary)
    for line in failed:
        print(f"FAILED: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
