"""Every benchmark in one go, then docs/benchmarks.md from their results.

    .venv/bin/python bench/run.py [--only NAME ...] [--report-only] [--quick]
        [--playwright-mcp PATH/TO/cli.js] [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

Runs, in turn, bench/screenshot_bench.py, webp_bench.py, cpu_bench.py,
screenshot_url_bench.py, annotate_bench.py, telemetry_bench.py,
coldstart_bench.py, memory_bench.py and soak_bench.py (NAME_bench.py for each NAME in SCRIPTS, with its arguments
there, the peers' paths and --chromium), showing their output as it comes
and keeping it in bench/results/NAME.log. A script's results file is deleted
before it runs, so a script that fails leaves no figures behind; its section
of the report then says it failed. Then it reads bench/results/*.json and
writes docs/benchmarks.md: the machine, the date, one table per measure with
tabsight beside Playwright MCP and Chrome DevTools MCP, docs/design.md §7's target
beside each row and whether it was met, and the command that reproduces it.
Every figure in the report comes from a results file.

--only runs some scripts (the report keeps the others' last results, with
the time they ran); --report-only runs none; --quick runs each with small
counts, a smoke test whose report says so. The peers are installed with:

    bench/peers/install.sh

A full run takes about 17 minutes on 2 cores.

Not run from here, since it needs a second checkout: bench/versions_bench.py
compares two checkouts of tabsight (each a repository root with its own
.venv), their screenshot, annotated screenshot and click interleaved in one
run, and reports after/before of each p50 (bench/results/versions.json):

    .venv/bin/python bench/versions_bench.py --before PATH/TO/OTHER/CHECKOUT [--after PATH] [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import annotate_bench
import cpu_bench
import screenshot_bench
import telemetry_bench
import webp_bench
from common import (
    DEVTOOLS,
    PEERS_INSTALL,
    PLAYWRIGHT,
    TABSIGHT,
    peer_arguments,
)

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"
REPORT = ROOT / "docs" / "benchmarks.md"
COMMAND = ".venv/bin/python bench/run.py"

#: name (of the script bench/NAME_bench.py, its results and its log): (arguments of the full run, of --quick,
#: whether it takes the peers' paths)
SCRIPTS = {
    "screenshot": (["--calls", "40", "--block", "10"], ["--calls", "4", "--block", "2"], True),
    "webp": (["--repeats", "9"], ["--repeats", "1"], False),
    "cpu": (["--window", "20"], ["--window", "3"], False),
    "screenshot_url": (["--calls", "30"], ["--calls", "3"], True),
    "annotate": (["--calls", "30"], ["--calls", "3"], True),
    "telemetry": (
        ["--events", "200", "--flood", "100000"],
        ["--events", "4", "--per-session", "2", "--flood", "2000"],
        False,
    ),
    "coldstart": (["--runs", "5"], ["--runs", "1"], True),
    "memory": (["--shots", "20"], ["--shots", "3"], True),
    "soak": (["--clients", "8", "--calls", "2000"], ["--clients", "8", "--calls", "80"], False),
}


# -- running ------------------------------------------------------------------------


def run_script(name: str, args: list[str]) -> dict:
    """Run bench/NAME_bench.py, echoing and logging its output; what the report says about the run."""
    (RESULTS / f"{name}.json").unlink(missing_ok=True)
    command = [sys.executable, str(BENCH / f"{name}_bench.py"), *args]
    print(f"\n== {name}: {' '.join(command[1:])}", flush=True)
    started, date = time.monotonic(), datetime.now(timezone.utc).isoformat(timespec="seconds")
    tail: list[str] = []
    with open(RESULTS / f"{name}.log", "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout
        for line in process.stdout:
            sys.stdout.write(line)
            log.write(line)
            tail = [*tail[-9:], line.rstrip()]
        code = process.wait()
    return {
        "command": f".venv/bin/python bench/{name}_bench.py {' '.join(args)}".strip(),
        "commit": output(["git", "rev-parse", "--short", "HEAD"]),
        "started": date,
        "duration_s": round(time.monotonic() - started),
        "exit_code": code,
        "tail": tail if code else [],
    }


def output(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=ROOT, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def package_version(cli: str) -> str:
    """name@version from the package.json nearest above a peer's entry script."""
    for folder in Path(cli).resolve().parents:
        with contextlib.suppress(OSError, ValueError):
            package = json.loads((folder / "package.json").read_text())
            if package.get("name") and package.get("version"):
                return f"{package['name']} {package['version']}"
    return "not installed"


