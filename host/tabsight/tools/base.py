"""What a tool is: a pydantic model (validator, JSON schema and docs in one) and a handler.

Each tool module defines ``TOOL = Tool(name, description, Params, handler)``.
A handler is ``async (session, params, response) -> None``: it reads and
changes the session, asks the browser, and adds what it found to the
``Response`` (``tabsight.tools.response``), which alone lays out the MCP
result. It raises ``ToolError`` (or lets ``BrowserError`` through) for
anything the caller should read as an error.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .. import pagecontent
from ..errors import ToolError
from ..session.state import Session
from .response import Response

if TYPE_CHECKING:
    import mcp_types as types


class Params(BaseModel):
    """Base of every tool's parameters: unknown arguments are an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


Handler = Callable[[Session, Any, Response], Awaitable[None]]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: type[Params]
    handler: Handler
    read_only: bool = False
    #: what every error message of this tool starts with (BrowserLoop's
    #: wording for screenshot); others say "Invalid arguments: " for bad input
    error_prefix: str = ""
    #: whether its answers may quote a page: they are then page-content regions, and its description says so
    quotes_pages: bool = True

    def definition(self) -> types.Tool:
        import mcp_types as types  # here: `tabsight shot` runs tools without the MCP SDK

        return types.Tool(
            name=self.name,
            description=f"{self.description} {pagecontent.CONVENTION}" if self.quotes_pages else self.description,
            input_schema=schema(self.params),
            annotations=types.ToolAnnotations(read_only_hint=self.read_only, open_world_hint=True),
        )

    def parse(self, arguments: dict[str, Any] | None) -> Params:
        try:
            return self.params.model_validate(arguments or {})
        except ValidationError as exc:
            raise ToolError(("" if self.error_prefix else "Invalid arguments: ") + explain(exc, self.params)) from None


@functools.cache
def schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's JSON schema, built once (pydantic rebuilds it on every call, in milliseconds)."""
    return model.model_json_schema()


def explain(exc: ValidationError, model: type[BaseModel]) -> str:
    """A validation failure in words: the argument, the value given, what is allowed."""
    properties = schema(model).get("properties", {})
    problems = []
    # An optional argument given a bad value fails each member of its union: "should be None" says
    # nothing the other failure does not, and the members' tags are no argument's name.
    errors = [error for error in exc.errors() if error["type"] != "none_required"] or exc.errors()
    for error in errors:
        loc = [str(part) for part in error["loc"] if not _union_member(part)]
        name = ".".join(loc) or "arguments"
        prop = properties.get(loc[0], {}) if loc else {}
        given = _shown(error.get("input"))
        kind = error["type"]
        if kind == "missing":
            problems.append(f"missing required argument '{name}'")
        elif kind == "extra_forbidden":
            problems.append(f"unknown argument '{name}'; allowed arguments: {', '.join(properties)}")
        elif kind == "bool_type":
            problems.append(f"'{name}' is {given!r}; allowed values: true, false (a JSON boolean)")
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


def _union_member(part: str | int) -> bool:
    """Whether a part of an error's location is pydantic's tag for a member of a union
    (``str``, ``constrained-str``, ``function-after[...]``), not an argument's name."""
    return isinstance(part, str) and (part in ("str", "int", "float", "bool", "none") or any(c in part for c in "-["))


class _Shown(str):
    """A value as an error message quotes it: its repr, cut short (the caller may have sent megabytes)."""

    def __repr__(self) -> str:
        return self


def _shown(value: Any, limit: int = 200) -> Any:
    text = repr(value)
    return value if len(text) <= limit else _Shown(text[:limit] + f"... ({len(text)} characters)")


def _limits(prop: dict[str, Any]) -> tuple[Any, Any] | None:
    """(minimum, maximum) of a property, also when it is optional (anyOf with null)."""
    for option in (prop, *prop.get("anyOf", ())):
        if "minimum" in option:
            return option["minimum"], option.get("maximum")
    return None
