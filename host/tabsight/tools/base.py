"""What a tool is: a pydantic model (validator, JSON schema and docs in one) and a handler, or a handler per mode.

Each tool module defines ``TOOL = Tool(name, description, Params, handler)``, or, for a tool whose discriminator
field (``action``, ``what``, ``type``) chooses among modes, ``Tool(..., modes=(Mode(...), ...))``: the rows of
``tabsight.tools.modes``, from which its validation, dispatch, schema descriptions and docs are derived.
A handler is ``async (session, params, response) -> None``: it reads and
changes the session, asks the browser, and adds what it found to the
``Response`` (``tabsight.tools.response``), which alone lays out the MCP
result. It raises ``ToolError`` (or lets ``BrowserError`` through) for
anything the caller should read as an error.

Two schemas come of one declaration. The one clients list (``Tool.schema``), which every client puts in the
model's context, is lean: each description a short text, no pydantic noise (titles, an optional argument's
``anyOf`` with null, null defaults, ``$defs``, a string's length limits), every type, numeric range, array size,
enum, pattern and default kept. The one docs/tools.md is written from (``Tool.documented``) has each description
followed by its detail (a field's ``detail(...)``, a row's ``Meaning`` and ``detail``). Validation is the
model's either way, never the schema's.
"""

from __future__ import annotations

import copy
import functools
import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.config import JsonDict

from .. import pagecontent
from ..errors import ToolError
from .modes import Group, Handler, Mode, check, describe

if TYPE_CHECKING:
    import mcp_types as types

    from ..session.state import Session
    from .response import Response


class Params(BaseModel):
    """Base of every tool's parameters: unknown arguments are an error, not ignored."""

    model_config = ConfigDict(extra="forbid")
    #: fields that name one thing in several ways (an interact target: label, selector, or x and y)
    groups: ClassVar[tuple[Group, ...]] = ()


@dataclass(frozen=True, eq=False)
class Tool:
    name: str
    #: what the tool is for, in a sentence or two; "{modes}" in it becomes the modes' names
    description: str
    params: type[Params]
    #: a tool without modes: its one handler
    handler: Handler | None = None
    #: a tool with modes: one row each, chosen by the field ``discriminator`` names
    modes: tuple[Mode, ...] = ()
    discriminator: str = "action"
    #: for a tool without modes; with modes, a tool is read-only when none of them acts on the page
    read_only: bool = False
    #: what every error message of this tool starts with (BrowserLoop's
    #: wording for screenshot); others say "Invalid arguments: " for bad input
    error_prefix: str = ""
    #: whether its answers may quote a page: they are then page-content regions, and its description says so
    quotes_pages: bool = True
    #: what docs/tools.md says of the tool after its description (clients list the description only)
    detail: str = ""

    def __post_init__(self) -> None:
        if self.modes:  # the discriminator's allowed values are the modes' names, listed nowhere else
            names = tuple(mode.name for mode in self.modes)
            chosen = (Literal[names], Field(description=""))
            model = create_model(  # type: ignore[call-overload]
                self.params.__name__, __base__=self.params, **{self.discriminator: chosen}
            )
            object.__setattr__(self, "params", model)

    @functools.cached_property
    def by_mode(self) -> dict[str, Mode]:
        """Each mode by its name (read on every call: made once)."""
        return {mode.name: mode for mode in self.modes}

    @property
    def text(self) -> str:
        """Its description, as a client lists it."""
        text = self.description.replace("{modes}", ", ".join(self.by_mode))
        return f"{text} {pagecontent.CONVENTION}" if self.quotes_pages else text

    @property
    def is_read_only(self) -> bool:
        return not any(mode.acts for mode in self.modes) if self.modes else self.read_only

    def definition(self) -> types.Tool:
        import mcp_types as types  # here: `tabsight shot` runs tools without the MCP SDK

        # MCP assumes readOnlyHint false and openWorldHint true: only a read-only tool has a hint to give
        return types.Tool(
            name=self.name,
            description=self.text,
            input_schema=self.schema(),
            annotations=types.ToolAnnotations(read_only_hint=True) if self.is_read_only else None,
        )

    def schema(self) -> dict[str, Any]:
        """The JSON schema clients list: short descriptions, no pydantic noise."""
        return _schema_of(self, full=False)

    def documented(self) -> dict[str, Any]:
        """The JSON schema docs/tools.md is written from: each description with its detail, ``$defs`` inlined."""
        return _schema_of(self, full=True)

    def parse(self, arguments: dict[str, Any] | None) -> Params:
        try:
            params = self.params.model_validate(arguments or {})
            if self.modes:
                check(params, self.by_mode, self.discriminator, self.params.groups)
            return params
        except ValidationError as exc:
            raise ToolError(("" if self.error_prefix else "Invalid arguments: ") + explain(exc, self.params)) from None
        except ValueError as exc:
            raise ToolError(("" if self.error_prefix else "Invalid arguments: ") + str(exc)) from None

    async def handle(self, session: Session, params: Params, response: Response) -> None:
        """The call, by the handler of its mode (or the tool's one handler)."""
        handler = self.by_mode[getattr(params, self.discriminator)].handler if self.modes else self.handler
        assert handler is not None, f"tool {self.name} has neither a handler nor modes"
        await handler(session, params, response)


