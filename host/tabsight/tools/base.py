"""What a tool is: a pydantic model (validator, JSON schema and docs in one) and a handler.

Each tool module defines ``TOOL = Tool(name, description, Params, handler)``.
Handlers return MCP content blocks; they raise ``ToolError`` (or let
``BrowserError`` through) for anything the caller should read as an error.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mcp_types as types
from pydantic import BaseModel, ConfigDict, ValidationError

if TYPE_CHECKING:
    from ..front.session import Session

Content = types.TextContent | types.ImageContent


class ToolError(Exception):
    """An error for the agent to read: says what was wrong and how to recover."""


class Params(BaseModel):
    """Base of every tool's parameters: unknown arguments are an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: type[Params]
    handler: Callable[[Session, Any], Awaitable[list[Content]]]
    read_only: bool = False

    def definition(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=self.params.model_json_schema(),
            annotations=types.ToolAnnotations(read_only_hint=self.read_only, open_world_hint=True),
        )

    def parse(self, arguments: dict[str, Any] | None) -> Params:
        try:
            return self.params.model_validate(arguments or {})
        except ValidationError as exc:
            raise ToolError(explain(exc, self.params)) from None


def explain(exc: ValidationError, model: type[BaseModel]) -> str:
    """A validation failure in words: the argument, the value given, what is allowed."""
    properties = model.model_json_schema().get("properties", {})
    problems = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        name = ".".join(loc) or "arguments"
        prop = properties.get(loc[0], {}) if loc else {}
        given = error.get("input")
        kind = error["type"]
        if kind == "missing":
            problems.append(f"missing required argument '{name}'")
        elif kind == "extra_forbidden":
            problems.append(f"unknown argument '{name}'; allowed arguments: {', '.join(properties)}")
        elif kind in ("literal_error", "enum"):
            problems.append(f"'{name}' is {given!r}; allowed values: {error['ctx']['expected']}")
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") and "minimum" in prop:
            problems.append(f"'{name}' is {given!r}; allowed range: {prop['minimum']} to {prop['maximum']}")
        elif kind == "value_error":
            problems.append(str(error["ctx"]["error"]))
        else:
            problems.append(f"'{name}' is {given!r}: {error['msg']}")
    return "Invalid arguments: " + "; ".join(problems)


def text(data: Any) -> types.TextContent:
    """A compact JSON text block (token-frugal: no indentation)."""
    if not isinstance(data, str):
        data = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return types.TextContent(type="text", text=data)


def image(data_b64: str, mime_type: str) -> types.ImageContent:
    return types.ImageContent(type="image", data=data_b64, mime_type=mime_type)
