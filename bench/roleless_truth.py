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

Hand check (1280x720; each page's list read beside its screenshot with the boxes drawn, on
tests/realapps/pages and on the corpus at /work/wt/corpus/bench/corpus as it stood, 26 pages).
What the first version of the rules found that was not a target, and the rule added for it:

- editors (Ace, CodeMirror): the editors' gutter and text surfaces have mousedown listeners; they
  are the editor the hidden textarea stands for (already an interactive node with the editor's
  box) -> a clickable mostly inside a shown interactive node's box (or label box) is that node.
- excalidraw: the "Library" trigger (pointer cursor) lies in the <label> of a hidden checkbox
  that Chromium lists (its label box is the trigger) -> the same rule.
- shoelace: the labels of sl-select and sl-radio-group (in their shadow roots) have click
  listeners (they focus the control) -> an element that names a node (label, aria-labelledby) is
  the control's, or its group's, not a target of its own.
- antd-admin, rac-files: table rows with a click listener were taken as lists of their cells
  -> a row's cells are not items, and a list that holds an interactive node is not expanded
  (those rows hold a checkbox and buttons: containers, not targets).
- mui-menu: MUI's invisible backdrop (1280x720, a click on it closes the menu) -> nothing covering
  half the viewport or more is a target (app roots, backdrops, drawing surfaces).
- primevue-table: every body cell (24 <td>) has a click listener, the table is not editable and
  does not select rows on click; quasar-kanban: the "bolt N" chips (not ``clickable``) have one
  too; element-plus-tree: the header of a column that does not sort -> a listener alone counts
  only on an element with a pointer (or grab, move) cursor or a tabindex.
- vaadin-orders: the month grid (<table>) listens for its days -> a table listening is replaced
  by its cells with text (the 44 days shown, which have a tabindex).

What those rules now drop that a user might click (accepted, noted here): Vaadin's date-picker
toggle (a <div> in its shadow root with a listener, default cursor, no tabindex) and its year
scroller's years; SortableJS's items (the lists listen for pointerdown, the items show no cursor:
a drag, not a click).

Kept after the check, as targets Chromium does not expose as interactive:

- realapps: swagger's "Parameters" tab (div.tab-item, click listener and pointer). None on the
  others (todomvc's labels only take dblclick; jsoneditor's rows delegate to the editor's root,
  which holds the fields).
- antd-admin: the sortable column headers (th, click and pointer) and the pagination items (li,
  1 px of them in the viewport: kept, as an interactive node in that place would be); antd-form:
  the two tag remove crosses in the Team select, and the options of its open dropdown (antd draws
  its options without a role; its accessible listbox is a separate hidden one); chakra-dashboard:
  the pagination ellipsis (pointer); element-plus-form and -tree: the switches' tracks
  (span.el-switch__core: the switch's own input is hidden and not hit-testable, so the track is
  what a user clicks), the date picker's days (td, pointer), the pager's numbers; fomantic-calendar:
  its calendar's days, month and arrows, its dropdown's items, and the checkbox and radio
  <label>s (Fomantic hides the input and toggles it from the label's click; the label does not
  name it); mui-datepicker: the 31 days (<button role="gridcell">: the role hides the button from
  the interactive roles); primevue-table: the sortable headers and the MultiSelect chips' remove
  icons; rac-files: the column headers (React Aria's press listeners, on "Actions" too, which does
  not sort: kept, the page does listen there and it takes the focus) and the folder tree's leaf
  rows (the rows with an expand button hold it and are containers); tldraw-board: the opacity
  slider's track; vaadin-orders: the calendar's days; vuetify-mail: the navigation and label
  list items (div.v-list-item--link).
- None on bulma-modal, carbon-shell, headlessui-combobox, mantine-dates, mantine-settings,
  mui-dialog, quasar-kanban, rac-datepicker, radix-dialog, radix-editor, tanstack-grid,
  uikit-dropdown, vuetify-dialog.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from common import CHROMIUM
from harness.axtree import AXBrowser, Truth
from harness.realapps import PAGES as REALAPPS_PAGES, REALAPPS
from harness.servers import serve_folder

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
    return [
        f"  {n}. {c.tag} {c.bounds.as_dict()} why={','.join(c.why)} text={c.text[:60]!r}"
        + (f" hint={c.hint[:40]!r}" if c.hint else "")
        for n, c in enumerate(truth.roleless, 1)
    ]


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
                        truth = ax.truth(
                            base + path.name, {"width": args.width, "height": args.height}, screenshot=bool(shots)
                        )
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