#: the key of a field's detail in its pydantic schema (``detail``): docs/tools.md's, left out of what clients list
DETAIL = "detail"


def detail(text: str) -> JsonDict:
    """A field's ``json_schema_extra``: what docs/tools.md says after its description, and clients are not sent."""
    return {DETAIL: text}


@functools.cache
def _schema_of(tool: Tool, full: bool) -> dict[str, Any]:
    """A tool's JSON schema, its descriptions written from its modes where it has them: for clients (lean) or for
    the docs (``full``: with the details)."""
    written = _inline(copy.deepcopy(schema(tool.params)))
    if full:
        _with_details(written)
    if tool.modes:
        describe(written, tool.by_mode, tool.discriminator, tool.params.groups, full)
    return written if full else _lean(written)


@functools.cache
def schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's JSON schema, built once (pydantic rebuilds it on every call, in milliseconds)."""
    return model.model_json_schema()


def _inline(node: dict[str, Any]) -> dict[str, Any]:
    """The schema with each ``$ref`` replaced by the definition it names, and no ``$defs`` (tabsight's models nest
    a few small objects, none recursive). A nested model's docstring, which pydantic makes its description, is
    its detail: the field that holds it says what clients need."""
    definitions = node.pop("$defs", {})

    def resolved(value: Any, seen: tuple[str, ...] = ()) -> Any:
        if isinstance(value, list):
            return [resolved(item, seen) for item in value]
        if not isinstance(value, dict):
            return value
        if "$ref" in value:
            name = value["$ref"].rsplit("/", 1)[-1]
            assert name not in seen, f"recursive model {name}: its schema cannot be inlined"
            rest = {key: item for key, item in value.items() if key != "$ref"}
            definition = dict(definitions[name])
            if "description" in definition:
                definition[DETAIL] = inspect.cleandoc(definition.pop("description")).replace("\n", " ")
            return resolved({**definition, **rest}, (*seen, name))
        return {key: resolved(item, seen) for key, item in value.items()}

    return resolved(node)


def _with_details(node: Any) -> None:
    """Each description followed by its field's detail, for the docs."""
    if isinstance(node, list):
        for item in node:
            _with_details(item)
    elif isinstance(node, dict):
        if DETAIL in node and isinstance(node[DETAIL], str):
            text = node.pop(DETAIL)
            node["description"] = f"{node['description']} {text}" if node.get("description") else text
        for key, value in node.items():
            if key != "description":
                _with_details(value)


#: what the schema clients list leaves out: pydantic's titles, the docs' details, and a string's length limits
#: (guards against megabytes, which no caller comes near; docs/tools.md gives them, and an error names the one
#: exceeded). Numeric ranges, array sizes, enums and patterns stay.
LEFT_OUT = frozenset({"title", DETAIL, "minLength", "maxLength"})


def _lean(node: Any, keys_are_names: bool = False) -> Any:
    """The schema as clients get it: no ``LEFT_OUT`` keywords, an optional argument's ``anyOf`` with null made the
    type it is when given (its range, enum and pattern kept), no null defaults, no ``additionalProperties: true``
    (what a schema says without it). A client may still send null where the model takes it: the model, not the
    schema, validates."""
    if isinstance(node, list):
        return [_lean(item) for item in node]
    if not isinstance(node, dict):
        return node
    if keys_are_names:  # a "properties" object: its keys are the arguments' names (one may be called "title")
        return {name: _lean(value) for name, value in node.items()}
    options = node.get("anyOf")
    if options is not None:
        given = [option for option in options if option != {"type": "null"}]
        rest = {key: value for key, value in node.items() if key != "anyOf"}
        node = {**given[0], **rest} if len(given) == 1 else {**rest, "anyOf": given}
    return {
        key: _lean(value, keys_are_names=key == "properties")
        for key, value in node.items()
        if key not in LEFT_OUT
        and not (key == "default" and value is None)
        and not (key == "additionalProperties" and value is True)
    }


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