def machine(args: argparse.Namespace) -> dict:
    meminfo = Path("/proc/meminfo").read_text()
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")), "")
    os_release = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line)
    import tabsight

    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "ram_gib": round(int(meminfo.split("MemTotal:")[1].split()[0]) / 1024 / 1024, 1),
        "os": os_release.get("PRETTY_NAME", "").strip('"'),
        "kernel": f"{platform.system()} {platform.release()}",
        "chromium": output([args.chromium, "--version"]) or args.chromium,
        "python": platform.python_version(),
        "mcp_sdk": metadata.version("mcp"),
        "node": output(["node", "--version"]),
        "tabsight": tabsight.__version__,
        "commit": output(["git", "rev-parse", "--short", "HEAD"]),
        "uncommitted_changes": bool(output(["git", "status", "--porcelain", "--untracked-files=no"])),
        PLAYWRIGHT: package_version(args.playwright_mcp),
        DEVTOOLS: package_version(args.devtools_mcp),
    }


# -- the report -----------------------------------------------------------------------


def load(name: str) -> dict | None:
    try:
        return json.loads((RESULTS / f"{name}.json").read_text())
    except (OSError, ValueError):
        return None


def ms(r: dict | None, key: str = "p50_ms", spread: str | None = "p90_ms") -> str:
    """A time cell: "48.9 ms (p90 50.2)"; the error in brief when the row failed; n/a when absent."""
    if not r:
        return "not run"
    if "error" in r:
        return f"failed: {r['error'][:80]}"
    if key not in r:
        return "no sample"
    extra = f" ({spread.removesuffix('_ms')} {r[spread]})" if spread and spread in r else ""
    return f"{r[key]} ms{extra}"


def met(ok: bool | None) -> str:
    return "" if ok is None else ("met" if ok else "**missed**")


def row(*cells: object) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


HEADER = [
    "| | tabsight | Playwright MCP | Chrome DevTools MCP | docs/design.md §7 target | met? |",
    "|---|---|---|---|---|---|",
]


#: an image format as the tables name it
FORMAT_NAMES = {"jpeg": "JPEG", "png": "PNG", "webp": "WebP"}


def screenshot_section(data: dict) -> list[str]:
    lines = list(HEADER)
    modes = data.get("modes", {})
    for name, by_server in modes.items():
        cells = [by_server.get(server) for server in (TABSIGHT, PLAYWRIGHT, DEVTOOLS)]
        ours, theirs = cells[0], cells[1]
        ratio = ours["p50_ms"] / theirs["p50_ms"] if ours and theirs else None
        label = f"p50, {name}" + (
            f" ({data['interval_s']:g} s between calls)" if name == screenshot_bench.PACED else ""
        )
        lines.append(
            row(
                label,
                *(f"{ms(r)}, {FORMAT_NAMES[r['format']]}" if r else "not run" for r in cells),
                f"tabsight ≤ {screenshot_bench.TARGET_RATIO} × Playwright MCP",
                f"{met(ratio <= screenshot_bench.TARGET_RATIO)} ({ratio:.2f} ×)" if ratio is not None else "",
            )
        )
    for name in (screenshot_bench.BACK_TO_BACK, screenshot_bench.DEFAULTS):
        cells = [modes.get(name, {}).get(server) for server in (TABSIGHT, PLAYWRIGHT, DEVTOOLS)]
        lines.append(
            row(
                f"image size, {name}",
                *(f"{r['image_bytes'] / 1000:.0f} kB {FORMAT_NAMES[r['format']]}" if r else "" for r in cells),
                "",
                "",
            )
        )
    lines += [
        "",
        (
            f"{data.get('calls')} calls per server in each mode, in blocks of {data.get('block')} (tabsight, "
            "Playwright MCP, Chrome DevTools MCP, again and again), all three servers open at once."
        ),
    ]
    return lines


