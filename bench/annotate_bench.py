"""Annotated screenshot of a page with 100 interactive elements: p50/p90 over N calls.

    .venv/bin/python bench/annotate_bench.py [--calls 30] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

The page (served on 127.0.0.1) is a 10 x 10 grid that fits a 1280x720
viewport: 60 buttons, 20 links, 10 text inputs with a <label for> and 10
selects with an aria-label, every one with an id. One run measures:

- tabsight end to end: `observe({what: "page", annotate_screenshot: true,
  max_annotations: 100})` through the official MCP SDK client against
  `python -m tabsight mcp` (embedded headless Chromium), after one
  `interact({action: "navigate"})`. A call counts as failed (counted, not
  timed) if it returns isError, no image, or not exactly 100 annotations with
  total_found 100; the ids it missed are reported. Size: base64 image length
  plus text length.
- tabsight discovery alone: in-process, a BrowserClient on the embedded browser
  (as tests/conftest.py's Keeper holds), timing
  `elements.find(target=interactive, max=100)`: the in-page discovery plus
  about 1 ms of native messaging.
- tabsight drawing alone: `tabsight.annotate.draw` on one 1280x720 capture
  (JPEG quality 90, as observe takes it) with the elements found above, and,
  timed apart, the JPEG encoding of its result (quality 80, 4:4:4, as
  observe sends it). The capture's own time is shown for context.
- Playwright MCP `browser_snapshot` and Chrome DevTools MCP `take_snapshot`,
  their text-only answers to the same need, on the same page and Chromium
  (after one `browser_navigate` / `navigate_page`), with the number of
  button/link/textbox/combobox refs (uids) in their answers.

Warm-up calls (5 each, which include the browser's start) are not counted.
TABSIGHT_RUNTIME_DIR is a fresh 0700 folder for the whole run, so the bench
never meets a user's browser; the in-process part runs first and waits for
its browser to end before `tabsight mcp` starts its own.

Peers default to their install in bench/peers (pinned versions) and are skipped when missing:

    bench/peers/install.sh

docs/design.md targets: end to end p50 < 150 ms, discovery p50 < 20 ms, drawing p50 < 30 ms.
Results are printed as a markdown table and written to bench/results/annotate.json.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import re
import shutil
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from common import (
    Failed,
    describe,
    devtools_server,
    failure_notes,
    peer_arguments,
    percentile,
    playwright_server,
    serve,
    tabsight_server,
    text_of,
    use_in_process,
    workspace,
)
from harness.calls import unmarked  # after common, which puts tests/ on sys.path

VIEWPORT_WIDTH = 1280
#: uncounted calls first: the first finds in a new page run ~2-5x slower (cold JIT)
WARMUP = 5
ELEMENTS = 100
#: the in-process BrowserClient's find_elements and capture arguments: as observe asks them
FIND = {"target": "interactive", "selector": None, "limit": ELEMENTS}
CAPTURE = {"format": "jpeg", "quality": 90}
ENCODE_QUALITY = 80

E2E = "tabsight observe(annotate_screenshot), end to end"
DISCOVERY = "tabsight discovery: elements.find, in-process"
CAPTURE_ROW = "tabsight capture (JPEG q90), in-process"
DRAWING = "tabsight drawing: annotate.draw"
ENCODING = "tabsight JPEG encode (q80, 4:4:4)"
PLAYWRIGHT = "playwright-mcp browser_snapshot"
DEVTOOLS = "chrome-devtools-mcp take_snapshot"
#: tabsight's annotated screenshot, as an agent asks it: (tool, arguments)
OBSERVE = ("observe", {"what": "page", "annotate_screenshot": True, "max_annotations": ELEMENTS})
#: p50 targets in ms (docs/design.md §7)
TARGETS = {E2E: 150, DISCOVERY: 20, DRAWING: 30}


# -- the page ---------------------------------------------------------------


def grid_cells() -> list[tuple[str, str]]:
    """(id, html) of the 100 cells, row by row: 6 buttons, 2 links, 1 input, 1 select per row."""
    cells = []
    counts = {"b": 0, "l": 0, "i": 0, "s": 0}
    for _row in range(10):
        for kind in "bbbbbbllis":
            n = counts[kind]
            counts[kind] += 1
            ident = f"{kind}{n}"
            if kind == "b":
                html = f"<button id='{ident}' type='button'>Button {n}</button>"
            elif kind == "l":
                html = f"<a id='{ident}' href='#target-{n}'>Link {n}</a>"
            elif kind == "i":
                html = f"<label for='{ident}'>Field {n}</label><input id='{ident}' placeholder='value {n}'>"
            else:
                options = "".join(f"<option>Option {n}.{k}</option>" for k in range(3))
                html = f"<select id='{ident}' aria-label='Choice {n}'>{options}</select>"
            cells.append((ident, f"<div class='cell'>{html}</div>"))
    return cells


def grid_page() -> tuple[str, list[str]]:
    """The page's HTML and the ids of its 100 interactive elements, in reading order."""
    cells = grid_cells()
    style = (
        "*{box-sizing:border-box} html,body{margin:0;height:100%;overflow:hidden}"
        "body{font:13px sans-serif;background:linear-gradient(#fff,#cde)}"
        "h1{margin:0;height:30px;padding:6px 8px;font-size:16px}"
        "main{display:grid;grid-template-columns:repeat(10,128px);grid-auto-rows:66px}"
        ".cell{display:flex;flex-direction:column;justify-content:flex-end;padding:4px 10px 8px}"
        ".cell>button,.cell>input,.cell>select{width:104px;height:26px}"
        ".cell>a{line-height:26px}.cell>label{font-size:11px}"
    )
    html = (
        f"<!doctype html><html><head><title>annotate bench</title><style>{style}</style></head><body>"
        f"<h1>Annotation benchmark: {ELEMENTS} interactive elements</h1>"
        f"<main>{''.join(cell for _, cell in cells)}</main></body></html>"
    )
    return html, [ident for ident, _ in cells]


