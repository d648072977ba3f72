"""docs/architecture.md lists every folder of the Python package and of the extension, and no folder that is gone.

The list between ``<!-- folders -->`` and ``<!-- /folders -->`` has a line per folder, ``- `path/`: its job``,
the path from the repository's root. Every folder under ``host/tabsight/`` and ``extension/`` (themselves
included) counts, however deep, except ``__pycache__`` and ``node_modules`` and what is under them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TREES = ("host/tabsight", "extension")
IGNORED = {"__pycache__", "node_modules"}


def listed(doc: str) -> list[str]:
    """The folders the block names, in its order, without their trailing slash."""
    block = re.search(r"<!-- folders -->\n(.*?)<!-- /folders -->", doc, re.DOTALL)
    assert block, "docs/architecture.md has no <!-- folders --> ... <!-- /folders --> block"
    found = []
    for line in block.group(1).splitlines():
        if not line.strip():
            continue
        row = re.match(r"- `([^`]+)/`: \S", line)
        assert row, f"not a `- `folder/`: its job` line in docs/architecture.md's folder list: {line!r}"
        found.append(row.group(1))
    return found


def on_disk(root: Path, trees: tuple[str, ...] = TREES) -> set[str]:
    found = set()
    for tree in trees:
        top = root / tree
        found.add(tree)
        for path in top.rglob("*"):
            relative = path.relative_to(root)
            if path.is_dir() and not IGNORED & set(relative.parts):
                found.add(relative.as_posix())
    return found


def violations(present: set[str], names: list[str]) -> list[str]:
    found = [
        f"{folder}/ is in no line of docs/architecture.md's folder list" for folder in sorted(present - set(names))
    ]
    found += [
        f"{folder}/ is in docs/architecture.md's folder list but not on disk" for folder in sorted(set(names) - present)
    ]
    found += [f"{folder}/ is listed twice" for folder in sorted({name for name in names if names.count(name) > 1})]
    return found


def test_architecture_doc_lists_every_folder_and_none_that_is_gone():
    assert violations(on_disk(ROOT), listed(DOC.read_text())) == []


def test_the_check_finds_an_unlisted_folder_a_gone_one_and_ignores_caches(tmp_path: Path):
    for folder in ["host/tabsight/tools/new", "host/tabsight/__pycache__", "extension/act", "extension/node_modules/x"]:
        (tmp_path / folder).mkdir(parents=True)
    doc = (
        "Text.\n\n<!-- folders -->\n- `host/tabsight/`: the package.\n- `host/tabsight/tools/`: the tools.\n"
        "- `extension/`: the extension.\n- `extension/gone/`: no more.\n<!-- /folders -->\n"
    )
    names = listed(doc)
    assert names == ["host/tabsight", "host/tabsight/tools", "extension", "extension/gone"]
    assert violations(on_disk(tmp_path), names) == [
        "extension/act/ is in no line of docs/architecture.md's folder list",
        "host/tabsight/tools/new/ is in no line of docs/architecture.md's folder list",
        "extension/gone/ is in docs/architecture.md's folder list but not on disk",
    ]