def webp_section(data: dict) -> list[str]:
    pages = data.get("pages", {})
    names = list(pages)
    quality = data.get("quality")

    def cell(r: dict, time_key: str) -> str:
        return f"{r[time_key]} ms, {r['bytes'] / 1000:.1f} kB, MAE {r['mae']}, {r['psnr_db'] or '∞'} dB"

    lines = [row(f"WebP quality {quality} of a 1280x720 viewport", *names), "|---" * (len(names) + 1) + "|"]
    for name, label in (
        ("chrome webp", f"Chrome's WebP {quality}"),
        ("jpeg90", "Chrome's JPEG 90"),
        ("png", "Chrome's PNG"),
    ):
        lines.append(
            row(f"{label}: capture round trip", *(cell(pages[p]["chrome"][name], "round_trip_ms") for p in names))
        )
    for source, label in (("jpeg90", "JPEG 90"), ("png", "PNG")):
        first = {p: pages[p]["pillow"][source]["0"] for p in names}
        lines.append(row(f"decoding the {label} (host)", *(f"{first[p]['decode_ms']} ms" for p in names)))
        for method in webp_bench.METHODS:
            lines.append(
                row(
                    f"Pillow method {method} from the {label}: encoding",
                    *(cell(pages[p]["pillow"][source][str(method)], "encode_ms") for p in names),
                )
            )
    chosen = str(data.get("tabsight_method", 0))
    fresh = {
        p: round(
            pages[p]["chrome"]["jpeg90"]["round_trip_ms"]
            + pages[p]["pillow"]["jpeg90"][chosen]["decode_ms"]
            + pages[p]["pillow"]["jpeg90"][chosen]["encode_ms"],
            1,
        )
        for p in names
    }
    lines.append(
        row(
            f"a fresh WebP the way tabsight takes it (JPEG 90, decoded, method {chosen}) ÷ Chrome's WebP",
            *(
                f"{fresh[p]} ms ÷ {pages[p]['chrome']['chrome webp']['round_trip_ms']} ms = "
                f"{fresh[p] / pages[p]['chrome']['chrome webp']['round_trip_ms']:.2f} ×"
                for p in names
            ),
        )
    )
    lines += [
        "",
        (
            f"Each cell: the time (median of {data.get('repeats')}), the image's size, and its difference from the PNG "
            "(the pixels the page showed): mean absolute error per channel (0-255) and PSNR. A round trip is "
            "Page.captureScreenshot through `execute` from the host (attach, capture, native messaging, detach: the "
            "same for every format), in wall time; encoding and decoding are Pillow's, in-process, in CPU time of the thread "
            "(the machine's other work not counted). No target: the table chose "
            f"method {chosen} (images.WEBP_METHOD) and a JPEG 90 source for tabsight's WebP."
        ),
    ]
    return lines


def cpu_section(data: dict) -> list[str]:
    results = data.get("results", {})
    target = cpu_bench.TARGET_STATIC_RATIO
    lines = [
        f"| % of one core over {data.get('window_s'):g} s | frame source on | frame source off | on − off | target | met? |",
        "|---|---|---|---|---|---|",
    ]
    for page in ("static", "animated"):
        on, off = results.get(f"{page}, frame source on"), results.get(f"{page}, frame source off")
        if not on or not off:
            continue
        half = f"{data.get('window_s') / 2:g} s"
        shots = f"a screenshot every {data.get('interval_s'):g} s"
        for window, part, label in (
            ("screenshots", None, shots),
            ("screenshots", "first_half", f"{shots}, first {half}"),
            ("screenshots", "second_half", f"{shots}, last {half}"),
            ("idle", None, "idle"),
        ):
            a, b = ((r[window][part] if part else r[window]) for r in (on, off))
            is_target = page == "static" and window == "screenshots" and not part
            lines.append(
                row(
                    f"{page} page, {label}: the browser",
                    *(
                        f"{r['browser_core_pct']} (host {r['host_core_pct']}, front {r['front_core_pct']})"
                        for r in (a, b)
                    ),
                    f"{a['browser_core_pct'] - b['browser_core_pct']:+.1f} points "
                    f"({a['browser_core_pct'] / b['browser_core_pct']:.2f} ×)"
                    if b["browser_core_pct"]
                    else "",
                    f"on ≤ {target} × off" if is_target else "none",
                    met(a["browser_core_pct"] <= target * b["browser_core_pct"]) if is_target else "",
                )
            )
    lines += [
        "",
        (
            "The browser: the Chromium processes (browser, GPU, renderers, utilities); the host and the front apart. "
            "A fresh `tabsight mcp` and browser for each column; screenshots with the tool's defaults (WebP)."
        ),
    ]
    on, off = results.get("animated, frame source on"), results.get("animated, frame source off")
    if on and off:
        first, second = (
            on["screenshots"][half]["browser_core_pct"] - off["screenshots"][half]["browser_core_pct"]
            for half in ("first_half", "second_half")
        )
        lines += [
            "",
            (
                f"The bound on an animated page: the frame source adds {first:+.1f} points of a core over the first "
                f"{data.get('window_s') / 2:g} s of screenshots (once: the first one attaches the debugger and starts a "
                "screencast, which the page's frames stop; extension/service-worker/frames.js tries one again 30 s later) and "
                f"{second:+.1f} over the next, as the calls go on."
            ),
        ]
    return lines