def missed(elements: list[dict], expected: list[str]) -> list[str]:
    """The expected ids no element's selector names (selectors are `#id` on this page)."""
    seen = {m.group(1) for e in elements if (m := re.fullmatch(r"#([\w-]+)", e.get("selector", "")))}
    return [ident for ident in expected if ident not in seen]


# -- helpers -------------------------------------------------------------------


def stats(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 1),
        "p90_ms": round(percentile(samples, 0.9), 1),
        "min_ms": round(min(samples), 1),
    }


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = await call()
    return (time.perf_counter() - t0) * 1000, result


def check_found(found: dict, expected: list[str]) -> None:
    elements = found.get("elements", [])
    if len(elements) != ELEMENTS or found.get("total_found") != ELEMENTS:
        raise Failed(
            f"{len(elements)} annotations, total_found {found.get('total_found')}; "
            f"missed: {', '.join(missed(elements, expected)) or 'none'}"
        )


# -- tabsight in-process: discovery, capture, drawing ----------------------------


async def in_process(url: str, expected: list[str], calls: int) -> dict[str, dict]:
    from tabsight import annotate
    from tabsight.browser.connection import BrowserConnection

    browsers = BrowserConnection("bench")
    results: dict[str, dict] = {}
    try:
        started = time.perf_counter()
        browser, tab = await browsers.tab()
        await browser.navigate(tab, url, timeout_ms=30_000)
        ready_s = time.perf_counter() - started

        def find():
            return browser.find_elements(tab, **FIND)

        for _ in range(WARMUP):
            found = await find()
        samples, errors = [], []
        for _ in range(calls):
            ms, answer = await timed(find)
            try:
                check_found(answer, expected)
            except Failed as error:
                errors.append(str(error))
                continue
            samples.append(ms)
            found = answer
        if not samples:
            raise Failed(f"all {calls} elements.find calls failed; first: {errors[0]}")
        payload = len(json.dumps(found, separators=(",", ":"), ensure_ascii=False))
        results[DISCOVERY] = {
            **stats(samples),
            "failures": len(errors),
            "calls": calls,
            "first_error": errors[0] if errors else None,
            "answer_kB": round(payload / 1000, 1),
            "browser_start_and_navigate_s": round(ready_s, 2),
        }

        def capture():
            return browser.capture(tab, **CAPTURE)

        for _ in range(WARMUP):
            await capture()
        shots = [await timed(capture) for _ in range(calls)]
        raw = shots[-1][1].image
        methods = [shot.method for _, shot in shots]  # visible_tab at most 2 a second, else cdp
        results[CAPTURE_ROW] = {
            **stats([ms for ms, _ in shots]),
            "calls": calls,
            "image_bytes": len(raw),
            "methods": {method: methods.count(method) for method in sorted(set(methods))},
        }
    finally:
        await browsers.aclose()
        await browsers.wait_for_end()  # the drawing below is timed with no browser running

    annotations = [{"label": n, **element} for n, element in enumerate(found["elements"], 1)]
    draws, encodes, sizes = [], [], []
    for i in range(WARMUP + calls):
        t0 = time.perf_counter()
        img, badges = annotate.draw(raw, annotations, VIEWPORT_WIDTH)
        t1 = time.perf_counter()
        out = io.BytesIO()
        img.save(out, "JPEG", quality=ENCODE_QUALITY, subsampling=0)
        t2 = time.perf_counter()
        if i >= WARMUP:
            draws.append((t1 - t0) * 1000)
            encodes.append((t2 - t1) * 1000)
            sizes.append(out.tell())
    displaced = sum(not _badge_near(b.box, a["bounds"]) for b, a in zip(badges, annotations))
    results[DRAWING] = {
        **stats(draws),
        "calls": calls,
        "annotations": len(annotations),
        "image": f"{img.width}x{img.height}",
        "badges_displaced": displaced,
        "note": "includes decoding the capture",
    }
    results[ENCODING] = {**stats(encodes), "calls": calls, "image_bytes": int(statistics.median(sizes))}
    return results


