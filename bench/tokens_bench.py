"""What an annotated observe costs an agent, in tokens, in each of its forms.

    .venv/bin/python bench/tokens_bench.py [--save-baseline]

Tokens are counted as an agent's context pays them: text characters / 4, plus
width * height / 750 for each image (Anthropic's rule for images). Every call
goes through the official MCP SDK client to `python -m tabsight mcp` (embedded
headless Chromium, 1280x720 viewport), after one `interact({action:
"navigate"})`.

Pages: annotate_bench.py's grid of 100 interactive elements (the issue's
"100-element page"), and a few of tests/pages (a form, a list app, a dense
page, an agent's page). Forms: `observe({what:"page", annotate_screenshot:
true, max_annotations: 100})` as it is by default, then with each cheaper
argument: `annotation_format: "compact"`, `max_width: 640`, `page_text`.

`--save-baseline` writes the default form's figures to
bench/results/tokens-baseline.json (run it on the code before a change);
later runs report each form's tokens against that baseline's default, on the
same page. Results: a markdown table, and bench/results/tokens.json.
Targets (issue 15), on the 100-element page at the same image size: the
compact form <= 0.6x the baseline's tokens, the default <= 0.8x.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import shutil
from pathlib import Path

import anyio
from mcp import Client
from PIL import Image

from annotate_bench import grid_page
from common import CHROMIUM, Failed, describe, serve, tabsight_server, text_of, use_in_process, workspace

PAGES_DIR = Path(__file__).resolve().parent.parent / "tests" / "pages"
TEST_PAGES = ("form.html", "list-app.html", "dense.html", "agent.html")
GRID = "grid (100 elements)"
BASE = {"what": "page", "annotate_screenshot": True, "max_annotations": 100}
#: each form's arguments on top of BASE
FORMS = {
    "default (json)": {},
    "compact": {"annotation_format": "compact"},
    "compact, max_width 640": {"annotation_format": "compact", "max_width": 640},
    "compact + page_text 1500": {"annotation_format": "compact", "page_text": 1500},
}
#: the targets' ratios to the baseline's default, on the grid page
TARGETS = {"default (json)": 0.8, "compact": 0.6}
RESULTS = Path(__file__).parent / "results"
BASELINE = RESULTS / "tokens-baseline.json"


def weigh(result) -> dict:
    """The answer's text characters, its image's size, and the tokens of both."""
    if result.is_error:
        raise Failed(text_of(result) or "(isError, no text)")
    text = text_of(result)
    images = [Image.open(io.BytesIO(base64.b64decode(block.data))) for block in result.content if block.type == "image"]
    pixels = sum(image.width * image.height for image in images)
    return {
        "text_chars": len(text),
        "image": " + ".join(f"{image.width}x{image.height}" for image in images) or "none",
        "tokens": round(len(text) / 4 + pixels / 750),
        "text_tokens": round(len(text) / 4),
        "image_tokens": round(pixels / 750),
    }


async def measure(url_of: dict[str, str], forms: dict[str, dict], runtime: Path) -> dict[str, dict[str, dict]]:
    results: dict[str, dict[str, dict]] = {}
    async with Client(tabsight_server(runtime, CHROMIUM), read_timeout_seconds=60) as client:
        for page, url in url_of.items():
            navigated = await client.call_tool("interact", {"action": "navigate", "url": url})
            if navigated.is_error:
                raise Failed(f"navigate to {url}: {text_of(navigated)}")
            results[page] = {}
            for form, extra in forms.items():
                try:
                    results[page][form] = weigh(await client.call_tool("observe", BASE | extra))
                except Exception as error:  # noqa: BLE001 -- a form the code does not know yet is reported, not fatal
                    results[page][form] = {"error": describe(error)[:200]}
    return results


def table(results: dict[str, dict[str, dict]], baseline: dict[str, dict] | None) -> str:
    lines = [
        "| page | form | text chars | image | tokens | x baseline default |",
        "|---|---|---:|---|---:|---:|",
    ]
    for page, forms in results.items():
        before = (baseline or {}).get(page)
        for form, r in forms.items():
            if "error" in r:
                lines.append(f"| {page} | {form} | error: {r['error'][:80]} | | | |")
                continue
            ratio = f"{r['tokens'] / before['tokens']:.2f}" if before else ""
            target = TARGETS.get(form) if page == GRID else None
            if target and before:
                ratio += f" (target <= {target}: {'met' if r['tokens'] <= target * before['tokens'] else 'MISSED'})"
            lines.append(f"| {page} | {form} | {r['text_chars']} | {r['image']} | {r['tokens']} | {ratio} |")
    if baseline:
        lines.append(
            "\nbaseline (default form, before the change): "
            + ", ".join(
                f"{page} {r['text_chars']} chars + {r['image']} = {r['tokens']} tokens" for page, r in baseline.items()
            )
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--save-baseline", action="store_true", help=f"measure only the default form and write it to {BASELINE}"
    )
    args = parser.parse_args()

    workdir, runtime = workspace()
    use_in_process(runtime, CHROMIUM)
    html, _ = grid_page()
    (workdir / "grid.html").write_text(html)
    for name in TEST_PAGES:
        shutil.copy(PAGES_DIR / name, workdir / name)
    server = serve(workdir)
    root = f"http://127.0.0.1:{server.server_address[1]}"
    url_of = {GRID: f"{root}/grid.html"} | {name: f"{root}/{name}" for name in TEST_PAGES}
    forms = {"default (json)": {}} if args.save_baseline else FORMS
    try:
        results = await measure(url_of, forms, runtime)
    finally:
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)

    RESULTS.mkdir(exist_ok=True)
    if args.save_baseline:
        baseline = {page: forms["default (json)"] for page, forms in results.items()}
        BASELINE.write_text(json.dumps(baseline, indent=2))
        print(table(results, None))
        print(f"\nwritten to {BASELINE}")
        return
    baseline = json.loads(BASELINE.read_text()) if BASELINE.is_file() else None
    print(table(results, baseline))
    (RESULTS / "tokens.json").write_text(
        json.dumps(
            {
                "tokens": "text chars / 4 + image width * height / 750",
                "targets_on_grid": TARGETS,
                "baseline": baseline,
                "results": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