def screenshot_url_section(data: dict) -> list[str]:
    from screenshot_url_bench import BASELINE

    ours = data.get(BASELINE)
    idle = data.get("tabsight screenshot(url), waitForNetworkIdle=true")
    theirs = data.get("playwright-mcp browser_navigate + browser_take_screenshot")
    devtools = data.get("chrome-devtools-mcp navigate_page + take_screenshot")
    failures = [f"{r['failures']}/{r['calls']}" if r and "failures" in r else "" for r in (ours, theirs, devtools)]
    return [
        *HEADER,
        row("navigate + screenshot, p50", ms(ours), ms(theirs), ms(devtools), "none", ""),
        row("the same, tabsight with waitForNetworkIdle=true", ms(idle), "n/a ¹", "n/a ¹", "none", ""),
        row("failed samples", *failures, "", ""),
        "",
        "¹ waitForNetworkIdle is a parameter of tabsight's `screenshot`; the peers' calls are the same as in the row above.",
    ]


def annotate_section(data: dict) -> list[str]:
    results = data.get("results", {})
    targets = data.get("targets_p50_ms", {})
    lines = list(HEADER)
    for name, label in (
        (annotate_bench.E2E, "annotated screenshot, end to end, p50"),
        (annotate_bench.DISCOVERY, "element discovery (in-process), p50"),
        (annotate_bench.DRAWING, "drawing the labels, p50"),
        (annotate_bench.CAPTURE_ROW, "capture (in-process, for context), p50"),
        (annotate_bench.ENCODING, "JPEG encoding of the result, p50"),
    ):
        r = results.get(name)
        target = targets.get(name)
        ok = r["p50_ms"] < target if target and r and "p50_ms" in r else None
        lines.append(row(label, ms(r), "n/a ²", "n/a ²", f"p50 < {target} ms" if target else "none", met(ok)))
    e2e = results.get(annotate_bench.E2E) or {}
    snapshots = [results.get(annotate_bench.PLAYWRIGHT), results.get(annotate_bench.DEVTOOLS)]
    lines.append(
        row(
            "text snapshot (`browser_snapshot` / `take_snapshot`), p50",
            "n/a ²",
            *(ms(r) for r in snapshots),
            "none",
            "",
        )
    )
    sizes = [f"{e2e['response_kB']} kB (image + text)" if "response_kB" in e2e else ""]
    sizes += [
        f"{r['response_kB']} kB text, {r.get('refs_button_link_textbox_combobox')} control refs"
        if r and "response_kB" in r
        else ""
        for r in snapshots
    ]
    lines.append(row("answer size", *sizes, "", ""))
    failures = [f"{r['failures']}/{r['calls']}" if r and "failures" in r else "" for r in (e2e, *snapshots)]
    lines.append(row("failed calls", *failures, "", ""))
    lines += [
        "",
        (
            "² Neither peer returns an annotated screenshot; the nearest answer each gives is a text accessibility "
            "snapshot with references to the controls (the row below), which has no image."
        ),
        "",
        f"Page: {data.get('page', '')}.",
    ]
    return lines