def _badge_near(box, bounds: dict) -> bool:
    """Whether a badge touches its element's box (else it was displaced and tied by a line)."""
    return not (
        box.right < bounds["x"]
        or box.x > bounds["x"] + bounds["width"]
        or box.bottom < bounds["y"]
        or box.y > bounds["y"] + bounds["height"]
    )


# -- over MCP ------------------------------------------------------------------------


def check_observe(result: CallToolResult, expected: list[str]) -> int:
    """The answer's size (base64 image + text); Failed unless it is 100 annotations of 100 found."""
    if result.is_error:
        raise Failed(text_of(result) or "(isError, no text)")
    image = next((block for block in result.content if block.type == "image"), None)
    if image is None:
        raise Failed(f"no image block in the result: {text_of(result)[:300]}")
    text = text_of(result)
    try:
        summary = json.loads(unmarked(text))
    except json.JSONDecodeError as error:
        raise Failed(f"text is not JSON ({error}): {text[:300]}") from None
    check_found({"elements": summary.get("annotations", []), "total_found": summary.get("total_found")}, expected)
    return len(image.data) + len(text)


#: a control in a text snapshot: Playwright's `- button "Button 0" [ref=e5]`, DevTools' `uid=1_6 button "Button 0"`
SNAPSHOT_ROLE = re.compile(
    r"^\s*(?:- (?:button|link|textbox|combobox)\b.*\[ref=|uid=\S+ (?:button|link|textbox|combobox)\b)",
    re.MULTILINE,
)


def check_snapshot(result: CallToolResult, expected: list[str]) -> int:
    """The answer's size (text, plus any image); Failed on isError or no text."""
    if result.is_error:
        raise Failed(text_of(result) or "(isError, no text)")
    text = text_of(result)
    if not text:
        raise Failed("no text in the result")
    images = sum(len(block.data) for block in result.content if block.type == "image")
    return len(text) + images


async def measure_mcp(
    params: StdioServerParameters,
    navigate: tuple[str, dict],
    call: tuple[str, dict],
    check: Callable[[CallToolResult, list[str]], int],
    expected: list[str],
    calls: int,
) -> dict:
    async with Client(params, read_timeout_seconds=60) as client:
        started = time.perf_counter()
        result = await client.call_tool(*navigate)
        if result.is_error:
            raise Failed(f"{navigate[0]} failed: {text_of(result)}")
        for _ in range(WARMUP):
            check(await client.call_tool(*call), expected)  # Failed here skips the server
        warmup_s = time.perf_counter() - started
        samples, sizes, errors, last = [], [], [], None
        for _ in range(calls):
            try:
                ms, result = await timed(lambda: client.call_tool(*call))
                sizes.append(check(result, expected))
            except Failed as error:
                errors.append(str(error))
                continue
            except Exception as error:  # noqa: BLE001 -- a protocol error or timeout fails the call, like isError does
                errors.append(describe(error))
                continue
            samples.append(ms)
            last = result
    if not samples:
        raise Failed(f"all {calls} calls failed; first: {errors[0]}")
    out = {
        **stats(samples),
        "failures": len(errors),
        "calls": calls,
        "first_error": errors[0] if errors else None,
        "response_kB": round(statistics.median(sizes) / 1000, 1),
        "warmup_s": round(warmup_s, 2),
    }
    if check is check_snapshot:
        out["refs_button_link_textbox_combobox"] = len(SNAPSHOT_ROLE.findall(text_of(last)))
    else:
        image = next(block for block in last.content if block.type == "image")
        out["image_kB"] = round(len(base64.b64decode(image.data)) / 1000, 1)
    return out


