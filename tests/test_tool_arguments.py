"""Bad arguments: an isError result that names the argument and the allowed values.

These run the real tool dispatch (tabsight.tools.dispatch); validation happens before any browser
is needed, so no browser is involved (TABSIGHT_BROWSER=never proves it).
"""

from __future__ import annotations

import json
import re

import pytest

from tabsight import config, pagecontent
from tabsight.browser.connection import BrowserConnection
from tabsight.session.state import Session
from tabsight.tools import TOOLS
from tabsight.tools.dispatch import call
from tabsight.tools.modes import OneOf


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(tmp_path))  # no host in sight
    config.reset()
    return Session(BrowserConnection("test", mode="never"))


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("observe", {"what": "everything"}, ["'what'", "'everything'", "'alerts' or 'picked'"]),
        ("observe", {}, ["missing required argument 'what'"]),
        ("screenshot", {"format": "gif"}, ["'format'", "'gif'", "'webp', 'png' or 'jpeg'"]),
        ("screenshot", {"quality": 0}, ["'quality'", "0", "1 to 100"]),
        ("screenshot", {"quality": 101}, ["'quality'", "101", "1 to 100"]),
        ("screenshot", {"colour": "red"}, ["unknown argument 'colour'", "format, quality"]),
        ("interact", {"action": "navigate", "url": "not a url"}, ["'url'", "absolute http"]),
        ("interact", {"action": "navigate", "url": "http://x", "timeout": 5}, ["'timeout'", "1000 to 120000"]),
        ("interact", {"action": "fly", "url": "http://x"}, ["'action'", "'navigate'"]),
        (
            "interact",
            {"action": "drag", "selector": "#card"},
            ["action 'drag' needs a destination", "to_label, to_selector, or to_x and to_y"],
        ),
        ("interact", {"action": "drag", "selector": "#card", "to_y": -1}, ["'to_y' is -1", "at least 0"]),
        ("interact", {"action": "upload", "selector": "#file"}, ["action 'upload' needs 'files'"]),
        ("interact", {"action": "upload", "files": ["a.txt"]}, ["action 'upload' needs a target"]),
        ("interact", {"action": "upload", "selector": "#file", "files": []}, ["'files'", "at least 1"]),
        ("interact", {"action": "upload", "selector": "#file", "files": ["a"] * 21}, ["'files'", "at most 20"]),
        ("interact", {"action": "upload", "selector": "#file", "files": [""]}, ["'files.0'", "at least 1 character"]),
        ("interact", {"action": "upload", "selector": "#file", "files": "a.txt"}, ["'files'", "'a.txt'", "list"]),
        (
            "interact",
            {"action": "upload", "selector": "#file", "files": ["/etc/hostname"]},
            ["'/etc/hostname' is outside the folders files may be uploaded from", "TABSIGHT_UPLOAD_ROOTS"],
        ),
        (
            "interact",
            {"action": "click", "selector": "#file", "files": ["a.txt"]},
            ["'files' is for action 'upload' only, not 'click'"],
        ),
        (
            "interact",
            {
                "action": "execute",
                "cdp": [{"method": "DOM.setFileInputFiles", "params": {"files": ["/etc/passwd"], "backendNodeId": 1}}],
            },
            ["DOM.setFileInputFiles with files is refused in execute", "use action 'upload'"],
        ),
        (
            "interact",
            {
                "action": "execute",
                "cdp": [
                    {
                        "method": "Input.dispatchDragEvent",
                        "params": {
                            "type": "drop",
                            "x": 1,
                            "y": 1,
                            "data": {"items": [], "files": ["/etc/passwd"], "dragOperationsMask": 1},
                        },
                    }
                ],
            },
            ["Input.dispatchDragEvent with files is refused in execute"],
        ),
        ("configure", {"action": "track"}, ["action 'track' needs 'tab_id'"]),
        ("observe", {"what": "network", "requests": "some"}, ["'requests'", "'some'", "'failed' or 'all'"]),
        (
            "observe",
            {"what": "errors", "requests": "all"},
            ["'requests' is for what 'network' only, not 'errors'", "what 'errors' takes tab_id, since, limit, url"],
        ),
        ("observe", {"what": "page", "request_id": 3}, ["'request_id' is for what 'network' only, not 'page'"]),
        ("observe", {"what": "network", "request_id": "x"}, ["'request_id'", "'x'", "integer"]),
        (
            "observe",
            {"what": "network", "request_id": 3, "include": ["cookies"]},
            ["'include.0'", "'cookies'", "'request_headers', 'response_headers', 'request_body' or 'response_body'"],
        ),
        (
            "observe",
            {"what": "network", "include": ["request_body"]},
            ["'include' needs 'request_id'", "give 'request_id' too"],
        ),
        ("observe", {"what": "network", "binary_bodies": True}, ["'binary_bodies' needs 'request_id'"]),
        (
            "observe",
            {"what": "network", "request_id": 3, "max_body_chars": 50_001},
            ["'max_body_chars'", "50001", "0 to 50000"],
        ),
        ("configure", {"action": "emulate"}, ["action 'emulate' needs 'emulation'"]),
        (
            "configure",
            {"action": "emulate", "emulation": {"device": "nokia"}},
            ["'emulation.device'", "'nokia'", "'iphone-15'", "'pixel-7'", "'desktop-1080p'"],
        ),
        (
            "configure",
            {"action": "emulate", "emulation": {"network": "5g"}},
            ["'emulation.network'", "'5g'", "'offline'", "'none'"],
        ),
        (
            "configure",
            {"action": "emulate", "emulation": {"color_scheme": "dark", "on_user_tab": True}},
            ["'on_user_tab' needs 'tab_id'"],
        ),
        ("nonsense", {}, ["Unknown tool 'nonsense'", "observe"]),
    ],
)
async def test_bad_arguments_are_explained(session, tool, arguments, expected):
    result = await call(session, tool, arguments)
    assert result.is_error
    message = result.content[0].text
    for part in expected:
        assert part in message, message


