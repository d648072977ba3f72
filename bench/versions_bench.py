"""Two checkouts of tabsight side by side, interleaved in one run: screenshot, annotated screenshot and a click,
p50/p90 of each, and the after/before ratio of the p50s.

    .venv/bin/python bench/versions_bench.py --before PATH [--after PATH] [--rounds 24] [--calls 10]
        [--warmup 5] [--quick] [--chromium PATH]

For a change that must not slow tabsight down (issue 32's refactor: "the screenshot, annotation and action
benchmarks' p50 within 10 %"). --before and --after (default: this repository) are repository roots, each with its
own venv (`python3 -m venv .venv && .venv/bin/pip install -e .`). Each runs as the other benches run tabsight:
`.venv/bin/python -m tabsight mcp`, with that checkout's interpreter (so its code, and its extension, from the
editable install), in that checkout's folder, through the official MCP SDK client, each with a private (0700)
runtime folder of its own, hence its own host and its own embedded headless Chromium (a profile of its own). Each
version has one MCP client per measure (a `tabsight mcp` each, all three on the version's one host and browser), so
each measure has a session, and a tab (the front tab of a window of its own), to itself: a measure's calls find
their tab as the measure's own bench leaves it, not as another measure did (the frame source behind a screenshot
takes a tab that drew many frames in the last second for an animated one, and captures it afresh for 30 s: a click
block's navigations on the screenshot's tab did that, so that whole blocks of screenshots took 50-65 ms, not 10).
The bench checks that each interpreter imports its own checkout's tabsight and, after the warm-up, that each
version's sessions reached one host, run by its own interpreter, not the other version's. The scripts and the pages
are this repository's.

The three measures, the calls the other benches time for them:

- screenshot: `screenshot` JPEG quality 80 of the tracked tab, which loaded the bench page once
  (bench/screenshot_bench.py's back-to-back mode), checked to answer a JPEG;
- annotate: `observe({what: "page", annotate_screenshot: true, max_annotations: 100})` of the tracked tab, which
  loaded the 100-element grid once (bench/annotate_bench.py's end to end), checked to answer an image and 100
  annotations of 100 found;
- click: `interact` click on tests/pages/clicks.html's button (bench/actions_bench.py's "click": a navigation to
  the page first, not timed; the page's record of the click checked after, not timed).

Both versions' servers are started once. Each loads the pages and makes --warmup uncounted calls of each measure
first (which include its browser's start). Then --rounds rounds: in each, for each measure, each version in turn
makes a block of it (one uncounted call, the first after the other blocks, then --calls timed calls back to back),
the version that goes first alternating from round to round; so a change of the machine's load (2 cores, shared)
falls on both alike. A call that errs or fails its check is counted, not timed. With the defaults each version makes
240 timed calls of each measure: about 5 minutes on 2 cores. --quick (2 rounds of 2 calls, 1 warm-up call) is a
smoke run.

Times are wall-clock from the client's call to its parsed result. Reported per measure: p50 and p90 in ms for
each version, after p50 / before p50, and whether that ratio is within 10 % of 1 (either way: a refactor that
is much faster is worth a look too). Printed as a markdown table and written to bench/results/versions.json.
The exit code is 1 only when something failed (a server, a call, a check), never because of a ratio: the figures
are for a note, not a test. Two copies of the same code should give ratios near 1.0: that is the check that the
interleaving is fair.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from actions_bench import PAGES, Bench, call, one_round
from annotate_bench import OBSERVE, check_observe, grid_page, stats, timed
from common import CHROMIUM, Failed, describe, serve, tabsight_server, workspace
from harness.processes import command_line, host_pids  # after common, which puts tests/ on sys.path
from harness.servers import serve_folder
from screenshot_bench import Server, shoot, tabsight

ROOT = Path(__file__).resolve().parent.parent
BEFORE, AFTER = "before", "after"
#: after p50 / before p50 further from 1 than this is reported as not within (issue 32: 10 %)
TOLERANCE = 0.10
SCREENSHOT, ANNOTATE, CLICK = "screenshot", "annotate", "click"
#: what each measure is, for the table
CALLS = {
    SCREENSHOT: "`screenshot` JPEG q80 of the tracked tab, 1280x720 (bench page)",
    ANNOTATE: "`observe` page, annotate_screenshot, 100 elements (grid page)",
    CLICK: "`interact` click that changes the page (clicks.html)",
}
#: (rounds, calls, warmup): the defaults, about 5 minutes on 2 cores; --quick, a smoke run
FULL, QUICK = (24, 10, 5), (2, 2, 1)
#: variables of ours that could make a checkout's interpreter import another checkout's code
FOREIGN = ("PYTHONPATH", "PYTHONHOME")


def own(env: dict[str, str]) -> dict[str, str]:
    """env without FOREIGN."""
    return {key: value for key, value in env.items() if key not in FOREIGN}


@dataclass
class Version:
    """One checkout: its label, root, interpreter, private runtime folder, and, once started, its clients."""

    label: str
    root: Path
    python: Path
    runtime: Path
    #: what the bench found of it: commit, uncommitted changes, the tabsight it imports, its host
    info: dict = field(default_factory=dict)
    #: once started, its MCP client for each measure (each a `tabsight mcp`, a session and a tab of its own)
    clients: dict[str, Client] = field(default_factory=dict)
    #: screenshot_bench's row for it: the screenshot call and its check
    shot: Server | None = None

    def params(self, chromium: str) -> StdioServerParameters:
        """`tabsight mcp` as the benches start it, with this checkout's interpreter, in its folder, and no
        PYTHONPATH or PYTHONHOME of ours that could make it import another checkout's code."""
        params = tabsight_server(self.runtime, chromium, python=str(self.python))
        return StdioServerParameters(
            command=params.command, args=params.args, env=own(params.env or {}), cwd=str(self.root)
        )