def telemetry_section(data: dict) -> list[str]:
    latency, flood = data.get("latency", {}), data.get("flood", {})
    p99 = latency.get("p99_ms")
    value = (
        f"p50 {latency['p50_ms']} ms, p99 {p99} ms ({latency['timed']} timed of {latency['events']}, "
        f"{latency['missed']} missed)"
        if p99 is not None
        else ms(latency)
    )
    lines = [
        *HEADER,
        row(
            "alert latency, console.error to notifications/message",
            value,
            "n/a ³",
            "n/a ³",
            f"p99 < {telemetry_bench.TARGET_P99_MS} ms",
            met(p99 < telemetry_bench.TARGET_P99_MS if p99 is not None else None),
        ),
    ]
    if "host_rss_peak_mb" in flood:
        peak = flood["host_rss_peak_mb"]
        lines.append(
            row(
                f"host RSS during a flood of {flood['produced_by_pages']:,} console errors, peak",
                f"{peak} MB (before {flood['host_rss_before_mb']}, after {flood['host_rss_after_mb']}; "
                f"{flood['ingested_by_host']:,} ingested, {flood['relay_dropped']:,} dropped)",
                "n/a ⁴",
                "n/a ⁴",
                f"host < {telemetry_bench.TARGET_RSS_MB} MB",
                met(peak < telemetry_bench.TARGET_RSS_MB),
            )
        )
    else:
        lines.append(
            row(
                "host RSS during a flood of console errors",
                ms(flood),
                "n/a ⁴",
                "n/a ⁴",
                f"host < {telemetry_bench.TARGET_RSS_MB} MB",
                "",
            )
        )
    lines += [
        "",
        (
            "³ Neither peer sends browser events to the client as MCP notifications; console messages are read "
            "with a tool call (`browser_console_messages`, `list_console_messages`)."
        ),
        "⁴ The peers have no host process: their node server drives the browser over CDP (see Memory).",
    ]
    return lines


def coldstart_section(data: dict) -> list[str]:
    from coldstart_bench import LOADED, SHOT, SHOT_NO_IDLE

    results = data.get("results", {})
    cells = [results.get(name) for name in (TABSIGHT, PLAYWRIGHT, DEVTOOLS)]
    loaded = [results.get(name + LOADED) for name in (TABSIGHT, PLAYWRIGHT, DEVTOOLS)]
    shot, quick = results.get(SHOT), results.get(SHOT_NO_IDLE)
    targets, ratios = data.get("targets", {}), data.get("ratios", {})
    devtools = data.get("ratios_to_devtools_mcp", {})

    def goal(name: str) -> tuple[str, str]:
        target, ratio = targets.get(name), ratios.get(name)
        if target is None:
            return "none", ""
        beside = f"; {devtools[name]:.2f} × DevTools MCP's" if name in devtools else ""
        return f"≤ {target} × Playwright MCP's", (
            f"{met(ratio <= target)} ({ratio:.2f} ×{beside})" if ratio is not None else ""
        )

    return [
        *HEADER,
        row(
            f"first call {LOADED.split('call ', 1)[1]}, call to first image, p50",
            *(ms(r, spread="min_ms") for r in loaded),
            *goal(TABSIGHT + LOADED),
        ),
        row("spawn to first image, call at once, p50", *(ms(r, spread="min_ms") for r in cells), *goal(TABSIGHT)),
        row(
            "spawn to the opening request answered, p50", *(ms(r, "initialize_p50_ms", None) for r in cells), "none", ""
        ),
        row(
            "`tabsight shot URL -o FILE.jpg`, spawn to exit, p50",
            ms(shot, spread="min_ms"),
            "n/a ⁶",
            "n/a ⁶",
            *goal(SHOT),
        ),
        row(
            "the same, `TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE=false` (captured at DOMContentLoaded)",
            ms(quick, spread="min_ms"),
            "n/a ⁶",
            "n/a ⁶",
            "none",
            f"({ratios[SHOT_NO_IDLE]:.2f} ×)" if SHOT_NO_IDLE in ratios else "",
        ),
        row(
            "processes of `tabsight shot`'s browser left at its exit",
            max(r.get("processes_at_close", 0) for r in (shot, quick) if r) if shot or quick else "",
            "",
            "",
            "none",
            "",
        ),
        row("failed runs", *(f"{r['failures']}/{r['runs']}" if r and "runs" in r else "" for r in cells), "", ""),
        "",
        (
            f"{data.get('runs')} runs per server, alternating, each a fresh server process and a fresh browser "
            f"(and a fresh runtime folder); {data.get('page', '')}."
        ),
        "",
        (
            "⁶ The peers have no such command. `tabsight shot` waits for network idle by default (500 ms past the "
            "page's load; the MCP runs above do not), and ends its browser before it exits."
        ),
    ]


