"""The role-less clickables of each page as the ground truth reads them, for the hand check issue 30 asks for.

    .venv/bin/python bench/roleless_truth.py [--pages DIR --root DIR] [--realapps] [--page NAME ...]
        [--shots OUT] [--width 1280 --height 720]

For each page the second browser of tests/harness/axtree.py (no tabsight involved) reads
``AXBrowser.truth``: the interactive AX nodes and the role-less clickables (the module docstring
of axtree.py defines them). This prints each role-less clickable (box, tag, why, visible text)
and, with ``--shots OUT``, writes OUT/PAGE.png: the page's viewport with the role-less clickables
boxed in red (numbered as printed) and the interactive nodes in thin blue, to compare by eye.
The pages default to bench/corpus/pages served from bench/corpus; ``--realapps`` adds
tests/realapps/pages (its apps installed by tests/realapps/install.sh).

Hand check (tests/realapps/pages, 1280x720, the rules as they stand in axtree.py):

- todomvc: none. The todo labels (dblclick to edit) have no click-type listener or pointer
  cursor; the destroy buttons and the filters are interactive nodes already.
- (the other pages: see wide-before.md and the notes there; filled in below as checked)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import CHROMIUM
from harness.axtree import AXBrowser, Truth
from harness.realapps import PAGES as REALAPPS_PAGES
from harness.realapps import REALAPPS
from harness.servers import serve_folder
from PIL import Image, ImageDraw

CORPUS = Path(__file__).resolve().parent / "corpus"


def page_sets(args: argparse.Namespace) -> list[tuple[Path, Path]]:
    """(pages folder, served root) pairs to read."""
    sets = []
    pages = Path(args.pages) if args.pages else CORPUS / "pages"
    root = Path(args.root) if args.root else (CORPUS if not args.pages else pages)
    if pages.is_dir():
        sets.append((pages.resolve(), root.resolve()))
    if args.realapps:
        sets.append((REALAPPS_PAGES, REALAPPS))
    return sets


def draw(truth: Truth, out: Path) -> None:
    import io
    with Image.open(io.BytesIO(truth.screenshot)) as shot:
        image = shot.convert("RGB")
    pen = ImageDraw.Draw(image)
    for node in truth.interactive:
        b = node.bounds
        pen.rectangle([b.x, b.y, b.right, b.bottom], outline=(40, 90, 255), width=1)
    for number, clickable in enumerate(truth.roleless, 1):
        b = clickable.bounds
        pen.rectangle([b.x, b.y, b.right, b.bottom], outline=(230, 0, 0), width=3)
        pen.rectangle([b.x, b.y, b.x + 22, b.y + 14], fill=(230, 0, 0))
        pen.text((b.x + 2, b.y + 1), str(number), fill=(255, 255, 255))
    image.save(out)


def describe(truth: Truth) -> list[str]:
    return [f"  {n}. {c.tag} {c.bounds.as_dict()} why={','.join(c.why)} text={c.text[:60]!r}"
            + (f" hint={c.hint[:40]!r}" if c.hint else "") for n, c in enumerate(truth.roleless, 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", help="a folder of *.html pages (default: bench/corpus/pages)")
    parser.add_argument("--root", help="the folder served as the site's root (default: the pages' parent corpus)")
    parser.add_argument("--realapps", action="store_true", help="also tests/realapps/pages")
    parser.add_argument("--page", action="append", help="only this page (file name; repeatable)")
    parser.add_argument("--shots", help="write PAGE.png with the boxes drawn into this folder")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    shots = Path(args.shots) if args.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    with AXBrowser(args.chromium) as ax:
        for pages, root in page_sets(args):
            server = serve_folder(root)
            try:
                base = f"http://127.0.0.1:{server.server_address[1]}/{pages.relative_to(root).as_posix()}/"
                for path in sorted(pages.glob("*.html")):
                    if args.page and path.name not in args.page:
                        continue
                    try:
                        truth = ax.truth(base + path.name, {"width": args.width, "height": args.height},
                                         screenshot=bool(shots))
                    except Exception as error:  # noqa: BLE001 -- the other pages still run
                        print(f"{path.name}: error {type(error).__name__}: {error}")
                        continue
                    print(f"{path.name}: {len(truth.interactive)} interactive, {len(truth.roleless)} role-less")
                    print("\n".join(describe(truth)))
                    if shots:
                        draw(truth, shots / f"{path.stem}.png")
            finally:
                server.shutdown()


if __name__ == "__main__":
    main()