@pytest.mark.anyio
async def test_without_a_browser_the_error_says_how_to_connect_one(session):
    result = await call(session, "observe", {"what": "page"})
    assert result.is_error
    message = result.content[0].text
    assert "tabsight install" in message and "Load unpacked" in message and "TABSIGHT_BROWSER" in message


def test_every_tool_schema_is_an_object_and_every_argument_is_documented():
    """Clients get an object schema that refuses unknown arguments; docs/tools.md (the documented schema) says
    what every argument means, also where the schema clients list leaves it to the name and the summaries."""
    for tool in TOOLS.values():
        schema = tool.definition().input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        documented = tool.documented()["properties"]
        assert set(documented) == set(schema["properties"])
        for name, prop in documented.items():
            assert prop.get("description"), f"{tool.name}.{name} has no meaning in docs/tools.md"


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z_]+", text.lower()))


@pytest.mark.parametrize("tool", [tool for tool in TOOLS.values() if tool.modes], ids=lambda tool: tool.name)
def test_what_a_mode_needs_the_schema_clients_list_says(tool):
    """An argument a mode needs is described in the schema clients list, or named in the mode's summary or the
    tool's description: the short schema leaves no required argument to be found by trial and error."""
    properties = tool.schema()["properties"]
    nouns = {group.noun for group in tool.params.groups}
    for mode in tool.modes:
        said = _words(f"{mode.summary} {tool.text}")
        for need in mode.needs:
            for name in need.names if isinstance(need, OneOf) else (need,):
                described = name not in nouns and properties[name].get("description")
                assert described or name.lower() in said, f"{tool.name} {mode.name}: '{name}' is nowhere said"