def checkout(label: str, root: str, workdir: Path) -> Version:
    """A checkout given on the command line; Failed unless its venv imports its own tabsight."""
    path = Path(root).expanduser().resolve()
    python = path / ".venv" / "bin" / "python"
    if not python.is_file():
        raise Failed(
            f"--{label} {root}: no {python}; give it a venv: "
            f"cd {path} && python3 -m venv .venv && .venv/bin/pip install -e ."
        )
    source = "import tabsight; print(tabsight.__file__); print(tabsight.__version__)"
    found = subprocess.run(
        [str(python), "-c", source], cwd=path, env=own(dict(os.environ)), capture_output=True, text=True, timeout=60
    )
    if found.returncode:
        raise Failed(f"--{label}: {python} cannot import tabsight: {found.stderr.strip()[-500:]}")
    module, version = found.stdout.split()
    if not Path(module).resolve().is_relative_to(path):
        raise Failed(
            f"--{label}: {python} imports tabsight from {module}, not from {path} "
            f"(reinstall it there: .venv/bin/pip install -e .)"
        )
    runtime = workdir / f"runtime-{label}"
    runtime.mkdir(mode=0o700)

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    info = {
        "root": str(path),
        "commit": git("rev-parse", "--short", "HEAD") or None,
        "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
        "tabsight": module,
        "tabsight_version": version,
    }
    return Version(label, path, python, runtime, info)


def check_host(version: Version) -> None:
    """After the warm-up: the version's runtime folder has one host, and its own interpreter runs it."""
    pids = host_pids(version.runtime)
    if len(pids) != 1:
        raise Failed(f"{version.label}: {len(pids)} hosts in its runtime folder {version.runtime}, not one")
    pid = pids[0]
    executable = next(iter(command_line(pid)), "")
    if Path(executable) != version.python:
        raise Failed(f"{version.label}: its host (pid {pid}) runs {executable}, not {version.python}")
    version.info["host_pid"] = pid


# -- the measures -------------------------------------------------------------------------------------


@dataclass
class Measure:
    """One measure: the page its tab loads once (None: each call's own set-up navigates), and one timed call
    through the version's client for it, which answers its time in ms and raises when the answer or the page
    is not right."""

    name: str
    url: str | None
    call: Callable[[Version, Client], Awaitable[float]]


