"""Annotated screenshots of real web apps: how well they agree with Chromium's accessibility tree,
and what they cost an agent in tokens, beside Playwright MCP's text snapshot of the same page.

    .venv/bin/python bench/realapps_bench.py [--page NAME.html ...] [--playwright-mcp PATH/TO/cli.js]
        [--chromium PATH]

The pages are tests/realapps/pages/*.html (TodoMVC, Swagger UI, jsoneditor, Shoelace,
Bootstrap, AdminLTE, Excalidraw, the code editors when their page is there), real apps from
npm served as static files on 127.0.0.1; tests/realapps/install.sh installs them. For each
page, as tests/test_realapps.py scores it (tests/harness/realapps.py, whose docstring defines
the measures, and tests/harness/axtree.py, the ground truth):

- recall, precision, names and selectors valid of tabsight's
  `observe({what:"page", annotate_screenshot:true, max_annotations:100})`, through the official
  MCP SDK client against `python -m tabsight mcp` (embedded headless Chromium, fresh 0700
  runtime folder), after `interact navigate` and a wait until the page is quiet; the ground
  truth is read by a second headless Chromium (no extension, CDP over a pipe);
- the tokens of that answer: its JSON text (characters / 4) plus its image (width x height /
  750, the usual estimate for an image block); and of the same observe with
  `annotation_format: "compact"` when tabsight accepts that argument ("n/a" when it does not);
- the tokens of Playwright MCP's `browser_snapshot` text (characters / 4) on the same page,
  Chromium and 1280x720 viewport, after `browser_navigate` and the same quiet wait
  (`browser_evaluate`). The peer defaults to its install in bench/peers and is skipped when missing:

    bench/peers/install.sh

Targets per page (issue 15): recall, precision and names at least 0.95, every selector valid
(states, whether an annotation's state agrees with Chromium's, has none).
Results are printed as a markdown table, each page's misses below it, and written to
bench/results/realapps.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import anyio
from mcp import Client

from common import PEERS_INSTALL, describe, peer_arguments, playwright_server, tabsight_server, text_of, workspace
from harness.axtree import QUIET_SCRIPT, AXBrowser
from harness.calls import Failed
from harness.realapps import (
    HEADER,
    REALAPPS,
    TARGETS,
    annotated,
    cells,
    missing_apps,
    pages,
    report,
    score_page,
)
from harness.servers import serve_folder

#: tokens per pixel of an image block (the common estimate: about 1,229 tokens for 1280x720)
PIXELS_PER_TOKEN = 750
CHARS_PER_TOKEN = 4


def tokens(text_chars: int, image_size: tuple[int, int]) -> int:
    width, height = image_size
    return round(text_chars / CHARS_PER_TOKEN + width * height / PIXELS_PER_TOKEN)


async def compact_tokens(client: Client) -> int | None:
    """The annotated observe's tokens with annotation_format "compact", or None if tabsight does not take it."""
    try:
        _, text, size = await annotated(client, annotation_format="compact")
    except Failed as error:
        if "annotation_format" in str(error):
            return None
        raise
    return tokens(len(text), size)


async def tabsight_pages(runtime: Path, chromium: str, base_url: str, names: list[str]) -> dict[str, dict]:
    results: dict[str, dict] = {}
    with AXBrowser(chromium) as ax:
        async with Client(tabsight_server(runtime, chromium, linger=0.5), read_timeout_seconds=60) as client:
            for page in names:
                try:
                    scored, observed = await score_page(client, ax, base_url, page)
                    results[page] = {
                        "score": scored,
                        "tokens": tokens(observed.text_chars, observed.image_size),
                        "compact_tokens": await compact_tokens(client),
                    }
                except Exception as error:  # noqa: BLE001 -- reported in the table, the other pages still run
                    results[page] = {"error": describe(error)}
    return results


async def playwright_tokens(cli: str, chromium: str, output_dir: Path, base_url: str, names: list[str]) -> dict:
    """Playwright MCP's browser_snapshot tokens per page (an error string for a page that failed)."""
    found: dict[str, int | str] = {}
    async with Client(playwright_server(cli, chromium, output_dir), read_timeout_seconds=60) as client:
        for page in names:
            try:
                for name, arguments in (
                    ("browser_navigate", {"url": base_url + page}),
                    ("browser_evaluate", {"function": f"() => {QUIET_SCRIPT}"}),
                ):
                    result = await client.call_tool(name, arguments)
                    if result.is_error:
                        raise Failed(f"{name}: {text_of(result)[:300]}")
                snapshot = await client.call_tool("browser_snapshot", {})
                if snapshot.is_error:
                    raise Failed(f"browser_snapshot: {text_of(snapshot)[:300]}")
                found[page] = round(len(text_of(snapshot)) / CHARS_PER_TOKEN)
            except Exception as error:  # noqa: BLE001 -- that page's cell says so
                found[page] = f"error: {describe(error)}"
    return found


def table(results: dict[str, dict], playwright: dict[str, int | str]) -> str:
    lines = [
        f"| page | {HEADER} | tabsight tokens | compact tokens | Playwright snapshot tokens |",
        "|---|" + "---:|" * 10,
    ]
    notes = []
    for page, r in results.items():
        theirs = playwright.get(page, "n/a")
        if isinstance(theirs, str) and theirs.startswith("error"):
            notes.append(f"Playwright MCP on {page}: {theirs[:300]}")
            theirs = "error"
        if "error" in r:
            lines.append(f"| {page} | error |{' |' * 8} {theirs} |")
            notes.append(f"{page}: {r['error'][:500]}")
            continue
        compact = r["compact_tokens"] if r["compact_tokens"] is not None else "n/a"
        lines.append(f"| {page} | {cells(r['score'])} | {r['tokens']} | {compact} | {theirs} |")
    return "\n".join(lines + [""] + notes)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", action="append", choices=pages(), help="only this page (repeatable)")
    peer_arguments(parser)
    args = parser.parse_args()
    why = missing_apps()
    if why:
        raise SystemExit(why)
    names = args.page or pages()

    workdir, runtime = workspace()
    server = serve_folder(REALAPPS)
    base_url = f"http://127.0.0.1:{server.server_address[1]}/pages/"
    try:
        results = await tabsight_pages(runtime, args.chromium, base_url, names)
        if Path(args.playwright_mcp).is_file():
            try:
                playwright = await playwright_tokens(
                    args.playwright_mcp, args.chromium, workdir / "pw", base_url, names
                )
            except Exception as error:  # noqa: BLE001 -- the peer failing leaves its column empty
                playwright = {page: f"error: {describe(error)}" for page in names}
        else:
            playwright = {
                page: f"error: {args.playwright_mcp} not found; install the peers: {PEERS_INSTALL}" for page in names
            }
    finally:
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)

    print(table(results, playwright))
    for r in results.values():
        if "score" in r:
            print("\n" + report(r["score"]))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "realapps.json").write_text(
        json.dumps(
            {
                "targets": TARGETS,
                "token_estimate": f"text characters / {CHARS_PER_TOKEN} + image width x height / {PIXELS_PER_TOKEN}",
                "pages": {
                    page: (
                        {"error": r["error"]}
                        if "error" in r
                        else {
                            **r["score"].as_dict(),
                            "tabsight_tokens": r["tokens"],
                            "compact_tokens": r["compact_tokens"],
                        }
                    )
                    | {"playwright_snapshot_tokens": playwright.get(page)}
                    for page, r in results.items()
                },
            },
            indent=2,
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