def _constraints(node, path=""):
    """Each range, size, enum, pattern and non-null default of a schema, by where it is (an optional argument's
    anyOf with null read as the type it is when given)."""
    found = {}
    if isinstance(node, dict):
        options = [option for option in node.get("anyOf", ()) if option != {"type": "null"}]
        if len(options) == 1:
            node = {**options[0], **{key: value for key, value in node.items() if key != "anyOf"}}
        for key, value in node.items():
            if key in ("minimum", "maximum", "enum", "pattern", "minItems", "maxItems", "type", "required"):
                found[f"{path}/{key}"] = value
            elif key == "default" and value is not None:
                found[f"{path}/default"] = value
            elif key in ("properties",):
                for name, prop in value.items():
                    found |= _constraints(prop, f"{path}/{name}")
            elif isinstance(value, (dict, list)):
                found |= _constraints(value, f"{path}/{key}")
    elif isinstance(node, list):
        for number, item in enumerate(node):
            found |= _constraints(item, f"{path}/{number}")
    return found


def _keywords(node) -> set[str]:
    """The schema keywords used anywhere in a schema (an argument's name is no keyword)."""
    if isinstance(node, list):
        return set().union(*map(_keywords, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = set(node)
    for key, value in node.items():
        found |= set().union(*map(_keywords, value.values())) if key == "properties" and value else _keywords(value)
    return found


@pytest.mark.parametrize("tool", TOOLS.values(), ids=lambda tool: tool.name)
def test_the_schema_clients_list_keeps_every_range_enum_and_default_and_no_pydantic_noise(tool):
    """The lean schema drops pydantic's titles, null unions, null defaults and $defs, and a string's length
    limits; every type, numeric range, array size, enum, pattern, required list and default stays."""
    listed = tool.schema()
    noise = {"title", "$defs", "$ref", "minLength", "maxLength"}
    assert not _keywords(listed) & noise, _keywords(listed) & noise
    text = json.dumps(listed)
    assert '{"type": "null"}' not in text and '"default": null' not in text
    full = _constraints(tool.documented())
    full = {path: value for path, value in full.items() if not path.endswith("/type") or value != "null"}
    assert _constraints(listed) == full


def test_each_tool_that_quotes_pages_says_the_convention_once():
    for tool in TOOLS.values():
        assert tool.text.count(pagecontent.CONVENTION) == (1 if tool.quotes_pages else 0), tool.name
    assert not TOOLS["generate"].quotes_pages and all(
        TOOLS[name].quotes_pages for name in ("observe", "screenshot", "configure", "interact")
    )


def test_the_tool_list_stays_within_its_budget():
    """What every client puts in the model's context: at most 0.6x Playwright MCP 0.0.83's tool list (5,075
    tokens, bench/toollist_bench.py), here as characters / 4, one of the counts the bench takes the worse of."""
    listed = [tool.definition().model_dump(by_alias=True, exclude_none=True, mode="json") for tool in TOOLS.values()]
    characters = sum(len(json.dumps(tool, separators=(",", ":"), ensure_ascii=False)) for tool in listed)
    assert characters / 4 <= 0.6 * 5_075, characters


@pytest.mark.parametrize(
    ("host_version", "extension_version", "fix"),
    [("0.0.1", None, "restart the browser"), (None, "0.0.1", "reload the extension at chrome://extensions")],
)
def test_version_skew_names_the_fix(mocker, host_version, extension_version, fix):
    from tabsight import __version__
    from tabsight.browser.connection import check_versions
    from tabsight.errors import BrowserError, Code
    from tabsight.protocol.frames import ExtensionInfo, Hello

    hello = Hello(
        role="host",
        version=host_version or __version__,
        extension=ExtensionInfo(version=extension_version or __version__),
    )
    with pytest.raises(BrowserError) as info:
        check_versions(mocker.Mock(hello=hello))
    assert info.value.code is Code.VERSION_MISMATCH and fix in info.value.message
    check_versions(mocker.Mock(hello=hello.replace(version=__version__, extension=ExtensionInfo(version=__version__))))