def memory_section(data: dict) -> list[str]:
    results = data.get("results", {})
    targets = data.get("targets_peak_mb", {})
    cells = [results.get(name) or {} for name in (TABSIGHT, PLAYWRIGHT, DEVTOOLS)]

    def own(r: dict, name: str, key: str = "peak_mb") -> str:
        value = r.get("own", {}).get(name, {}).get(key)
        return f"{value} MB" if value is not None else (f"failed: {r['error'][:80]}" if "error" in r else "")

    ours = cells[0]
    front, host = (ours.get("own", {}).get(name, {}).get("peak_mb") for name in ("front", "host"))
    both = (
        {key: sum(ours["own"][name][key] for name in ("front", "host")) for key in ("peak_mb", "after_mb")}
        if front is not None and host is not None
        else {}
    )

    def tree(r: dict, key: str) -> str:
        value = r.get("tree", {}).get(key)
        return f"{value} MB ({r['tree']['processes']} processes)" if value is not None else ""

    shots = next((r["shots"] for r in cells if "shots" in r), "")
    return [
        *HEADER,
        row(
            "server process (tabsight: front `tabsight mcp`; peers: node), peak RSS",
            own(ours, "front"),
            own(cells[1], "node"),
            own(cells[2], "node"),
            f"front < {targets.get('front')} MB",
            met(front < targets["front"] if front is not None and "front" in targets else None),
        ),
        row(
            "host process, peak RSS",
            own(ours, "host"),
            "n/a ⁴",
            "n/a ⁴",
            f"host < {targets.get('host')} MB",
            met(host < targets["host"] if host is not None and "host" in targets else None),
        ),
        row(
            "the server's own processes, after the screenshots",
            f"{round(both['after_mb'], 1)} MB (front + host)" if both else "",
            own(cells[1], "node", "after_mb"),
            own(cells[2], "node", "after_mb"),
            "none",
            "",
        ),
        row("whole process tree (server + browser), sum of RSS", *(tree(r, "rss_sum_mb") for r in cells), "none", ""),
        row("whole process tree, sum of PSS", *(tree(r, "pss_sum_mb") for r in cells), "none", ""),
        "",
        (
            f"After {shots} screenshots ({data.get('page', '')}); peaks sampled every 20 ms while they "
            "ran. The RSS sum counts pages Chromium's processes share once per process; PSS divides them among their "
            "users, so it is the fairer total."
        ),
    ]


