"""How small the annotated look can be and stay legible: OCR's words on tabsight's annotated screenshot at each
width, against a full-size plain screenshot of the same page (bench/legibility.py defines the measure).

    flock /tmp/browser.lock .venv/bin/python bench/legibility_bench.py --capture-only [--shots DIR]
    .venv/bin/python bench/legibility_bench.py --from-shots [--shots DIR] [--jobs 2]
    # or both in one run (the lock then covers the OCR too):
    flock /tmp/browser.lock .venv/bin/python bench/legibility_bench.py

Pages: tests/realapps/pages (todomvc, swagger, jsoneditor, shoelace, bootstrap, adminlte), every
tests/realapps/unseen/*.html, and ten pages of bench/corpus/pages (CORPUS below), served as static files on
127.0.0.1 (tests/realapps/install.sh and bench/corpus/install.sh make them). Through the official MCP SDK client
against `python -m tabsight mcp` (embedded headless Chromium, 1280x720, fresh private runtime folder), for each
page: `interact navigate`, a wait until the page is quiet (tests/harness/axtree.py QUIET_SCRIPT), then

- `screenshot({format:"png"})`: the full-size plain screenshot, lossless, the reference;
- `screenshot({format:"jpeg", quality:90})`: the capture an annotated look is drawn on (ENCODINGS
  "annotated_capture"), for the encoding study below;
- `observe({what:"page", annotate_screenshot:true, max_width:W})` for each W of WIDTHS (0: no max_width, the
  default look): the looks, as an agent gets them (default max_annotations, JPEG quality 80 4:4:4 today).

Captures are written to --shots (default bench/results/legibility-shots): the browser phase and the OCR phase
can run apart, the browser one under the machine's browser lock, the long OCR one without it.

Legibility per page and width: legibility.Reference.read(full).legibility(look), i.e. legibility.legibility(full, look):
the full screenshot's words that OCR still reads in the look, line by line (bench/legibility.py says why line by
line, and how the images are prepared); and, harsher, the same share from one whole-image OCR pass over each
(Reference.whole_legibility). Reported as markdown tables (pages by width, then mean, min and how many pages keep
>= 90 % per width) and the image tokens per width (width x height / 750).

Encoding study (--encoding-widths, default 1280, 960, 768, 640): the look is drawn again offline, exactly as
observe draws it (tabsight.annotate.draw on the JPEG 90 capture, with the annotations and viewport observe
returned, shrunk to the width's size), and encoded in each of ENCODING_VARIANTS: PNG (lossless: what the
downscale and the badges alone lose), JPEG at qualities 60/80/90 with 4:4:4 chroma (today: 80), JPEG 80 with
4:2:0, WebP 60/80/90 (method 0, as images.encode does). A control row: the full screenshot shrunk to the width with
no badges, as PNG (what the downscale alone loses). The offline JPEG 80 4:4:4 is checked against observe's own look
(mean absolute pixel difference, reported). Mean/min legibility and mean size per variant and width.

The default look (width 0, "default" in the tables): ``observe`` without max_width, as an agent gets it, of the
part of the viewport with content (``page.picture``) within the token budget; it is read placed where that part
is, on white (``in_viewport``), so that text it left out counts as lost.

Faster runs, to compare drawings: ``--widths 960,1024`` captures and reads the looks at those widths only (and the
encoding study's); ``--offline``
draws them anew with this working tree's tabsight.annotate (as observe would today, encoded as ENCODINGS
"annotated") instead of reading the captured look-W.jpg files; ``--lines-only`` skips the whole-image reading.
With ``--encoding-widths ''`` too, one width of every page is one look each.

Results: printed, and bench/results/legibility.json. OCR results are cached in the shots folder by image hash,
so a second --from-shots run only OCRs what changed.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import shutil
import statistics
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import anyio
from mcp import Client
from PIL import Image, ImageChops, ImageStat

from common import CHROMIUM, describe, tabsight_server, workspace
from harness.realapps import REALAPPS, UNSEEN, answer, load, missing_bundles
from harness.servers import serve_folder
from legibility import MIN_CONFIDENCE, OCR_SCALE, VERSION, Reference

BENCH = Path(__file__).resolve().parent
CORPUS_DIR = BENCH / "corpus"
RESULTS = BENCH / "results"
DEFAULT_SHOTS = RESULTS / "legibility-shots"

#: the look's widths: 1280 is today's default (the tab's own width)
#: the default look (no max_width: the content's region, within the token budget), in tables as "default"
DEFAULT = 0
WIDTHS = (DEFAULT, 1280, 1024, 960, 896, 832, 768, 640)
REALAPP_PAGES = ("todomvc", "swagger", "jsoneditor", "shoelace", "bootstrap", "adminlte")
#: ten corpus pages, of different libraries and kinds (dense tables, menus, dialogs, dashboards)
CORPUS = (
    "antd-admin",
    "mui-dialog",
    "mantine-settings",
    "radix-editor",
    "chakra-dashboard",
    "tanstack-grid",
    "vuetify-mail",
    "element-plus-tree",
    "primevue-table",
    "carbon-shell",
)
PIXELS_PER_TOKEN = 750
#: the legibility a width must keep
THRESHOLD = 0.9


@dataclass(frozen=True)
class Variant:
    """One way to encode the look for the encoding study (Pillow's save options)."""

    name: str
    format: str
    options: dict


ENCODING_VARIANTS = (
    Variant("png", "PNG", {}),
    Variant("jpeg60 444", "JPEG", {"quality": 60, "subsampling": 0}),
    Variant("jpeg80 444 (today)", "JPEG", {"quality": 80, "subsampling": 0}),
    Variant("jpeg90 444", "JPEG", {"quality": 90, "subsampling": 0}),
    Variant("jpeg80 420", "JPEG", {"quality": 80, "subsampling": 2}),
    Variant("webp60", "WEBP", {"quality": 60, "method": 0}),
    Variant("webp80", "WEBP", {"quality": 80, "method": 0}),
    Variant("webp90", "WEBP", {"quality": 90, "method": 0}),
)
TODAY = "jpeg80 444 (today)"
#: the control: the full screenshot shrunk, no badges, lossless
PLAIN = "plain png, no badges"


def page_urls(realapps_base: str, corpus_base: str) -> dict[str, str]:
    """Each page's name in the table and its URL."""
    urls = {name: f"{realapps_base}pages/{name}.html" for name in REALAPP_PAGES}
    urls |= {f"unseen/{path.stem}": f"{realapps_base}unseen/{path.name}" for path in sorted(UNSEEN.glob("*.html"))}
    urls |= {f"corpus/{name}": f"{corpus_base}pages/{name}.html" for name in CORPUS}
    return urls


def folder(shots: Path, page: str) -> Path:
    return shots / page.replace("/", "__")


def image_block(result) -> bytes:
    if result.is_error:
        answer(result)  # raises Failed with the error's text
    block = next((b for b in result.content if b.type == "image"), None)
    if block is None:
        raise RuntimeError("no image in the answer")
    return base64.b64decode(block.data)


async def capture_page(client: Client, url: str, where: Path, widths: tuple[int, ...]) -> dict:
    """The page's captures, written to ``where``: full.png, capture.jpg, look-W.jpg; and what observe said."""
    await load(client, url)
    where.mkdir(parents=True, exist_ok=True)
    full = image_block(await client.call_tool("screenshot", {"format": "png"}))
    (where / "full.png").write_bytes(full)
    capture = image_block(await client.call_tool("screenshot", {"format": "jpeg", "quality": 90}))
    (where / "capture.jpg").write_bytes(capture)
    meta: dict = {"url": url, "looks": {}}
    for width in widths:
        arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
        result = await client.call_tool("observe", arguments | ({"max_width": width} if width else {}))
        look = image_block(result)
        (where / f"look-{width}.jpg").write_bytes(look)
        found = answer(result)
        with Image.open(io.BytesIO(look)) as img:
            meta["looks"][str(width)] = {"size": list(img.size), "bytes": len(look)}
        if "picture" in found["page"]:
            meta["looks"][str(width)]["picture"] = found["page"]["picture"]
        if "annotations" not in meta:
            meta["viewport"] = found["page"]["viewport"]
            meta["annotations"] = [{"label": a["label"], "bounds": a["bounds"]} for a in found["annotations"]]
    (where / "meta.json").write_text(json.dumps(meta, indent=1))
    return meta


async def capture(shots: Path, chromium: str, widths: tuple[int, ...], only: list[str] | None) -> dict[str, str]:
    """Every page's captures; returns the pages that failed, with why."""
    workdir, runtime = workspace()
    realapps = serve_folder(REALAPPS)
    corpus = serve_folder(CORPUS_DIR)
    failed: dict[str, str] = {}
    try:
        urls = page_urls(
            f"http://127.0.0.1:{realapps.server_address[1]}/", f"http://127.0.0.1:{corpus.server_address[1]}/"
        )
        async with Client(tabsight_server(runtime, chromium, linger=0.5), read_timeout_seconds=90) as client:
            for page, url in urls.items():
                if only and page not in only:
                    continue
                started = time.monotonic()
                try:
                    await capture_page(client, url, folder(shots, page), widths)
                    print(f"captured {page} in {time.monotonic() - started:.1f} s", file=sys.stderr)
                except Exception as error:  # noqa: BLE001 -- reported, the other pages still run
                    failed[page] = describe(error)
                    print(f"failed {page}: {failed[page][:300]}", file=sys.stderr)
    finally:
        realapps.shutdown()
        corpus.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    return failed


# -- the OCR phase ----------------------------------------------------------------------------


class Cache:
    """Readings kept in a JSON file: each page's Reference, and each look's result, by image hashes and the
    readings' VERSION."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: dict[str, dict] = json.loads(path.read_text()) if path.is_file() else {}
        self.lock = threading.Lock()

    @staticmethod
    def key(*parts: bytes | str) -> str:
        return "/".join([VERSION] + [p if isinstance(p, str) else hashlib.sha256(p).hexdigest()[:20] for p in parts])

    def get_or(self, key: str, make) -> dict:
        with self.lock:
            if key in self.found:
                return self.found[key]
        made = make()
        with self.lock:
            self.found[key] = made
        return made

    def save(self) -> None:
        with self.lock:
            self.path.write_text(json.dumps(self.found))


def offline_jpeg(where: Path, meta: dict, width: int) -> tuple[bytes, dict | None]:
    """The look at ``width`` drawn by this working tree's tabsight.annotate and encoded as observe encodes it,
    and the region it pictures (``offline_look``)."""
    from tabsight.images import ENCODINGS

    encoding = ENCODINGS["annotated"]
    out = io.BytesIO()
    picture, framed = offline_look(where, meta, width)
    picture.save(out, "JPEG", quality=encoding.quality, **encoding.options)
    return out.getvalue(), framed


def offline_look(where: Path, meta: dict, width: int) -> tuple[Image.Image, dict | None]:
    """The look at ``width`` (DEFAULT: the default look, its content's region within the token budget) drawn
    as observe draws it (an RGB image, not encoded yet), and the region it pictures as observe's page.picture
    says it (None: the whole viewport)."""
    from tabsight import annotate, vision

    def at_width(w: int, h: int) -> tuple[int, int]:
        fit = min(1.0, width / w)
        return max(1, round(w * fit)), max(1, round(h * fit))

    picture, region = annotate.draw_look(
        annotate.decode((where / "capture.jpg").read_bytes()),
        meta["annotations"],
        meta["viewport"]["width"],
        (lambda w, h: vision.look_size(w, h, vision.DEFAULT)) if width == DEFAULT else at_width,
        crop=width == DEFAULT,
    )
    framed = None if region is None else {"x": region.x, "y": region.y, "width": region.width, "height": region.height}
    return picture, framed


def in_viewport(look: bytes, meta: dict, region: dict | None) -> bytes:
    """A look of a region of the viewport (the default look of a page with blank margins) placed where that
    region is, on white, at the look's scale: the full screenshot's text lines are looked for where they are.
    Text the region left out is lost, as it should be."""
    if region is None:
        return look
    with Image.open(io.BytesIO(look)) as img:
        scale = img.width / region["width"]
        viewport = meta["viewport"]
        canvas = Image.new("RGB", (round(viewport["width"] * scale), round(viewport["height"] * scale)), "white")
        canvas.paste(img.convert("RGB"), (round(region["x"] * scale), round(region["y"] * scale)))
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()


def plain(full: bytes, width: int) -> bytes:
    """The full screenshot shrunk to ``width`` as observe shrinks it (Lanczos), no badges, PNG: the control."""
    with Image.open(io.BytesIO(full)) as img:
        small = img.convert("RGB").resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def encoded(picture: Image.Image, variant: Variant) -> bytes:
    out = io.BytesIO()
    picture.save(out, variant.format, **variant.options)
    return out.getvalue()


def mean_abs_difference(a: bytes, b: bytes) -> float | None:
    with Image.open(io.BytesIO(a)) as x, Image.open(io.BytesIO(b)) as y:
        if x.size != y.size:
            return None
        difference = ImageChops.difference(x.convert("RGB"), y.convert("RGB"))
        return round(statistics.fmean(ImageStat.Stat(difference).mean), 3)


def analyse(
    shots: Path,
    widths: tuple[int, ...],
    encoding_widths: tuple[int, ...],
    workers: int,
    offline: bool = False,
    whole: bool = True,
    only: list[str] | None = None,
) -> dict:
    cache = Cache(shots / "ocr-cache.json")
    pages = {
        where.name.replace("__", "/"): (where, json.loads((where / "meta.json").read_text()))
        for where in sorted(shots.iterdir())
        if (where / "meta.json").is_file() and (not only or where.name.replace("__", "/") in only)
    }
    fulls = {page: (where / "full.png").read_bytes() for page, (where, _) in pages.items()}
    started = time.monotonic()

    def reference(page: str) -> Reference:
        full = fulls[page]
        return Reference.load(cache.get_or(Cache.key("reference", full), lambda: Reference.read(full).dump()))

    with ThreadPoolExecutor(workers) as pool:
        references = dict(zip(pages, pool.map(reference, pages)))
    cache.save()
    print(f"read {len(references)} full screenshots in {time.monotonic() - started:.0f} s", file=sys.stderr)

    # every look to read: (page, kind, width, bytes, whole too)
    jobs: list[tuple[str, str, int, bytes, bool]] = []
    sizes: dict[tuple[str, str, int], int] = {}
    checks: dict[str, dict[str, float | None]] = {}
    looks: dict[tuple[str, int], dict] = {}
    for page, (where, meta) in pages.items():
        for width in widths:
            look = where / f"look-{width}.jpg"
            if offline:
                data, region = offline_jpeg(where, meta, width)
            elif look.is_file():
                data = look.read_bytes()
                region = meta["looks"].get(str(width), {}).get("picture")
            else:
                continue
            with Image.open(io.BytesIO(data)) as img:
                looks[(page, width)] = {"size": list(img.size), "bytes": len(data)}
            data = in_viewport(data, meta, region)
            jobs.append((page, "observe", width, data, whole))
        checks[page] = {}
        for width in encoding_widths:
            data = plain(fulls[page], width)
            sizes[(page, PLAIN, width)] = len(data)
            jobs.append((page, PLAIN, width, data, False))
            picture, _ = offline_look(where, meta, width)
            for variant in ENCODING_VARIANTS:
                data = encoded(picture, variant)
                sizes[(page, variant.name, width)] = len(data)
                jobs.append((page, variant.name, width, data, False))
                if variant.name == TODAY and (where / f"look-{width}.jpg").is_file():
                    checks[page][str(width)] = mean_abs_difference(data, (where / f"look-{width}.jpg").read_bytes())

    def read(job: tuple[str, str, int, bytes, bool]) -> dict:
        page, _, _, data, whole = job
        ref = references[page]

        def make() -> dict:
            hits, lost = ref.recovered(data)
            found = {"hits": hits, "total": ref.total, "lost": dict(lost)}
            if whole:
                found["whole"] = ref.whole_legibility(data)
            return found

        return cache.get_or(Cache.key("look", fulls[page], data, "whole" if whole else "lines"), make)

    results = []
    with ThreadPoolExecutor(workers) as pool:
        for n, found in enumerate(pool.map(read, jobs), 1):
            results.append(found)
            if n % 25 == 0:
                cache.save()
                print(f"  {n}/{len(jobs)} looks read, {time.monotonic() - started:.0f} s", file=sys.stderr)
    cache.save()

    result: dict = {"pages": {}, "encodings": {}, "offline_vs_observe_mean_abs_diff": checks}
    for page, (_, meta) in pages.items():
        ref = references[page]
        result["pages"][page] = {
            "url": meta["url"],
            "lines": len(ref.lines),
            "words": ref.total,
            "whole_image_words": sum(ref.whole.values()),
            "legibility": {},
            "whole_image_legibility": {},
            "sizes": {},
            "bytes": {},
            "lost": {},
        }
    for (page, kind, width, _, _), found in zip(jobs, results):
        share_ = found["hits"] / found["total"] if found["total"] else 1.0
        if kind == "observe":
            row = result["pages"][page]
            look = looks[(page, width)]
            row["legibility"][str(width)] = round(share_, 4)
            if "whole" in found:
                row["whole_image_legibility"][str(width)] = round(found["whole"], 4)
            row["sizes"][str(width)] = look["size"]
            row["bytes"][str(width)] = look["bytes"]
            row["lost"][str(width)] = dict(Counter(found["lost"]).most_common(20))
        else:
            cell = result["encodings"].setdefault(kind, {}).setdefault(str(width), {"pages": {}, "bytes": {}})
            cell["pages"][page] = round(share_, 4)
            cell["bytes"][page] = sizes[(page, kind, width)]
    return result


def summary(values: list[float]) -> tuple[float, float]:
    return (statistics.fmean(values), min(values)) if values else (float("nan"), float("nan"))


def column(width: int) -> str:
    return "default" if width == DEFAULT else str(width)


def width_table(pages: dict, widths: tuple[int, ...], field: str, words: str) -> list[str]:
    """Pages by width for one measure (``field`` of each page's row), then mean, min and pages at >= 90 %."""
    lines = ["| page | words | " + " | ".join(column(w) for w in widths) + " |", "|---|---:|" + "---:|" * len(widths)]
    for page, row in pages.items():
        cells = [f"{row[field][str(w)]:.0%}" if str(w) in row[field] else "" for w in widths]
        lines.append(f"| {page} | {row[words]} | " + " | ".join(cells) + " |")
    per_width = {w: [row[field][str(w)] for row in pages.values() if str(w) in row[field]] for w in widths}
    stats = {w: summary(v) for w, v in per_width.items()}
    lines.append("| **mean** | | " + " | ".join(f"**{stats[w][0]:.1%}**" for w in widths) + " |")
    lines.append("| **min** | | " + " | ".join(f"{stats[w][1]:.0%}" for w in widths) + " |")
    lines.append(
        "| pages ≥ 90 % | | "
        + " | ".join(f"{sum(v >= THRESHOLD for v in per_width[w])}/{len(per_width[w])}" for w in widths)
        + " |"
    )
    return lines


def relative(pages: dict, widths: tuple[int, ...]) -> dict:
    """Each page's legibility at each width over its legibility at the widest (today's look)."""
    widest = str(max(widths))  # (the default look's region is at most the viewport: never the widest)
    return {
        page: {
            "words": row["words"],
            "legibility": {
                w: value / row["legibility"][widest]
                for w, value in row["legibility"].items()
                if row["legibility"][widest]
            },
        }
        for page, row in pages.items()
        if widest in row["legibility"]
    }


def tables(result: dict, widths: tuple[int, ...]) -> str:
    pages = result["pages"]
    cells = []
    for w in widths:
        sizes = [row["sizes"][str(w)] for row in pages.values() if str(w) in row["sizes"]]
        if not sizes:
            cells.append("")
        elif w == DEFAULT:  # a size per page: their mean
            cells.append(f"{statistics.fmean(x * y for x, y in sizes) / PIXELS_PER_TOKEN:.0f} (mean)")
        else:
            cells.append(f"{round(sizes[0][0] * sizes[0][1] / PIXELS_PER_TOKEN)} ({sizes[0][0]}x{sizes[0][1]})")
    tokens = " | ".join(cells)
    out = [
        "## Legibility of the annotated look by width (share of the full screenshot's words, line by line)",
        "",
        *width_table(pages, widths, "legibility", "words"),
        f"| image tokens | | {tokens} |",
        "",
        "## Kept of today's look: legibility at the width / legibility at 1280 (the downscale's own cost)",
        "",
        *width_table(relative(pages, widths), widths, "legibility", "words"),
    ]
    if any(row["whole_image_legibility"] for row in pages.values()):
        out += [
            "",
            "## The same, whole-image OCR (one pass; tesseract loses boxed words, so harsher)",
            "",
            *width_table(pages, widths, "whole_image_legibility", "whole_image_words"),
        ]
    encodings = result["encodings"]
    if PLAIN in encodings:
        control = {
            page: {"words": row["words"], "legibility": {w: c["pages"][page] for w, c in encodings[PLAIN].items()}}
            for page, row in pages.items()
        }
        control_widths = tuple(sorted((int(w) for w in encodings[PLAIN]), reverse=True))
        out += [
            "",
            "## Control: the full screenshot shrunk to the width, no badges, PNG (the downscale alone)",
            "",
            *width_table(control, control_widths, "legibility", "words"),
        ]
    if encodings:
        enc_widths = sorted({int(w) for v in encodings.values() for w in v}, reverse=True)
        out += [
            "",
            "## Encoding of the look (drawn offline as observe draws it): mean legibility / min / mean KB",
            "",
            "| encoding | " + " | ".join(str(w) for w in enc_widths) + " |",
            "|---|" + "---:|" * len(enc_widths),
        ]
        for name, by_width in encodings.items():
            cells = []
            for w in enc_widths:
                cell = by_width.get(str(w))
                if not cell:
                    cells.append("")
                    continue
                mean, low = summary(list(cell["pages"].values()))
                kb = statistics.fmean(cell["bytes"].values()) / 1024
                cells.append(f"{mean:.1%} / {low:.0%} / {kb:.0f}")
            out.append(f"| {name} | " + " | ".join(cells) + " |")
        diffs = [d for by_width in result["offline_vs_observe_mean_abs_diff"].values() for d in by_width.values()]
        diffs = [d for d in diffs if d is not None]
        if diffs:
            out += [
                "",
                "offline JPEG 80 4:4:4 against observe's own look: mean absolute pixel difference "
                f"{statistics.fmean(diffs):.2f} (max {max(diffs):.2f}) of 255",
            ]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shots", type=Path, default=DEFAULT_SHOTS, help="where the captures are written/read")
    phase = parser.add_mutually_exclusive_group()
    phase.add_argument("--capture-only", action="store_true", help="only the browser phase")
    phase.add_argument("--from-shots", action="store_true", help="only the OCR phase, on captures made before")
    parser.add_argument("--page", action="append", help="only this page (as the table names it; repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="tesseract processes at a time")
    parser.add_argument(
        "--encoding-widths",
        default="1280,960,768,640",
        help="widths of the encoding study, comma-separated ('' for none)",
    )
    parser.add_argument(
        "--widths", default=",".join(str(w) for w in WIDTHS), help="the looks' widths to read, comma-separated"
    )
    parser.add_argument(
        "--offline", action="store_true", help="draw the looks with this tree's tabsight.annotate, not observe's files"
    )
    parser.add_argument("--lines-only", action="store_true", help="no whole-image reading of the looks")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    encoding_widths = tuple(int(w) for w in args.encoding_widths.split(",") if w.strip())
    widths = tuple(int(w) for w in args.widths.split(",") if w.strip())

    failed: dict[str, str] = {}
    if not args.from_shots:
        why = missing_bundles()
        if why:
            raise SystemExit(why)
        if not (CORPUS_DIR / "node_modules").exists():
            raise SystemExit(f"{CORPUS_DIR / 'node_modules'} is missing: run bench/corpus/install.sh")
        args.shots.mkdir(parents=True, exist_ok=True)
        failed = anyio.run(
            capture, args.shots, args.chromium, tuple(sorted(set(widths) | set(encoding_widths))), args.page
        )
        if args.capture_only:
            for page, why in failed.items():
                print(f"failed {page}: {why[:500]}")
            return
    result = analyse(
        args.shots,
        widths,
        encoding_widths,
        args.jobs,
        args.offline,
        not args.lines_only,
        args.page if args.from_shots else None,
    )
    result["failed"] = failed
    result["method"] = {
        "readings": VERSION,
        "ocr": f"tesseract eng, words with confidence >= {MIN_CONFIDENCE}, every image Lanczos-resized to "
        f"{OCR_SCALE}x the full screenshot's width and sharpened (bench/legibility.py)",
        "legibility": "per text line of the full screenshot, multiset intersection of the look's words with the "
        "full's, summed / the full's word count",
        "widths": list(widths),
        "looks": "drawn offline by this tree's tabsight.annotate" if args.offline else "observe's own",
    }
    print(tables(result, widths))
    for page, why in failed.items():
        print(f"\nfailed {page}: {why[:500]}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "legibility.json").write_text(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