# -- report -------------------------------------------------------------------------


def table(results: dict[str, dict]) -> str:
    lines = [
        "| measurement | p50 ms | p90 ms | DESIGN target (p50) | failures | response |",
        "|---|---:|---:|---|---:|---|",
    ]
    for name, r in results.items():
        if "error" in r:
            continue
        target = TARGETS.get(name)
        verdict = f"< {target} ms: {'met' if r['p50_ms'] < target else 'MISSED'}" if target else ""
        failures = f"{r['failures']}/{r['calls']}" if "failures" in r else ""
        if "response_kB" in r:
            size = f"{r['response_kB']} kB"
            if "image_kB" in r:
                size += f" (JPEG {r['image_kB']} kB decoded)"
            if "refs_button_link_textbox_combobox" in r:
                size += f" text, {r['refs_button_link_textbox_combobox']} control refs"
        elif "answer_kB" in r:
            size = f"{r['answer_kB']} kB JSON"
        elif "image_bytes" in r:
            size = f"{r['image_bytes'] / 1000:.0f} kB JPEG"
            if "methods" in r:
                size += " (" + ", ".join(f"{m} x{n}" for m, n in r["methods"].items()) + ")"
        else:
            size = f"{r.get('annotations', '')} marks, {r.get('badges_displaced', 0)} displaced"
        lines.append(f"| {name} | {r['p50_ms']} | {r['p90_ms']} | {verdict} | {failures} | {size} |")
    lines += failure_notes(results)
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=30)
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, runtime = workspace()
    use_in_process(runtime, args.chromium)

    server = serve(workdir)
    html, expected = grid_page()
    (workdir / "grid.html").write_text(html)
    url = f"http://127.0.0.1:{server.server_address[1]}/grid.html"

    results: dict[str, dict] = {}
    try:
        results.update(await in_process(url, expected, args.calls))
    except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
        results[DISCOVERY] = {"error": describe(error)}
    try:
        results[E2E] = await measure_mcp(
            tabsight_server(runtime, args.chromium),
            ("interact", {"action": "navigate", "url": url}),
            OBSERVE,
            check_observe,
            expected,
            args.calls,
        )
    except Exception as error:  # noqa: BLE001 -- reported in the results, the bench goes on
        results[E2E] = {"error": describe(error)}
    peers = {
        PLAYWRIGHT: (
            args.playwright_mcp,
            lambda cli: playwright_server(cli, args.chromium, workdir / "pw"),
            ("browser_navigate", {"url": url}),
            ("browser_snapshot", {}),
        ),
        DEVTOOLS: (
            args.devtools_mcp,
            lambda cli: devtools_server(cli, args.chromium),
            ("navigate_page", {"type": "url", "url": url}),
            ("take_snapshot", {}),
        ),
    }
    for name, (cli, start, navigate, snapshot) in peers.items():
        if not Path(cli).is_file():
            results[name] = {"error": f"{cli} not found (see the npm install line in --help)"}
            continue
        try:
            results[name] = await measure_mcp(start(cli), navigate, snapshot, check_snapshot, expected, args.calls)
        except Exception as error:  # noqa: BLE001 -- a peer that fails is reported, the table still printed
            results[name] = {"error": describe(error)}

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    order = [E2E, DISCOVERY, CAPTURE_ROW, DRAWING, ENCODING, PLAYWRIGHT, DEVTOOLS]
    results = {name: results[name] for name in order if name in results}
    print(table(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "annotate.json").write_text(
        json.dumps(
            {
                "page": f"{ELEMENTS} interactive elements (60 buttons, 20 links, 10 labelled inputs, 10 selects), "
                "1280x720 viewport",
                "targets_p50_ms": TARGETS,
                "results": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
