"""docs/tools.md, written from the tools themselves: each tool's description, its modes' rows, and its arguments
as the JSON schema clients receive gives them. ``python -m tabsight.tools.reference > docs/tools.md`` renews it;
tests/test_modes.py fails when the committed file differs."""

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
    lines.append(f"Read-only: {'yes' if tool.is_read_only else 'no'}.")
    lines.append("")
    schema = tool.schema()
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
                f"| `{mode.name}` | {_cell(mode.summary)} | {', '.join(needs) or '-'} | "
                f"{', '.join(others) or '-'} | {'yes' if mode.acts else 'no'} |"
            )
        if groups:
            lines += [""] + [f"A {group.noun} is given as {group.spelled()}." for group in groups]
        lines.append("")
    lines += ["| argument | type | default | meaning |", "|---|---|---|---|"]
    for name, prop in properties.items():
        given = prop.get("default")
        default = "required" if name in required else "-" if given is None else f"`{json.dumps(given)}`"
        meaning = (
            "the mode: one of the rows above" if tool.modes and name == tool.discriminator else prop["description"]
        )
        lines.append(f"| `{name}` | {_type(prop)} | {default} | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


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
            shown.append(f"array of {_type(option.get('items', {}))}")
        else:
            kind = option.get("type") or option.get("$ref", "object").rsplit("/", 1)[-1]
            low, high = option.get("minimum"), option.get("maximum")
            bounds = (
                f" {low}..{high}"
                if low is not None and high is not None
                else (f" ≥ {low}" if low is not None else f" ≤ {high}" if high is not None else "")
            )
            shown.append(f"{kind}{bounds}")
    return " or ".join(shown) or "any"


def _cell(text: str, table: bool = True) -> str:
    return text.replace("|", "\\|").replace("\n", " ") if table else text


if __name__ == "__main__":
    print(render(), end="")
