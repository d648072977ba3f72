"""A tool's modes, each declared once, as a row: its name, a one-line summary, the fields it takes and what each
means for it, which it needs, whether it acts on the page, and its handler.

Validation (``check``), dispatch (``Tool``), the JSON schema's descriptions (``describe``) and docs/tools.md
(``tabsight.tools.reference``) are all derived from the rows. A tool with modes keeps one flat parameters model
(one object per tool on the wire: some clients handle a top-level ``oneOf`` badly) whose discriminator field
(``action``, ``what``, ``type``) names the mode; the model says what each field is (type, range, default), the
rows say which mode takes it.

The schema, which every client puts in the model's context, says what each mode is for in a short sentence and
what a field means where its name and the summaries do not; the detail (a row's ``detail``, a ``Meaning``'s) is
docs/tools.md's, and the errors and hints teach the next step when a call needs it (Chrome DevTools MCP's
design principles).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from ..session.state import Session
    from .response import Response

Handler = Callable[["Session", Any, "Response"], Awaitable[None]]


@dataclass(frozen=True)
class Group:
    """Fields that name one thing in several ways, of which one is given: a target is a label, a selector, or a
    point (x and y, which go together)."""

    noun: str
    ways: tuple[str | tuple[str, str], ...]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(name for way in self.ways for name in ((way,) if isinstance(way, str) else way))

    def spelled(self) -> str:
        """'label, selector, or x and y'"""
        words = [way if isinstance(way, str) else " and ".join(way) for way in self.ways]
        return ", ".join(words[:-1]) + f", or {words[-1]}" if len(words) > 2 else " or ".join(words)


@dataclass(frozen=True)
class OneOf:
    """A need met by one of several fields (``both``: or by several at once, as execute's script and steps)."""

    names: tuple[str, ...]
    both: bool = False

    def spelled(self) -> str:
        quoted = [f"'{name}'" for name in self.names]
        if self.both:
            return f"{', '.join(quoted)}, or both" if len(quoted) == 2 else f"one or more of {', '.join(quoted)}"
        return f"one of {' or '.join(quoted)}"


@dataclass(frozen=True)
class Meaning:
    """What a field means to a mode: ``short`` in the schema clients list, ``detail`` after it in docs/tools.md (and
    in the error that names the field as missing) only."""

    short: str
    detail: str = ""

    @property
    def full(self) -> str:
        return " ".join(text for text in (self.short, self.detail) if text)


def said(meaning: str | Meaning, full: bool = True) -> str:
    """A field's meaning as the schema (``full`` false: its short text) or the docs say it."""
    if isinstance(meaning, str):
        return meaning
    return meaning.full if full else meaning.short


@dataclass(frozen=True, eq=False)
class Mode:
    name: str
    #: one short sentence: what the mode is for (the discriminator's description joins these)
    summary: str
    handler: Handler
    #: each field the mode takes (a Group's noun stands for all its fields) -> what it means here (a Meaning: a
    #: short text for the schema and a detail for the docs); "" where the field's own description says it
    fields: Mapping[str, str | Meaning] = field(default_factory=dict)
    #: what must be given: a field, a Group's noun, or a OneOf
    needs: tuple[str | OneOf, ...] = ()
    #: whether it acts on the page (input, navigation, a script): a tool all of whose modes do not is read-only
    acts: bool = False
    #: a field that only counts with another given too (include -> request_id)
    goes_with: Mapping[str, str] = field(default_factory=dict)
    #: a rule the row cannot say (a range that depends on the mode): raises ValueError
    rule: Callable[[Any], None] | None = None
    #: what docs/tools.md says of the mode after its summary (the schema has the summary only)
    detail: str = ""

    def takes(self, groups: tuple[Group, ...]) -> list[str]:
        """The fields it takes, groups spelled out, in the row's order."""
        by_noun = {group.noun: group.fields for group in groups}
        return [name for key in self.fields for name in by_noun.get(key, (key,))]


def given(params: BaseModel) -> list[str]:
    """The fields the caller gave a value other than the default, in the model's order (a client may send every
    field, null or default where unused)."""
    fields = type(params).model_fields
    found = []
    for name in fields:
        if name not in params.model_fields_set:
            continue
        value = getattr(params, name)
        if value is not None and value != fields[name].get_default(call_default_factory=True):
            found.append(name)
    return found


def check(params: BaseModel, modes: Mapping[str, Mode], discriminator: str, groups: tuple[Group, ...]) -> None:
    """The one check of which fields go with which mode; ValueError naming the field and what is allowed."""
    mode = modes[getattr(params, discriminator)]
    named = f"{discriminator} '{mode.name}'"
    present = [name for name in given(params) if name != discriminator]
    for group in groups:
        ways = []
        for way in group.ways:
            if isinstance(way, tuple):
                have = [name for name in way if name in present]
                if len(have) == 1:
                    raise ValueError(f"'{way[0]}' and '{way[1]}' go together: give both, in CSS px of the viewport")
                if have:
                    ways.append("/".join(way))
            elif way in present:
                ways.append(way)
        if len(ways) > 1:
            raise ValueError(f"give one {group.noun}, not {' and '.join(ways)}")
    takes = mode.takes(groups)
    for name in present:
        if name not in takes:
            raise ValueError(_not_taken(name, mode, modes, discriminator, groups))
    for need in mode.needs:
        needed = next((group for group in groups if group.noun == need), None)
        if needed is not None:
            if not any(name in present for name in needed.fields):
                raise ValueError(f"{named} needs {_article(needed.noun)}: {needed.spelled()}")
        elif isinstance(need, OneOf):
            count = sum(name in present for name in need.names)
            if count == 0 or (count > 1 and not need.both):
                raise ValueError(f"{named} needs {need.spelled()}" + (", not several" if count else ""))
        elif need not in present:
            meaning = said(mode.fields.get(need) or "") or type(params).model_fields[need].description or ""
            raise ValueError(f"{named} needs '{need}'" + (f": {meaning}" if meaning else ""))
    for name, partner in mode.goes_with.items():
        if name in present and partner not in present:
            flag = type(params).model_fields[partner].annotation in (bool, "bool")
            give = f"set '{partner}' to true" if flag else f"give '{partner}' too"
            raise ValueError(f"'{name}' needs '{partner}' ({named}): {give}, or leave '{name}' out")
    if mode.rule is not None:
        mode.rule(params)


def _not_taken(name: str, mode: Mode, modes: Mapping[str, Mode], discriminator: str, groups: tuple[Group, ...]) -> str:
    takers = [other.name for other in modes.values() if name in other.takes(groups)]
    takes = mode.takes(groups)
    listed = f"; {discriminator} '{mode.name}' takes " + (", ".join(takes) if takes else "no other argument")
    if 0 < len(takers) <= 3:
        which = " or ".join(f"'{taker}'" for taker in takers)
        return f"'{name}' is for {discriminator} {which} only, not '{mode.name}'{listed}"
    group = next((group for group in groups if name in group.fields), None)
    if group is not None and not any(field in takes for field in group.fields):
        return f"{discriminator} '{mode.name}' takes no {group.noun} ({name}){listed}"
    return f"{discriminator} '{mode.name}' takes no '{name}'{listed}"


def _article(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def describe(
    schema: dict[str, Any],
    modes: Mapping[str, Mode],
    discriminator: str,
    groups: tuple[Group, ...],
    full: bool = False,
) -> None:
    """The JSON schema's descriptions written from the rows: the discriminator's from the summaries (``full``: and
    the rows' details, for the docs), and each field's from what it means to each mode (modes that say the same
    thing share one sentence), after the field's own description, where it has one."""
    properties = schema["properties"]
    properties[discriminator]["description"] = " ".join(
        f"{mode.name}: {mode.summary}" + (f" {mode.detail}" if full and mode.detail else "") for mode in modes.values()
    )
    meanings: dict[str, dict[str, list[str]]] = {}
    for mode in modes.values():
        for key, meaning in mode.fields.items():
            text = said(meaning, full)
            if text and not any(group.noun == key for group in groups):
                meanings.setdefault(key, {}).setdefault(text, []).append(mode.name)
    for name, by_meaning in meanings.items():
        own = properties[name].get("description", "")
        spoken = " ".join(f"{', '.join(names)}: {meaning}" for meaning, names in by_meaning.items())
        properties[name]["description"] = f"{own} {spoken}" if own else spoken