def soak_section(data: dict) -> list[str]:
    config = data.get("config", {})
    wrong, unanswered = data.get("wrong", []), data.get("unanswered", [])
    outside = len(data.get("errors_outside_outages", []))
    quota = sum(
        count
        for message, count in data.get("error_messages", [])
        if "quota" in message.lower() or "MAX_CAPTURE_VISIBLE_TAB" in message
    )
    failed = outside + len(wrong) + len(unanswered)
    faults = f", {data['errors_in_outages']} of them during the injected faults" if config.get("faults") else ""
    lines = [
        *HEADER,
        row(
            f"calls by {config.get('clients')} clients at once, mixed tools",
            f"{data.get('calls')} in {data.get('seconds')} s: {data.get('ok')} right, {data.get('errors')} errors"
            f"{faults}, {len(wrong)} wrong, {len(unanswered)} unanswered",
            "n/a ⁵",
            "n/a ⁵",
            "zero failures" + (" outside the faults" if config.get("faults") else ""),
            met(failed == 0),
        ),
        row("quota errors in the answers", quota, "n/a ⁵", "n/a ⁵", "none surfaced", met(quota == 0)),
    ]
    for kind in ("screenshot", "screenshot_url", "annotate"):
        r = data.get("latency", {}).get(kind)
        if r:
            lines.append(
                row(
                    f"`{kind}` under that load, p50 (p99)",
                    f"{r['p50_ms']} ms ({r['p99_ms']} ms), {r['ok']} calls",
                    "n/a ⁵",
                    "n/a ⁵",
                    "none",
                    "",
                )
            )
    for fault in data.get("faults", []):
        lines.append(
            row(
                f"after the {fault['fault']} (at call {fault['at_call']}), every client answered right again in",
                f"{fault.get('recovered_s')} s",
                "n/a ⁵",
                "n/a ⁵",
                "none",
                "",
            )
        )
    checks_failed = [name for name in ("listeners", "modes", "leaks", "secrets", "tracebacks") if data.get(name)]
    masked = sum(data.get("masked", {}).values())
    lines += [
        row(
            "RSS growth from 60% to 100% of the calls",
            f"fronts {data.get('front_growth_kb')} kB, host {data.get('host_growth_kb')} kB",
            "n/a ⁵",
            "n/a ⁵",
            "none",
            "",
        ),
        row(
            "TCP/UDP listeners, socket modes, leaked tabs, debugger attachments, sockets, processes, secrets",
            f"{', '.join(checks_failed) or 'none'} ({data.get('listener_samples')} samples; {masked} secrets masked "
            f"in answers, buffers and {data.get('notifications')} notifications)",
            "n/a ⁵",
            "n/a ⁵",
            "none",
            met(not checks_failed),
        ),
        "",
        "⁵ Not run for the peers: bench/soak_bench.py drives tabsight only, eight `tabsight mcp` sharing one browser.",
        "",
        ("Faults injected (browser restart, host kill -9). " if config.get("faults") else "No faults injected. ")
        + "The soak's docstring (tests/harness/soak.py) lists every check (answers right, listeners, leaks, "
        "secrets); the script's exit code says whether all passed.",
    ]
    return lines


#: name: (title, what one sample is, the function that makes the table)
SECTIONS = {
    "screenshot": (
        "Screenshot of the tracked tab",
        (
            "Each server loads the bench page once, then takes screenshots of it (1280x720): JPEG back to back, "
            "JPEG paced, and in its default format back to back; the servers' calls interleaved in one run."
        ),
        screenshot_section,
    ),
    "webp": (
        "WebP: Pillow's methods against Chrome's encoder",
        (
            "Real captures of four pages (bench/webp_bench.py's docstring), encoded to WebP by Chrome and by the "
            "host at each libwebp method, from a PNG and from a JPEG 90."
        ),
        webp_section,
    ),
    "cpu": (
        "Browser CPU, frame source on and off",
        (
            "CPU time of the browser's processes (utime + stime from /proc) on a static and an animated page, with "
            "the frame source on and off (TABSIGHT_FRAME_SOURCE), while an MCP client takes a screenshot every 0.6 s, "
            "and idle."
        ),
        cpu_section,
    ),
    "screenshot_url": (
        "Screenshot of a URL",
        (
            "One sample is all an agent does to see a URL not loaded before: tabsight one `screenshot` call with "
            "`url`; the peers navigate, then take a screenshot (1280x720 JPEG)."
        ),
        screenshot_url_section,
    ),
    "annotate": (
        "Annotated screenshot, 100 elements",
        (
            'tabsight\'s `observe({what: "page", annotate_screenshot: true})` on a page with 100 interactive '
            "elements, and its parts timed in-process."
        ),
        annotate_section,
    ),
    "telemetry": (
        "Alerts and host memory under load",
        "Streamed alerts through a real `tabsight mcp`, and the host's RSS while 50 frames log console errors.",
        telemetry_section,
    ),
    "coldstart": (
        "Cold start to first image",
        (
            "From spawning the MCP server process, through its opening request (`initialize`, or 2026-07-28's "
            "`server/discover`, which the Python SDK's client sends), to the first image block of a screenshot of "
            "the bench page; and `tabsight shot` of the same page, from its spawn to its exit."
        ),
        coldstart_section,
    ),
    "memory": (
        "Memory",
        "Each server fresh, after 1920x1080 screenshots of the bench page.",
        memory_section,
    ),
    "soak": (
        "Eight MCP clients at once, through a browser restart and a host kill -9",
        (
            "Eight SDK clients, each with its own `tabsight mcp`, make mixed calls (observe, screenshots with and "
            "without `url`, annotated screenshots, interactions, `execute`) through one shared browser."
        ),
        soak_section,
    ),
}