def measures(page: str, grid: str, expected: list[str], pages: str, upload_file: Path) -> list[Measure]:
    """page: the URL of the bench page; grid: of the 100-element page, whose ids are expected; pages: the base URL
    of tests/pages."""
    click = next(action for action in Bench(pages, upload_file).actions() if action.name == CLICK)

    async def screenshot(version: Version, client: Client) -> float:
        ms, _ = await shoot(client, version.shot, version.shot.jpeg, "jpeg")
        return ms

    async def annotate(version: Version, client: Client) -> float:
        ms, result = await timed(lambda: client.call_tool(*OBSERVE))
        check_observe(result, expected)
        return ms

    async def clicked(version: Version, client: Client) -> float:
        return await one_round(client, click)

    return [
        Measure(SCREENSHOT, page, screenshot),
        Measure(ANNOTATE, grid, annotate),
        Measure(CLICK, None, clicked),
    ]


@dataclass
class Tally:
    """A version's times of one measure, block by block (in ms, in the order taken), and its failures."""

    blocks: list[list[float]] = field(default_factory=list)
    failures: int = 0
    first_error: str | None = None

    @property
    def samples(self) -> list[float]:
        return [ms for times in self.blocks for ms in times]

    def failed(self, error: BaseException) -> None:
        self.failures += 1
        self.first_error = self.first_error or describe(error)[:500]


async def warm_up(version: Version, measure: Measure, calls: int) -> None:
    """The measure's page loaded in its tab, and `calls` uncounted calls; Failed if any fails."""
    client = version.clients[measure.name]
    try:
        if measure.url is not None:
            await call(client, "interact", {"action": "navigate", "url": measure.url})
        for _ in range(calls):
            await measure.call(version, client)
    except Exception as error:
        raise Failed(f"{version.label}, {measure.name} warm-up: {describe(error)}") from error


async def block(version: Version, measure: Measure, calls: int, tally: Tally) -> None:
    """One uncounted call (the first after the other blocks' time), then `calls` timed ones into tally."""
    client = version.clients[measure.name]
    tally.blocks.append([])
    for number in range(calls + 1):
        try:
            ms = await measure.call(version, client)
        except Exception as error:  # noqa: BLE001 -- counted and reported, the bench goes on
            tally.failed(error)
            continue
        if number:
            tally.blocks[-1].append(ms)


async def run(
    versions: list[Version], chosen: list[Measure], rounds: int, calls: int, warmup: int, chromium: str
) -> dict[str, dict[str, Tally]]:
    tallies = {measure.name: {version.label: Tally() for version in versions} for measure in chosen}
    async with AsyncExitStack() as stack:
        for version in versions:
            for measure in chosen:
                version.clients[measure.name] = await stack.enter_async_context(
                    Client(version.params(chromium), read_timeout_seconds=60)
                )
        for version in versions:
            for measure in chosen:
                await warm_up(version, measure, warmup)
            check_host(version)
        if versions[0].info["host_pid"] == versions[1].info["host_pid"]:
            raise Failed(f"both versions reached one host, pid {versions[0].info['host_pid']}")
        for number in range(rounds):
            order = versions if number % 2 == 0 else versions[::-1]
            for measure in chosen:
                for version in order:
                    await block(version, measure, calls, tallies[measure.name][version.label])
            print(f"round {number + 1}/{rounds} done ({order[0].label} first)", flush=True)
    return tallies


# -- report -------------------------------------------------------------------------------------------


def figures(tallies: dict[str, dict[str, Tally]], calls_each: int) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name, by_version in tallies.items():
        row: dict = {"call": CALLS[name]}
        for label, tally in by_version.items():
            row[label] = {
                **(stats(tally.samples) if tally.samples else {}),
                "timed": len(tally.samples),
                "calls": calls_each,
                "failures": tally.failures,
                "first_error": tally.first_error,
                "blocks_ms": [[round(ms, 1) for ms in times] for times in tally.blocks],
            }
        before, after = row[BEFORE].get("p50_ms"), row[AFTER].get("p50_ms")
        if before and after:
            row["ratio_p50"] = round(after / before, 3)
            row["within_tolerance"] = abs(after / before - 1) <= TOLERANCE
        out[name] = row
    return out


def verdict(row: dict) -> str:
    if "ratio_p50" not in row:
        return "-"
    if row["within_tolerance"]:
        return "yes"
    return "no: after slower" if row["ratio_p50"] > 1 else "no: after faster"


