"""The extension's folders import only what extension/README.md allows, and no folder goes unlisted.

The table after ``<!-- folders -->`` in ``extension/README.md`` names each folder of the extension, its job, and
the folders its scripts may import from; "nothing" marks the folders of classic scripts (injected into pages or
declared as content scripts), which cannot import at all, so an ``import`` or ``export`` there fails too. Every
static ``import``/``export ... from`` and literal ``import()`` of every script counts. The manifest and the page
library's loader are checked to load each classic script from its folder, so the table's "nothing" is true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "extension"

# import x from '...', import {a, b} from '...' (over several lines too), export * from '...', import '...'
STATIC = re.compile(
    r"""^(?:import|export)\s[\w\s{},*$]*?\bfrom\s*(['"])(.+?)\1|^import\s*(['"])(.+?)\3""", re.MULTILINE
)
DYNAMIC = re.compile(r"""\bimport\s*\(\s*(['"`])(.+?)\1""")
MODULE_SYNTAX = re.compile(r"^\s*(?:import|export)\b(?!\s*\()", re.MULTILINE)


def folders(readme: str) -> dict[str, set[str]]:
    """Folder -> the folders it may import from, from the README's table."""
    block = re.search(r"<!-- folders -->\n(.*?)(?:\n\n|\Z)", readme, re.DOTALL)
    assert block, "extension/README.md has no <!-- folders --> table"
    rows = [line.strip().strip("|").split("|") for line in block.group(1).splitlines()[2:]]  # past header and rule
    return {
        row[0].strip().strip("`").rstrip("/"): {name.rstrip("/") for name in re.findall(r"`([^`]+)`", row[-1])}
        for row in rows
    }


def imports(text: str) -> list[str]:
    found = [match.group(2) or match.group(4) for match in STATIC.finditer(text)]
    return found + [match.group(2) for match in DYNAMIC.finditer(text)]


def violations(extension: Path, table: dict[str, set[str]]) -> list[str]:
    root = extension.resolve()
    present = {path.relative_to(extension).as_posix() for path in extension.rglob("*") if path.is_dir()}
    found = [f"{folder}/ is in no row of extension/README.md's table" for folder in sorted(present - set(table))]
    found += [
        f"{folder}/ is in extension/README.md's table but not in the extension"
        for folder in sorted(set(table) - present)
    ]
    for path in sorted(extension.rglob("*.js")):
        name = path.relative_to(extension).as_posix()
        folder = path.parent.relative_to(extension).as_posix()
        if folder == ".":
            found.append(f"{name}: a script at the top; it goes in the folder of where it runs")
            continue
        allowed = table.get(folder)
        if allowed is None:
            continue  # its folder is reported above
        text = path.read_text()
        if not allowed and MODULE_SYNTAX.search(text):
            found.append(f"{name}: an import or export statement in {folder}/, whose classic scripts cannot import")
        for specifier in imports(text):
            target = (path.parent / specifier).resolve()
            if not specifier.startswith(("./", "../")) or not target.is_relative_to(root):
                found.append(f"{name} imports {specifier}: outside the extension, or not by a relative path")
            elif not target.is_file():
                found.append(f"{name} imports {specifier}, which is no file")
            elif (theirs := target.parent.relative_to(root).as_posix()) not in allowed:
                found.append(
                    f"{name} imports {target.relative_to(root).as_posix()}: {folder}/ may not import from {theirs}/"
                )
    return found


def test_every_import_goes_where_the_extension_readme_allows_and_every_folder_is_listed():
    assert violations(EXTENSION, folders((EXTENSION / "README.md").read_text())) == []


def test_each_classic_script_is_loaded_from_the_folder_of_where_it_runs():
    manifest = json.loads((EXTENSION / "manifest.json").read_text())
    assert manifest["background"]["service_worker"].startswith("service-worker/")
    declared = []
    for entry in manifest["content_scripts"]:
        world = "main-world" if entry.get("world") == "MAIN" else "isolated-world"
        assert all(name.startswith(f"content-scripts/{world}/") for name in entry["js"]), entry["js"]
        declared += entry["js"]
    assert sorted(declared) == sorted(
        path.relative_to(EXTENSION).as_posix() for path in (EXTENSION / "content-scripts").rglob("*.js")
    )
    # the page library: every part, injected by the service worker in the order of its LIBRARY
    loader = (EXTENSION / "service-worker" / "page-library-calls.js").read_text()
    parts = re.findall(r"'([\w-]+)'", re.search(r"const LIBRARY = \[(.*?)\]", loader, re.DOTALL).group(1))
    assert sorted(parts) == sorted(path.stem for path in (EXTENSION / "page-library").glob("*.js"))


def test_the_check_finds_a_forbidden_import_an_import_in_a_classic_script_and_an_unlisted_folder(tmp_path):
    for folder in ["worker/sub", "library", "stray"]:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "worker" / "main.js").write_text(
        "import {\n  a,\n  b,\n} from './sub/a.js';\nimport '../library/part.js';\nexport { c } from './gone.js';\n"
        "const later = () => import('./sub/a.js');\n"
    )
    (tmp_path / "worker" / "sub" / "a.js").write_text(
        "export const a = 1; // import x from '../main.js' in a comment\n"
    )
    (tmp_path / "library" / "part.js").write_text("(() => {\n  globalThis.x = 1;\n})();\nexport const y = 2;\n")
    (tmp_path / "top.js").write_text("")
    table = {"worker": {"worker", "worker/sub"}, "worker/sub": {"worker/sub"}, "library": set(), "gone": set()}
    found = violations(tmp_path, table)
    assert found == [
        "stray/ is in no row of extension/README.md's table",
        "gone/ is in extension/README.md's table but not in the extension",
        "library/part.js: an import or export statement in library/, whose classic scripts cannot import",
        "top.js: a script at the top; it goes in the folder of where it runs",
        "worker/main.js imports library/part.js: worker/ may not import from library/",
        "worker/main.js imports ./gone.js, which is no file",
    ]


def test_the_readme_table_reads_as_folder_and_allowed_folders():
    readme = (
        "Text.\n\n<!-- folders -->\n| Folder | Its job | May import from |\n| --- | --- | --- |\n"
        "| `a/` | does a | `a/`, `b/` |\n| `b/` | does b, not `a/` | nothing |\n\nMore text.\n"
    )
    assert folders(readme) == {"a": {"a", "b"}, "b": set()}
