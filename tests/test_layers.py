"""The package's layers import downward only, and no module imports itself in a circle.

The allowed directions are the table in docs/architecture.md
(the block after ``<!-- layers -->``): one row per layer, top to bottom; a
part may import the parts of rows below its own, never its own row's others
or a row above. Every import counts: module level, inside functions, and
under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "host" / "tabsight"


def layers(doc: str) -> list[list[str]]:
    block = re.search(r"<!-- layers -->\s*```text\n(.*?)```", doc, re.DOTALL)
    assert block, "docs/architecture.md has no <!-- layers --> table"
    return [line.split() for line in block.group(1).splitlines() if line.strip()]


def modules(package: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in known else base)
    return {target for target in targets if target in known and target != name}


def part(module: str) -> str:
    """The layer table's name for a module: its folder under the package, or its own name."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else "__init__"


def violations(graph: dict[str, set[str]], table: list[list[str]]) -> list[str]:
    rank = {name: row for row, names in enumerate(table) for name in names}
    found = [f"{module} is in no row of the layer table" for module in graph if part(module) not in rank]
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            mine, theirs = part(module), part(target)
            if mine != theirs and mine in rank and theirs in rank and rank[theirs] <= rank[mine]:
                found.append(f"{module} imports {target}: {theirs} is not below {mine}")
    return found + [f"import circle: {' -> '.join(circle)}" for circle in circles(graph)]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            members = []
            while True:
                member = stack.pop()
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_graph() -> dict[str, set[str]]:
    known = modules(PACKAGE)
    return {name: imports(name, path, set(known)) for name, path in known.items()}


def test_every_import_goes_down_the_documented_layers_and_none_circles():
    assert violations(package_graph(), layers((ROOT / "docs" / "architecture.md").read_text())) == []


def test_the_check_finds_an_upward_import_a_circle_and_an_unplaced_folder():
    table = [["tools"], ["browser"], ["errors"]]
    graph = {
        "tabsight.tools.observe": {"tabsight.browser.client"},
        "tabsight.browser.client": {"tabsight.errors", "tabsight.tools.base"},  # upward
        "tabsight.tools.base": {"tabsight.tools.observe"},
        "tabsight.errors": set(),
        "tabsight.extra.thing": set(),
    }
    found = violations(graph, table)
    assert "tabsight.browser.client imports tabsight.tools.base: tools is not below browser" in found
    assert "tabsight.extra.thing is in no row of the layer table" in found
    assert any(line.startswith("import circle:") and "tabsight.browser.client" in line for line in found)


def test_function_level_and_type_checking_imports_count(tmp_path):
    package = tmp_path / "tabsight"
    (package / "browser").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "browser" / "__init__.py").write_text("")
    (package / "tools.py").write_text("")
    (package / "browser" / "client.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..tools import thing\n"
        "def later():\n    from tabsight import tools\n"
    )
    known = modules(package)
    assert imports("tabsight.browser.client", known["tabsight.browser.client"], set(known)) == {"tabsight.tools"}