def table(results: dict[str, dict], versions: list[Version]) -> str:
    def cell(row: dict, label: str, key: str) -> str:
        return str(row[label].get(key, "-"))

    def failed(row: dict, label: str) -> str:
        return f"{row[label]['failures']}/{row[label]['calls']}"

    lines = [
        "| measure | before p50 ms | before p90 ms | after p50 ms | after p90 ms | after/before p50 | "
        f"within {TOLERANCE:.0%} | failed before, after |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, row in results.items():
        ratio = f"{row['ratio_p50']:.3f}" if "ratio_p50" in row else "-"
        lines.append(
            f"| {name} | {cell(row, BEFORE, 'p50_ms')} | {cell(row, BEFORE, 'p90_ms')} | "
            f"{cell(row, AFTER, 'p50_ms')} | {cell(row, AFTER, 'p90_ms')} | {ratio} | {verdict(row)} | "
            f"{failed(row, BEFORE)}, {failed(row, AFTER)} |"
        )
    lines.append("")
    for version in versions:
        info = version.info
        changes = " with uncommitted changes" if info.get("uncommitted_changes") else ""
        lines.append(f"{version.label}: {info['root']}, commit {info.get('commit')}{changes}")
    for name, row in results.items():
        for label in (BEFORE, AFTER):
            if row[label].get("first_error"):
                lines.append(f"\n{name}, {label}, first failure: {row[label]['first_error']}")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the root of the checkout to compare against (with a .venv)")
    parser.add_argument("--after", default=str(ROOT), help="the root of the changed checkout (default: this one)")
    parser.add_argument("--rounds", type=int, help=f"rounds of blocks (default {FULL[0]}, --quick {QUICK[0]})")
    parser.add_argument("--calls", type=int, help=f"timed calls in a block (default {FULL[1]}, --quick {QUICK[1]})")
    parser.add_argument(
        "--warmup",
        type=int,
        help=f"uncounted calls of each measure before the rounds (default {FULL[2]}, --quick {QUICK[2]})",
    )
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not figures to quote")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    defaults = QUICK if args.quick else FULL
    rounds, calls, warmup = (
        given if given is not None else default
        for given, default in zip((args.rounds, args.calls, args.warmup), defaults)
    )

    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "versions.json").unlink(missing_ok=True)
    workdir, _ = workspace()
    report: dict = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "quick": args.quick,
        "rounds": rounds,
        "calls_per_block": calls,
        "warmup": warmup,
        "tolerance": TOLERANCE,
        "chromium": args.chromium,
        "cpus": os.cpu_count(),
        "load_start": round(os.getloadavg()[0], 2),
    }
    bench_pages = serve(workdir)
    test_pages = serve_folder(PAGES)
    started = time.monotonic()
    versions: list[Version] = []
    error: str | None = None
    try:
        versions = [checkout(BEFORE, args.before, workdir), checkout(AFTER, args.after, workdir)]
        html, expected = grid_page()
        (workdir / "grid.html").write_text(html)
        base = f"http://127.0.0.1:{bench_pages.server_address[1]}"
        page = f"{base}/index.html"
        for version in versions:
            version.shot = tabsight(version.params(args.chromium), page, f"tabsight {version.label}")
        chosen = measures(
            page,
            f"{base}/grid.html",
            expected,
            f"http://127.0.0.1:{test_pages.server_address[1]}",
            workdir / "report.txt",
        )
        tallies = await run(versions, chosen, rounds, calls, warmup, args.chromium)
        report["measures"] = figures(tallies, rounds * calls)
    except Exception as failure:  # noqa: BLE001 -- reported, written, and the exit code says so
        error = describe(failure)
    finally:
        bench_pages.shutdown()
        test_pages.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)

    report |= {
        "duration_s": round(time.monotonic() - started, 1),
        "load_end": round(os.getloadavg()[0], 2),
        "versions": {version.label: version.info for version in versions},
    }
    if error:
        report["error"] = error
    (out / "versions.json").write_text(json.dumps(report, indent=2) + "\n")
    if "measures" in report:
        print(table(report["measures"], versions))
        print(
            f"\n{rounds} rounds of {calls} timed calls a block after {warmup} warm-up calls of each measure; "
            f"took {report['duration_s']} s; load average {report['load_start']} at start, {report['load_end']} at "
            f"end; wrote {(out / 'versions.json').relative_to(ROOT)}"
        )
    failures = sum(row[label]["failures"] for row in report.get("measures", {}).values() for label in (BEFORE, AFTER))
    if error or failures:
        print(f"\nfailed: {error or f'{failures} calls'}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    anyio.run(main)
