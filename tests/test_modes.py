"""The tools' modes, declared once (tabsight.tools.modes): every row consistent with its tool's arguments, one
generic check of which argument goes with which mode, and docs/tools.md as the rows make it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabsight.errors import ToolError
from tabsight.tools import TOOLS
from tabsight.tools.modes import OneOf
from tabsight.tools.reference import render

DOCS = Path(__file__).resolve().parents[1] / "docs" / "tools.md"
WITH_MODES = [tool for tool in TOOLS.values() if tool.modes]


def test_docs_tools_md_is_made_from_the_tools():
    assert DOCS.read_text() == render(), (
        "docs/tools.md is stale: run `python -m tabsight.tools.reference > docs/tools.md`"
    )


@pytest.mark.parametrize("tool", WITH_MODES, ids=lambda tool: tool.name)
def test_every_row_names_arguments_its_tool_has_and_every_argument_has_a_mode(tool):
    fields = set(tool.params.model_fields) - {tool.discriminator}
    nouns = {group.noun for group in tool.params.groups}
    taken = set()
    for mode in tool.modes:
        assert mode.summary.endswith("."), f"{mode.name}: a summary is a sentence"
        assert set(mode.fields) <= fields | nouns, f"{mode.name} takes arguments {tool.name} does not have"
        takes = set(mode.takes(tool.params.groups))
        for need in mode.needs:
            names = need.names if isinstance(need, OneOf) else (need,)
            assert all(name in takes or name in nouns for name in names), f"{mode.name} needs what it does not take"
        assert set(mode.goes_with) | set(mode.goes_with.values()) <= takes, mode.name
        taken |= takes
    assert fields == taken, f"arguments no mode of {tool.name} takes: {fields - taken}"


@pytest.mark.parametrize("tool", WITH_MODES, ids=lambda tool: tool.name)
def test_a_client_that_sends_every_argument_null_or_default_is_understood(tool):
    """Some clients send every property of the schema, null or at its default, whatever the mode."""
    schema = tool.schema()["properties"]
    for mode in tool.modes:
        arguments = {name: prop.get("default") for name, prop in schema.items() if name != tool.discriminator}
        arguments[tool.discriminator] = mode.name
        try:
            tool.parse(arguments)
        except ToolError as exc:  # what the mode needs is missing: the error may say so, and only that
            assert "needs" in str(exc), f"{mode.name}: {exc}"


def test_an_argument_a_mode_does_not_take_is_named_with_what_it_does_take():
    interact = TOOLS["interact"]
    with pytest.raises(ToolError) as refused:
        interact.parse({"action": "press", "key": "Enter", "delta_y": 100})
    assert str(refused.value) == (
        "Invalid arguments: 'delta_y' is for action 'scroll' only, not 'press'; action 'press' takes label, selector, "
        "x, y, key, tab_id"
    )


def test_the_discriminator_lists_each_mode_once_with_its_summary():
    for tool in WITH_MODES:
        prop = tool.schema()["properties"][tool.discriminator]
        assert prop["enum"] == [mode.name for mode in tool.modes]
        for mode in tool.modes:
            assert f"{mode.name}: {mode.summary}" in prop["description"]
