"""docs/tools.md, written from the tools themselves: each tool's description and detail, its modes' rows, and its
arguments (a nested object's fields too) as the documented JSON schema gives them: what clients receive, each
description followed by the detail clients are not sent (``Tool.documented``), a string's length limits too.
``python -m tabsight.tools.reference > docs/tools.md`` renews it; tests/test_modes.py fails when the committed file
differs."""

from __future__ import annotations

import json
from typing import Any

from . import TOOLS
from .base import Tool
from .modes import OneOf

HEADER = (
    "# Tool reference\n\n"
    "Generated from the tool definitions (`host/tabsight/tools/`) by `python -m tabsight.tools.reference > "
    "docs/tools.md`; do not edit by hand.\n"
)


def render() -> str:
    parts = [HEADER, "\n".join(f"- [{name}](#{name})" for name in TOOLS) + "\n"]
    parts += [_tool(tool) for tool in TOOLS.values()]
    return "\n".join(parts)


def _tool(tool: Tool) -> str:
    lines = [f"## {tool.name}", "", _cell(tool.text, table=False), ""]
    if tool.detail:
        lines += [tool.detail, ""]
    lines.append(f"Read-only: {'yes' if tool.is_read_only else 'no'}.")
    lines.append("")
    schema = tool.documented()
    properties, required = schema["properties"], set(schema.get("required", ()))
    if tool.modes:
        groups = tool.params.groups
        lines += [
            f"| {tool.discriminator} | what it does | needs | also takes | acts on the page |",
            "|---|---|---|---|---|",
        ]
        for mode in tool.modes:
            needs = [need.spelled() if isinstance(need, OneOf) else need for need in mode.needs]
            needed = {name for need in mode.needs for name in (need.names if isinstance(need, OneOf) else (need,))}
            others = [key for key in mode.fields if key not in needed]
            lines.append(
                f"| `{mode.name}` | {_cell(' '.join(filter(None, (mode.summary, mode.detail))))} | "
                f"{', '.join(needs) or '-'} | "
                f"{', '.join(others) or '-'} | {'yes' if mode.acts else 'no'} |"
            )
        if groups:
            lines += [""] + [f"A {group.noun} is given as {group.spelled()}." for group in groups]
        lines.append("")
    lines += ["| argument | type | default | meaning |", "|---|---|---|---|"]
    for name, prop in properties.items():
        meaning = "the mode: one of the rows above" if tool.modes and name == tool.discriminator else None
        lines += _arguments(name, prop, name in required, meaning)
    return "\n".join(lines) + "\n"


def _arguments(name: str, prop: dict[str, Any], required: bool, meaning: str | None = None) -> list[str]:
    """The row of an argument, then those of the fields of the object it is (or holds a list of), as name.field."""
    given = prop.get("default")
    default = "required" if required else "-" if given is None else f"`{json.dumps(given)}`"
    meaning = meaning or prop.get("description", "")
    for option in prop.get("anyOf", [prop]):  # what the object it holds a list of says of itself
        inner = option.get("items", {}) if option.get("type") == "array" else {}
        meaning += f" Each: {inner['description']}" if inner.get("description") else ""
    rows = [f"| `{name}` | {_type(prop)} | {default} | {_cell(meaning)} |"]
    for option in prop.get("anyOf", [prop]):
        inner = option.get("items", option) if option.get("type") == "array" else option
        prefix = f"{name}[]" if inner is not option else name
        needed = set(inner.get("required", ()))
        for field, sub in (inner.get("properties") or {}).items():
            rows += _arguments(f"{prefix}.{field}", sub, field in needed)
    return rows


def _type(prop: dict[str, Any]) -> str:
    options = prop.get("anyOf", [prop])
    shown = []
    for option in options:
        if option.get("type") == "null":
            continue
        if "enum" in option:
            shown.append(" \\| ".join(f"`{json.dumps(value)}`" for value in option["enum"]))
        elif "const" in option:
            shown.append(f"`{json.dumps(option['const'])}`")
        elif option.get("type") == "array":
            items = _bounds(option.get("minItems"), option.get("maxItems"), " items")
            shown.append(f"array of {_type(option.get('items', {}))}" + (f" ({items.strip()})" if items else ""))
        elif option.get("type") == "string":
            shown.append("string" + _bounds(option.get("minLength"), option.get("maxLength"), " characters"))
        else:
            shown.append((option.get("type") or "any") + _bounds(option.get("minimum"), option.get("maximum")))
    return " or ".join(shown) or "any"


def _bounds(low: Any, high: Any, unit: str = "") -> str:
    """' 1..100', ' ≥ 0', ' ≤ 8000' (and the unit), or nothing; a string's or a list's lower bound of 0 or 1 says
    little beside its upper one, and is left out there."""
    if unit and low is not None and low <= 1 and high is not None:
        low = None
    if low is not None and high is not None:
        return f" {low}..{high}{unit}"
    if low is not None:
        return f" ≥ {low}{unit}"
    return f" ≤ {high}{unit}" if high is not None else ""


def _cell(text: str, table: bool = True) -> str:
    return text.replace("|", "\\|").replace("\n", " ") if table else text


if __name__ == "__main__":
    print(render(), end="")
