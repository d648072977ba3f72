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
    #: what every error message of this tool starts with (BrowserLoop's
    #: wording for screenshot); others say "Invalid arguments: " for bad input
    error_prefix: str = ""

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
            raise ToolError(("" if self.error_prefix else "Invalid arguments: ") + explain(exc, self.params)) from None


def explain(exc: ValidationError, model: type[BaseModel]) -> str:
    """A validation failure in words: the argument, the value given, what is allowed."""
    properties = model.model_json_schema().get("properties", {})
    problems = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        name = ".".join(loc) or "arguments"
        prop = properties.get(loc[0], {}) if loc else {}
        given = _shown(error.get("input"))
        kind = error["type"]
        if kind == "missing":
            problems.append(f"missing required argument '{name}'")
        elif kind == "extra_forbidden":
            problems.append(f"unknown argument '{name}'; allowed arguments: {', '.join(properties)}")
        elif kind in ("literal_error", "enum"):
            problems.append(f"'{name}' is {given!r}; allowed values: {error['ctx']['expected']}")
        elif kind in ("greater_than_equal", "less_than_equal") and (limits := _limits(prop)):
            low, high = limits
            label = name.capitalize() if name.isalpha() else f"'{name}'"
            bound = f"at least {low}" if kind == "greater_than_equal" else f"at most {high}"
            problems.append(f"{label} must be {bound} ('{name}' is {given!r}; allowed range: {low} to {high})")
        elif kind == "value_error":
            problems.append(str(error["ctx"]["error"]))
        else:
            problems.append(f"'{name}' is {given!r}: {error['msg']}")
    return "; ".join(problems)


class _Shown(str):
    """A value as an error message quotes it: its repr, cut short (the caller may have sent megabytes)."""

    def __repr__(self) -> str:
        return self


def _shown(value: Any, limit: int = 200) -> Any:
    text = repr(value)
    return value if len(text) <= limit else _Shown(text[:limit] + f"... ({len(text)} characters)")


def _limits(prop: dict[str, Any]) -> tuple[Any, Any] | None:
    """(minimum, maximum) of a property, also when it is optional (anyOf with null)."""
    for schema in (prop, *prop.get("anyOf", ())):
        if "minimum" in schema:
            return schema["minimum"], schema.get("maximum")
    return None


def text(data: Any) -> types.TextContent:
    """A compact JSON text block (token-frugal: no indentation)."""
    if not isinstance(data, str):
        data = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return types.TextContent(type="text", text=data)


def image(data_b64: str, mime_type: str) -> types.ImageContent:
    return types.ImageContent(type="image", data=data_b64, mime_type=mime_type)
