"""The configuration table (tabsight.config): the one place that reads TABSIGHT_* variables, what each takes and
what it does with a value it does not take, the docs made from it, and doctor's account of the values in force."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabsight import config
from tabsight.errors import BrowserError, Code
from tabsight.install.commands import configuration_lines

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "host" / "tabsight"
DOCS = ROOT / "docs" / "configuration.md"
PREFIXES = ("TABSIGHT_", "BROWSERLOOP_")
#: a name of ours, or BrowserLoop's, where it is written out
NAMED = re.compile(r"\b(?:TABSIGHT|BROWSERLOOP)_[A-Z0-9]+(?:_[A-Z0-9]+)*")
#: the end of an f-string's text that a value would complete into such a name
NAME_BEGUN = re.compile(r"\b(?:TABSIGHT|BROWSERLOOP)_[A-Z0-9_]*$")


def _is_environment(node: ast.expr) -> bool:
    """``os.environ``, or a mapping standing for it (``environ``, ``self._environ``)."""
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name.endswith("environ")


def environment_reads(source: str) -> list[str]:
    """Where ``source`` reads one of our variables from an environment (or a key it cannot tell is not one), or
    builds such a name with an f-string: what only config.py may do."""
    found = []
    for node in ast.walk(ast.parse(source)):
        key = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr == "getenv" or (
                node.func.attr in ("get", "pop", "setdefault") and _is_environment(node.func.value)
            ):
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and _is_environment(node.value):
            key = node.slice
        elif isinstance(node, ast.Compare) and any(_is_environment(side) for side in node.comparators):
            key = node.left
        elif isinstance(node, ast.JoinedStr):
            for text, value in zip(node.values, node.values[1:]):
                if (
                    isinstance(text, ast.Constant)
                    and isinstance(value, ast.FormattedValue)
                    and NAME_BEGUN.search(text.value)
                ):
                    found.append(f"line {node.lineno}: an f-string builds a variable's name")
        if key is not None and not (
            isinstance(key, ast.Constant) and isinstance(key.value, str) and not key.value.startswith(PREFIXES)
        ):
            found.append(f"line {node.lineno}: reads {ast.unparse(key)} from the environment")
    return found


def test_only_the_configuration_module_reads_our_variables():
    found = {
        str(path.relative_to(ROOT)): reads
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != PACKAGE / "config.py" and (reads := environment_reads(path.read_text()))
    }
    assert found == {}, "read TABSIGHT_* variables through tabsight.config (config.current()[config.TABSIGHT_...])"


def test_the_scan_finds_every_way_of_reading_a_variable():
    source = """
