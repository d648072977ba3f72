"""What redaction costs telemetry on a flood: redact.text() and redact.url(), before and after.

    .venv/bin/python bench/redact_bench.py [--lines 10000] [--repeat 5] [--before REV]

The host runs every console message, exception and stack through
``redact.text()``, and every request URL through ``redact.url()``, as it
arrives; a page logging thousands of lines a second pays this on each one.
Each case times --lines calls (the best of --repeat rounds) of the working
tree's redact.py ("after") and of redact.py as it was at --before ("before";
default dc1bf9a, the last revision before the rule table of issue 14),
loaded from `git show` into a temporary module:

- ordinary console lines: a cycle of everyday messages (warnings, failed
  loads, stack traces with script URLs, URLs with ordinary query strings,
  timings), each made distinct by a counter;
- secret-bearing lines: tests/test_redact.py's corpus of secret formats;
- ordinary request URLs, through url().

It also counts, for the secret corpus, the cases each version leaves a
secret in. No browser. Results are printed as a markdown table and written
to bench/results/redact.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import common  # noqa: F401  (puts tests/ on sys.path, as every bench script does first)
from test_redact import SECRETS, S

ROOT = Path(__file__).resolve().parent.parent

CONSOLE = [
    "Failed to load resource: the server responded with a status of 404 (Not Found)",
    "[HMR] Waiting for update signal from WDS...",
    "Download the React DevTools for a better development experience: https://reactjs.org/link/react-devtools",
    'Warning: Each child in a list should have a unique "key" prop. Check the render method of `TodoList`.',
    "GET https://cdn.example.com/assets/app.3f2a9c1b7e.js net::ERR_BLOCKED_BY_CLIENT",
    "Uncaught TypeError: Cannot read properties of undefined (reading 'map')\n"
    "    at App (https://example.com/static/js/main.4f3c2a1b.js:2:1234)\n"
    "    at renderWithHooks (https://example.com/static/js/vendor.8e2f1c7a.js:1:5678)",
    "render took 12.5ms",
    "user clicked #submit-button",
    "[Violation] 'setTimeout' handler took 53ms",
    "WebSocket connection to 'wss://example.com/socket' failed",
    "Angular is running in development mode. Call enableProdMode() to enable production mode.",
    "The resource https://example.com/fonts/inter.woff2 was preloaded using link preload but not used "
    "within a few seconds from the window's load event.",
    "fetch https://api.example.com/v1/search?q=running+shoes&page=2&utm_source=newsletter 200 OK",
    "Enter your password to continue",
    "state updated {count: 3, items: Array(12), selected: null}",
    "2024-05-01T12:34:56.789Z INFO request completed in 231 ms",
    "A cookie associated with a cross-site resource was set without the SameSite attribute.",
    "Ask the team about the task on the desk",
]
URLS = [
    "https://cdn.example.com/assets/app.3f2a9c1b7e.js",
    "https://example.com/api/v1/items?page=2&sort=price_asc",
    "https://fonts.gstatic.com/s/inter/v12/UcCO3FwrK3iLTeHuS_fvQtMwCp50KnMw2boKoduKmMEVuLyfAZ9hiA.woff2",
    "https://www.google-analytics.com/g/collect?v=2&tid=G-XXXX&cid=123.456&en=page_view",
    "https://example.com/",
    "wss://example.com/socket?room=lobby",
]
DEFAULT_BEFORE = "dc1bf9a"
RESULTS = Path(__file__).parent / "results" / "redact.json"


def load_before(revision: str) -> ModuleType:
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:host/tabsight/redact.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="redact-before-"))
    (folder / "redact_before.py").write_text(source)
    spec = importlib.util.spec_from_file_location("redact_before", folder / "redact_before.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_ms(function: Callable[[str], str], values: list[str], repeat: int) -> float:
    rounds = []
    for _ in range(repeat):
        started = time.perf_counter()
        for value in values:
            function(value)
        rounds.append((time.perf_counter() - started) * 1000)
    return min(rounds)


def leaks(module: ModuleType) -> int:
    """The secret corpus's cases whose secret survives the module's text()."""
    return sum(secret in module.text(template.replace(S, secret)) for _, template, secret in SECRETS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", default=DEFAULT_BEFORE, help="the git revision to compare with")
    args = parser.parse_args()
    from tabsight import redact as after

    before = load_before(args.before)
    console = [f"{CONSOLE[n % len(CONSOLE)]} #{n}" for n in range(args.lines)]
    secrets = [template.replace(S, secret) for _, template, secret in SECRETS]
    secrets = [secrets[n % len(secrets)] for n in range(args.lines)]
    urls = [f"{URLS[n % len(URLS)]}{'&' if '?' in URLS[n % len(URLS)] else '?'}n={n}" for n in range(args.lines)]
    cases = {
        f"text(): {args.lines} ordinary console lines": (console, "text"),
        f"text(): {args.lines} secret-bearing lines": (secrets, "text"),
        f"url(): {args.lines} ordinary request URLs": (urls, "url"),
    }
    results: dict[str, dict] = {}
    for name, (values, function) in cases.items():
        timed = {
            version: best_ms(getattr(module, function), values, args.repeat)
            for version, module in (("before", before), ("after", after))
        }
        results[name] = {
            **{f"{version}_ms": ms for version, ms in timed.items()},
            "after_us_per_call": timed["after"] * 1000 / len(values),
        }
    results["secret formats left unmasked"] = {"before": leaks(before), "after": leaks(after), "of": len(SECRETS)}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    print(report(results, f"before: redact.py at {args.before}; after: the working tree; best of {args.repeat} rounds"))


def report(results: dict[str, dict], heading: str) -> str:
    """The timings as a markdown table, then the leak counts."""
    leaked = results["secret formats left unmasked"]
    rows = [
        f"| {name} | {r['before_ms']:.1f} | {r['after_ms']:.1f} | {r['after_us_per_call']:.2f} "
        f"| {r['after_ms'] / r['before_ms']:.2f} |"
        for name, r in results.items()
        if "before_ms" in r
    ]
    return "\n".join(
        [
            heading,
            "",
            "| case | before ms | after ms | after µs/call | after/before |",
            "|---|---|---|---|---|",
            *rows,
            "",
            f"secret corpus cases left with their secret: before {leaked['before']}, "
            f"after {leaked['after']} (of {leaked['of']})",
        ]
    )


if __name__ == "__main__":
    main()
