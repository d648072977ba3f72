"""WebP for a 1280x720 screenshot: Pillow's encoder at each method against Chrome's own, in time, size and fidelity.

    .venv/bin/python bench/webp_bench.py [--repeats 5] [--chromium PATH]

On tabsight's embedded headless Chromium (in-process BrowserClient, private runtime folder), for each page:

- bench: the page bench/screenshot_bench.py captures (text, links, buttons on a gradient);
- text: a long article in small type, two columns;
- dashboard: AdminLTE's form page (tests/realapps/pages/adminlte.html, a real app's UI);
- photos: AdminLTE's four sample photographs, large (real photographs, the hardest case for a lossy encoder).

The last two need tests/realapps/install.sh (skipped without it). The tab's viewport is captured with
Page.captureScreenshot (through `execute`'s CDP steps, optimizeForSpeed as tabsight's captures ask) as PNG (the
reference: lossless), as JPEG quality 90 (what tabsight's frame source keeps for a WebP), and as WebP quality 80
(Chrome's encoder, what a fresh WebP capture asks for today). Each is timed as a round trip from the host
(attach, capture, base64 through native messaging, detach: the same for every format, so the differences are
the encoders'), `--repeats` times, formats interleaved.

Then Pillow (libwebp) encodes WebP quality 80 at method 0..6 from the PNG and from the JPEG, each timed
`--repeats` times (median; the source's decoding timed apart) in CPU time of the thread that encodes: on a
shared machine, what the other processes take is not counted (on an idle one, wall time is the same). Fidelity is measured against the PNG, the
pixels the page showed: mean absolute error per channel (0-255) and PSNR (dB) of the decoded image.

The last table puts a fresh WebP capture together both ways: Chrome's WebP round trip, against Chrome's JPEG 90
(or PNG) round trip plus the host's decoding and encoding at each method.

Results: printed, and bench/results/webp.json.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import math
import shutil
import statistics
import time
from pathlib import Path

import anyio
from PIL import Image, ImageChops, ImageStat

from common import CHROMIUM, use_in_process, workspace
from harness.realapps import REALAPPS, missing_apps
from harness.servers import PAGE, serve_folder
from tabsight import images

QUALITY = 80
#: what the frame source keeps for a WebP (extension/service-worker/frames.js WEBP_SOURCE_QUALITY)
JPEG_SOURCE_QUALITY = 90
METHODS = range(7)
CHROME_FORMATS = {
    "png": {"format": "png"},
    "jpeg90": {"format": "jpeg", "quality": JPEG_SOURCE_QUALITY},
    "chrome webp": {"format": "webp", "quality": QUALITY},
}

WORDS = (
    "the browser draws each frame of the page from its layers and tiles then encodes what the viewport shows "
    "so that an agent can read the text and see the layout of forms tables menus and images"
).split()


def article() -> str:
    paragraphs = []
    for n in range(60):
        words = [WORDS[(n * 7 + i * 3) % len(WORDS)] for i in range(60 + n % 25)]
        paragraphs.append(f"<p><b>{n}.</b> {' '.join(words).capitalize()}.</p>")
    return (
        "<!doctype html><title>article</title><body style='margin:16px;font:13px/1.35 serif;columns:2;"
        "column-gap:32px'><h1 style='column-span:all'>A long article in small type</h1>" + "".join(paragraphs)
    )


def photos() -> str:
    images = "".join(
        f"<img src='node_modules/admin-lte/dist/assets/img/{name}' style='width:630px;height:355px;"
        "object-fit:cover;margin:2px'>"
        for name in ("photo1.png", "photo2.png", "photo3.jpg", "photo4.jpg")
    )
    return f"<!doctype html><title>photos</title><body style='margin:0;line-height:0'>{images}"


def site(folder: Path) -> dict[str, str]:
    """The pages, written into ``folder`` (the realapps linked in when installed): name -> path."""
    (folder / "bench.html").write_text(PAGE)
    (folder / "text.html").write_text(article())
    pages = {"bench": "bench.html", "text": "text.html"}
    if missing_apps() is None:
        (folder / "node_modules").symlink_to(REALAPPS / "node_modules")
        (folder / "pages").symlink_to(REALAPPS / "pages")
        (folder / "photos.html").write_text(photos())
        pages.update(dashboard="pages/adminlte.html", photos="photos.html")
    return pages


def fidelity(reference: Image.Image, data: bytes) -> dict:
    """Mean absolute error per channel and PSNR of the encoded image against the reference."""
    with Image.open(io.BytesIO(data)) as img:
        difference = ImageChops.difference(reference, img.convert("RGB"))
    stat = ImageStat.Stat(difference)
    count = stat.count[0] * 3
    mse = sum(stat.sum2) / count
    return {"mae": round(sum(stat.sum) / count, 2), "psnr_db": round(10 * math.log10(255**2 / mse), 1) if mse else None}


def webp(img: Image.Image, method: int) -> bytes:
    out = io.BytesIO()
    img.save(out, "WEBP", quality=QUALITY, method=method)
    return out.getvalue()


def median_cpu_ms(work, repeats: int) -> tuple[float, object]:
    """The median CPU time of ``work`` in this thread (libwebp and libjpeg run in the caller's), and its result."""
    samples, result = [], None
    for _ in range(repeats):
        t0 = time.thread_time()
        result = work()
        samples.append((time.thread_time() - t0) * 1000)
    return round(statistics.median(samples), 1), result


def decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as img:
        return img.convert("RGB")


async def chrome_captures(browser, tab: int, repeats: int) -> dict[str, dict]:
    """Each format's median round trip and one capture of it."""
    samples: dict[str, list[float]] = {name: [] for name in CHROME_FORMATS}
    data: dict[str, bytes] = {}
    for _ in range(repeats + 1):  # the first round warms up
        for name, options in CHROME_FORMATS.items():
            step = {"method": "Page.captureScreenshot", "params": {**options, "optimizeForSpeed": True}}
            t0 = time.perf_counter()
            answer = await browser.execute(tab, None, [step], 10_000, max_chars=100_000_000)
            elapsed = (time.perf_counter() - t0) * 1000
            data[name] = base64.b64decode(answer["cdp"][0]["result"]["data"])
            samples[name].append(elapsed)
    return {
        name: {"round_trip_ms": round(statistics.median(times[1:]), 1), "data": data[name]}
        for name, times in samples.items()
    }


async def measure_page(browser, tab: int, url: str, repeats: int) -> dict:
    await browser.navigate(tab, url, timeout_ms=30_000)
    await anyio.sleep(1.0)  # fonts and images drawn
    chrome = await chrome_captures(browser, tab, repeats)
    reference = decoded(chrome["png"]["data"])
    assert reference.size == (1280, 720), reference.size
    result: dict = {"chrome": {}, "pillow": {}}
    for name, capture in chrome.items():
        result["chrome"][name] = {
            "round_trip_ms": capture["round_trip_ms"],
            "bytes": len(capture["data"]),
            **fidelity(reference, capture["data"]),
        }
    for source in ("png", "jpeg90"):
        raw = chrome[source]["data"]
        decode_ms, img = median_cpu_ms(lambda raw=raw: decoded(raw), repeats)
        rows = {}
        for method in METHODS:
            encode_ms, data = median_cpu_ms(lambda img=img, method=method: webp(img, method), repeats)
            rows[method] = {
                "decode_ms": decode_ms,
                "encode_ms": encode_ms,
                "bytes": len(data),
                **fidelity(reference, data),
            }
        result["pillow"][source] = rows
    return result


def tables(results: dict[str, dict]) -> str:
    lines = [
        "Chrome's encoders (Page.captureScreenshot round trip from the host):",
        "",
        "| page | format | round trip ms | bytes | MAE | PSNR dB |",
        "|---|---|---|---|---|---|",
    ]
    for page, r in results.items():
        for name, c in r["chrome"].items():
            lines.append(f"| {page} | {name} | {c['round_trip_ms']} | {c['bytes']:,} | {c['mae']} | {c['psnr_db']} |")
    lines += [
        "",
        f"Pillow WebP quality {QUALITY} (encode alone; decoding the source apart):",
        "",
        "| page | source | method | encode ms | bytes | MAE | PSNR dB |",
        "|---|---|---|---|---|---|---|",
    ]
    for page, r in results.items():
        for source, rows in r["pillow"].items():
            for method, p in rows.items():
                lines.append(
                    f"| {page} | {source} (decode {p['decode_ms']} ms) | {method} | {p['encode_ms']} | "
                    f"{p['bytes']:,} | {p['mae']} | {p['psnr_db']} |"
                )
    lines += [
        "",
        "A fresh WebP capture, ms: Chrome's WebP, or Chrome's JPEG 90 / PNG then the host's decode + encode:",
        "",
        "| page | Chrome WebP | "
        + " | ".join(f"JPEG 90 + m{m}" for m in METHODS[:3])
        + " | "
        + " | ".join(f"PNG + m{m}" for m in METHODS[:3])
        + " |",
        "|---" * 8 + "|",
    ]
    for page, r in results.items():
        cells = [r["chrome"]["chrome webp"]["round_trip_ms"]]
        for source in ("jpeg90", "png"):
            for method in METHODS[:3]:
                p = r["pillow"][source][method]
                cells.append(round(r["chrome"][source]["round_trip_ms"] + p["decode_ms"] + p["encode_ms"], 1))
        lines.append(f"| {page} | " + " | ".join(str(cell) for cell in cells) + " |")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()

    workdir, runtime = workspace()
    use_in_process(runtime, args.chromium)
    from tabsight.browser.connection import BrowserConnection

    pages = site(workdir)
    server = serve_folder(workdir)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    browsers = BrowserConnection("bench")
    results = {}
    try:
        browser, tab = await browsers.tab()
        for name, path in pages.items():
            results[name] = await measure_page(browser, tab, base + path, args.repeats)
    finally:
        await browsers.aclose()
        await browsers.wait_for_end()
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    skipped = [] if missing_apps() is None else [f"dashboard and photos skipped: {missing_apps()}"]
    print(tables(results), *skipped, sep="\n")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "webp.json").write_text(
        json.dumps(
            {
                "repeats": args.repeats,
                "quality": QUALITY,
                "pages": results,
                "tabsight_method": images.WEBP_METHOD,
                "skipped": skipped,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