import os
a = os.environ.get("TABSIGHT_BROWSER", "auto")
b = os.environ["TABSIGHT_CHROMIUM"]
c = os.getenv("BROWSERLOOP_DEFAULT_WIDTH")
d = "TABSIGHT_ISOLATED" in os.environ
e = self._environ.get(name)
f = environ.get(f"TABSIGHT_{suffix}")
g = os.environ.get("XDG_RUNTIME_DIR", "")
h = dict(os.environ, TABSIGHT_EMBEDDED="token")
i = f"TABSIGHT_BROWSER is {mode!r}"
"""
    assert environment_reads(source) == [
        "line 3: reads 'TABSIGHT_BROWSER' from the environment",
        "line 4: reads 'TABSIGHT_CHROMIUM' from the environment",
        "line 5: reads 'BROWSERLOOP_DEFAULT_WIDTH' from the environment",
        "line 6: reads 'TABSIGHT_ISOLATED' from the environment",
        "line 7: reads name from the environment",
        "line 8: reads f'TABSIGHT_{suffix}' from the environment",
        "line 8: an f-string builds a variable's name",
    ]


def test_every_variable_named_in_the_code_and_the_docs_is_in_the_table():
    declared = {variable.name for variable in config.VARIABLES} | {variable.alias for variable in config.VARIABLES}
    files = [
        *PACKAGE.rglob("*.py"),
        *(ROOT / "extension").rglob("*.js"),
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
    undeclared = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in NAMED.findall(path.read_text())
        # a prefix of declared names stands for them all, as in TABSIGHT_DEFAULT_*
        if name not in declared and not any(full.startswith(name + "_") for full in declared if full)
    }
    assert undeclared == set()


def test_each_variable_is_declared_once_with_its_name_spelled_out():
    names = [variable.name for variable in config.VARIABLES]
    assert len(names) == len(set(names)) == 24
    source = (PACKAGE / "config.py").read_text()
    for variable in config.VARIABLES:
        assert source.count(f'"{variable.name}"') == 1, variable.name  # its literal name, once: a search finds it
        assert getattr(config, variable.name) is variable
        assert variable.group in config.GROUPS


def test_the_defaults_are_the_ones_tabsight_always_had():
    configured = config.load({})
    assert {variable.name: configured[variable] for variable in config.VARIABLES} == {
        "TABSIGHT_BROWSER": "auto",
        "TABSIGHT_START_AHEAD": True,
        "TABSIGHT_ISOLATED": False,
        "TABSIGHT_CHROMIUM": None,
        "TABSIGHT_EMBEDDED_LINGER": 2.0,
        "TABSIGHT_LEASE_SECONDS": 10.0,
        "TABSIGHT_FRAME_SOURCE": True,
        "TABSIGHT_RUNTIME_DIR": None,
        "TABSIGHT_DATA_DIR": None,
        "TABSIGHT_UPLOAD_ROOTS": (),
        "TABSIGHT_SCREENSHOT_DIR": None,
        "TABSIGHT_DEFAULT_WIDTH": 1280,
        "TABSIGHT_DEFAULT_HEIGHT": 720,
        "TABSIGHT_DEFAULT_FORMAT": "webp",
        "TABSIGHT_DEFAULT_QUALITY": 80,
        "TABSIGHT_DEFAULT_TIMEOUT": 30_000,
        "TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE": True,
        "TABSIGHT_USER_AGENT": None,
        "TABSIGHT_DEFAULT_COOKIES": None,
        "TABSIGHT_RETRY_COUNT": 3,
        "TABSIGHT_RETRY_DELAY": 1000,
        "TABSIGHT_EMBEDDED": None,
        "TABSIGHT_EMBEDDED_PROFILE": None,
        "TABSIGHT_EMBEDDED_ISOLATED": False,
    }
    assert configured.warnings == [] and all(configured.source(variable) is None for variable in config.VARIABLES)


@pytest.mark.parametrize(
    ("variable", "given", "message"),
    [
        (config.TABSIGHT_BROWSER, "sometimes", "TABSIGHT_BROWSER is 'sometimes'; allowed values: auto, headed, never"),
        (config.TABSIGHT_BROWSER, "", "TABSIGHT_BROWSER is ''; allowed values: auto, headed, never"),
        (
            config.TABSIGHT_ISOLATED,
            "maybe",
            "TABSIGHT_ISOLATED is 'maybe'; allowed values: 1, true, yes, on (on); 0, false, no, off or empty (off)",
        ),
        (
            config.TABSIGHT_EMBEDDED_LINGER,
            "soon",
            "TABSIGHT_EMBEDDED_LINGER is 'soon'; allowed values: a number (seconds)",
        ),
    ],
)
def test_a_value_the_calls_cannot_do_without_fails_them_naming_the_variable(variable, given, message):
    configured = config.load({variable.name: given})
    with pytest.raises(BrowserError) as caught:
        configured[variable]
    assert (caught.value.code, str(caught.value)) == (Code.BAD_CONFIG, message)
    assert configured.warnings == []
    assert config.load({})[variable] == variable.default  # and nothing fails while it is unset


@pytest.mark.parametrize(
    ("given", "value"),
    [
        ("Headed ", "headed"),
        ("never", "never"),
    ],
)
def test_the_browser_is_named_in_any_case(given, value):
    assert config.load({"TABSIGHT_BROWSER": given})[config.TABSIGHT_BROWSER] == value


@pytest.mark.parametrize(
    ("given", "value"),
    [
        ("", False),
        ("0", False),
        ("off", False),
        (" No", False),
        ("1", True),
        ("TRUE", True),
        ("yes", True),
        ("on", True),
    ],
)
def test_isolation_takes_the_usual_words(given, value):
    assert config.load({"TABSIGHT_ISOLATED": given})[config.TABSIGHT_ISOLATED] is value


@pytest.mark.parametrize(
    ("given", "seconds"),
    [("2.5", 2.5), ("0", 0.0), (" 3 ", 3.0), ("-1", 10.0), ("3601", 10.0), ("soon", 10.0), ("", 10.0), ("nan", 10.0)],
)
def test_a_lease_length_out_of_range_gives_the_default_with_a_warning(given, seconds):
    configured = config.load({"TABSIGHT_LEASE_SECONDS": given})
    assert configured[config.TABSIGHT_LEASE_SECONDS] == seconds
    assert configured.warnings == (
        []
        if seconds != 10.0
        else [f"TABSIGHT_LEASE_SECONDS is {given!r}; allowed values: 0 to 3600 (seconds); using the default, 10"]
    )


@pytest.mark.parametrize(
    ("given", "value"),
    [
        ("1024", 1024),
        (" 1024 ", 1024),
        ("1_024", 1024),
        ("1024.0", 1024),
        ("+300", 300),
        ("1024.5", 1280),
        ("1e3", 1280),
        ("199", 1280),
        ("١٠٢٤", 1280),
    ],
)
def test_a_whole_number_is_read_as_pydantic_read_it(given, value):
    assert config.load({"TABSIGHT_DEFAULT_WIDTH": given})[config.TABSIGHT_DEFAULT_WIDTH] == value


@pytest.mark.parametrize(
    ("given", "value"),
    [("false", False), ("F", False), ("0", False), ("no", False), ("True", True), ("y", True), ("maybe", True)],
)
def test_waiting_for_the_network_takes_pydantics_words(given, value):
    variable = config.TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE
    assert config.load({"BROWSERLOOP_DEFAULT_WAIT_NETWORK_IDLE": given})[variable] is value


def test_a_format_is_named_exactly():
    assert config.load({"TABSIGHT_DEFAULT_FORMAT": " png "})[config.TABSIGHT_DEFAULT_FORMAT] == "png"
    assert config.load({"TABSIGHT_DEFAULT_FORMAT": "PNG"})[config.TABSIGHT_DEFAULT_FORMAT] == "webp"


def test_a_blank_tabsight_name_leaves_browserloops_and_a_refused_one_does_not():
    blank = config.load({"TABSIGHT_DEFAULT_QUALITY": "  ", "BROWSERLOOP_DEFAULT_QUALITY": "55"})
    assert blank[config.TABSIGHT_DEFAULT_QUALITY] == 55
    assert blank.source(config.TABSIGHT_DEFAULT_QUALITY) == "BROWSERLOOP_DEFAULT_QUALITY"
    refused = config.load({"TABSIGHT_DEFAULT_QUALITY": "101", "BROWSERLOOP_DEFAULT_QUALITY": "55"})
    assert refused[config.TABSIGHT_DEFAULT_QUALITY] == 80  # the one set wins, refused or not: BrowserLoop's waits


def test_the_other_kinds_take_any_text():
    configured = config.load(
        {
            "TABSIGHT_FRAME_SOURCE": " OFF",
            "TABSIGHT_EMBEDDED_ISOLATED": "1",
            "TABSIGHT_RUNTIME_DIR": "",
            "TABSIGHT_UPLOAD_ROOTS": f"{os.pathsep} /a {os.pathsep}~/b{os.pathsep} ",
            "TABSIGHT_USER_AGENT": " Agent/2 ",
        }
    )
    assert configured[config.TABSIGHT_FRAME_SOURCE] is False
    assert config.load({"TABSIGHT_FRAME_SOURCE": "no"})[config.TABSIGHT_FRAME_SOURCE] is True  # only off turns it off
    assert configured[config.TABSIGHT_EMBEDDED_ISOLATED] is True
    assert config.load({"TABSIGHT_EMBEDDED_ISOLATED": "true"})[config.TABSIGHT_EMBEDDED_ISOLATED] is False
    assert configured[config.TABSIGHT_RUNTIME_DIR] is None  # empty: the default place
    assert configured[config.TABSIGHT_UPLOAD_ROOTS] == ("/a", "~/b")
    assert configured[config.TABSIGHT_USER_AGENT] == "Agent/2"


def test_the_process_reads_its_environment_once_until_reset(monkeypatch):
    monkeypatch.setenv("TABSIGHT_DEFAULT_HEIGHT", "600")
    config.reset()
    first = config.current()
    monkeypatch.setenv("TABSIGHT_DEFAULT_HEIGHT", "500")
    assert config.current() is first and first[config.TABSIGHT_DEFAULT_HEIGHT] == 600
    config.reset()
    assert config.current()[config.TABSIGHT_DEFAULT_HEIGHT] == 500


def test_the_warnings_are_logged_once_when_the_process_reads_its_environment(monkeypatch, caplog):
    monkeypatch.setenv("TABSIGHT_RETRY_COUNT", "11")
    config.reset()
    with caplog.at_level("WARNING", logger="tabsight.config"):
        config.current()
        config.current()
    assert caplog.messages == ["TABSIGHT_RETRY_COUNT is '11'; allowed values: 0 to 10; using the default, 3"]


def test_the_committed_docs_are_the_table():
    assert DOCS.read_text() == config.markdown(), (
        "docs/configuration.md differs from host/tabsight/config.py's table: regenerate it with "
        "`.venv/bin/python -m tabsight.config --markdown > docs/configuration.md`"
    )


def test_the_docs_come_from_the_command_line():
    made = subprocess.run(
        [sys.executable, "-m", "tabsight.config", "--markdown"], capture_output=True, text=True, check=True, timeout=30
    )
    assert made.stdout == config.markdown()
    section = config.markdown().split("## `screenshot`'s defaults")[1]
    assert "| `TABSIGHT_DEFAULT_WIDTH` (or `BROWSERLOOP_DEFAULT_WIDTH`) | 1280 | 200 to 4000 |" in section


def test_doctor_says_each_value_whether_it_is_set_and_shows_no_secret():
    token = "ghp_" + "a1B2c3D4e5" * 4
    lines = configuration_lines(
        config.load(
            {
                "TABSIGHT_BROWSER": "headed",
                "BROWSERLOOP_DEFAULT_WIDTH": "800",
                "TABSIGHT_LEASE_SECONDS": "soon",
                "TABSIGHT_ISOLATED": "maybe",
                "TABSIGHT_DEFAULT_COOKIES": '[{"name": "s", "value": "v4lue"}]',
                "TABSIGHT_USER_AGENT": f"Agent {token}",
                "TABSIGHT_DATA_DIR": "",
                "TABSIGHT_EMBEDDED": "f00d",
            }
        )
    )
    assert lines[0].startswith("configuration here (docs/configuration.md")
    shown = {line.split()[0]: line.split(None, 1)[1] for line in lines[1:]}
    assert list(shown) == [variable.name for variable in config.VARIABLES]
    assert shown["TABSIGHT_BROWSER"] == "headed  (set)"
    assert shown["TABSIGHT_DEFAULT_HEIGHT"] == "720  (default)"
    assert shown["TABSIGHT_DEFAULT_WIDTH"] == "800  (set as BROWSERLOOP_DEFAULT_WIDTH)"
    assert shown["TABSIGHT_LEASE_SECONDS"] == (
        "'soon'  (set; allowed values: 0 to 3600 (seconds); the default is used, 10)"
    )
    assert shown["TABSIGHT_ISOLATED"].endswith(
        "(set; allowed values: 1, true, yes, on (on); 0, false, no, off or empty (off); what needs it fails)"
    )
    assert shown["TABSIGHT_DEFAULT_COOKIES"] == "<33 characters, not shown>  (set)"
    assert shown["TABSIGHT_EMBEDDED"] == "<4 characters, not shown>  (set)"
    assert shown["TABSIGHT_USER_AGENT"] == "Agent [REDACTED]  (set)" and token not in "\n".join(lines)
    assert shown["TABSIGHT_DATA_DIR"].endswith("(set empty: the default)")