def report(runs: dict, info: dict) -> str:
    lines = [
        "# Benchmarks",
        "",
        (
            f"Generated by `bench/run.py` on {info.get('date', '')} from the results files in `bench/results/`; "
            "every figure below is copied from them. Do not edit by hand: rerun."
        ),
        "",
    ]
    quick = [name for name, run in runs.items() if run.get("quick")]
    if quick:
        lines += [f"**{', '.join(quick)}: a --quick smoke run with small counts; do not quote these figures.**", ""]
    lines += [
        "Reproduce (Linux; a Chromium at /usr/bin/chromium or given with --chromium):",
        "",
        "```sh",
        f"{PEERS_INSTALL}   # the peers, once",
        f"{COMMAND}",
        "```",
        "",
        (
            "All three servers run on the same Chromium binary, headless, with a fresh profile, the same page served "
            "on 127.0.0.1 and the same viewport, one after the other, each driven through the official MCP SDK "
            "client (`mcp` for Python); times are wall-clock at the client. Each script's docstring says exactly "
            "what it measures."
        ),
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        row("CPU", f"{info.get('cpus')} × {info.get('cpu_model')}"),
        row("RAM", f"{info.get('ram_gib')} GiB"),
        row("OS, kernel", f"{info.get('os')}, {info.get('kernel')}"),
        row("Chromium", info.get("chromium")),
        row("Python, MCP SDK", f"{info.get('python')}, mcp {info.get('mcp_sdk')}"),
        row("Node.js", info.get("node")),
        row(
            "tabsight",
            f"{info.get('tabsight')}, commit {info.get('commit')}"
            + (" (with uncommitted changes)" if info.get("uncommitted_changes") else ""),
        ),
        row("Playwright MCP", info.get(PLAYWRIGHT)),
        row("Chrome DevTools MCP", info.get(DEVTOOLS)),
        row("load average (1 min) at start, at end", f"{info.get('load_start')}, {info.get('load_end')}"),
        "",
    ]
    for name, (title, what, section) in SECTIONS.items():
        run = runs.get(name)
        lines += [f"## {title}", "", what, ""]
        data = load(name)
        if run and run.get("exit_code"):
            lines += [
                f"`{run['command']}` failed (exit code {run['exit_code']}); its last lines:",
                "",
                "```",
                *run["tail"],
                "```",
                "",
            ]
        if data is None:
            lines += ["No results: the script did not write any.", ""]
            continue
        lines += section(data)
        if run:
            commit = f", at commit {run['commit']}" if run.get("commit") else ""
            lines += ["", f"`{run['command']}`, started {run['started']}, took {run['duration_s']} s{commit}."]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=list(SCRIPTS), help="run only these scripts")
    parser.add_argument("--report-only", action="store_true", help="run nothing; write the report from the results")
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke test, not figures to quote")
    peer_arguments(parser)
    args = parser.parse_args()

    RESULTS.mkdir(exist_ok=True)
    state = load("run") or {}
    runs: dict = state.get("runs", {})
    info: dict = state.get("machine", {})
    if not args.report_only:
        for cli in (args.playwright_mcp, args.devtools_mcp):
            if not Path(cli).is_file():
                print(f"{cli} not found: that peer is skipped. Install the peers with:\n    {PEERS_INSTALL}")
        info = machine(args)
        info["load_start"] = round(os.getloadavg()[0], 2)
        info["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        peers = ["--playwright-mcp", args.playwright_mcp, "--devtools-mcp", args.devtools_mcp]
        for name in args.only or SCRIPTS:
            full, quick, takes_peers = SCRIPTS[name]
            arguments = (quick if args.quick else full) + (peers if takes_peers else []) + ["--chromium", args.chromium]
            runs[name] = {**run_script(name, arguments), "quick": args.quick}
        info["load_end"] = round(os.getloadavg()[0], 2)
        state = {"machine": info, "runs": runs}
        (RESULTS / "run.json").write_text(json.dumps(state, indent=2))
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text(report(runs, info))
    print(f"\nwrote {REPORT.relative_to(ROOT)}")
    failed = [name for name, run in runs.items() if run.get("exit_code")]
    if failed:
        print(f"failed: {', '.join(failed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
