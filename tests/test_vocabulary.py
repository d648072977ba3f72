"""One contract on both sides of the browser boundary: error codes, alert categories and method names, and clear
launch failures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mcp.client.stdio import stdio_client

import tabsight
from conftest import front_env, front_params, mcp_client
from harness.calls import refusal
from tabsight.alerts import CATEGORIES, EVENTS, TAXONOMY
from tabsight.errors import HINTS, Code
from tabsight.nativehost.router import Host
from tabsight.paths import extension_dir
from tabsight.protocol.methods import EXTENSION, HOST
from tabsight.session.streaming import BATCH
from tabsight.tools.configure import ConfigureParams

EXTENSION_DIR = extension_dir()
PACKAGE = Path(tabsight.__file__).parent
ROOT = Path(__file__).resolve().parent.parent


def js(name: str) -> str:
    return (EXTENSION_DIR / name).read_text()


def test_the_extension_and_python_define_the_same_error_codes():
    body = re.search(
        r"export const Code = Object\.freeze\(\{(.*?)\}\);", js("service-worker/errors.js"), re.DOTALL
    ).group(1)
    in_js = dict(re.findall(r"(\w+): '([a-z_]+)'", body))
    assert in_js == {code.name: code.value for code in Code}


def test_every_code_has_a_hint_that_says_what_to_do():
    assert set(HINTS) == set(Code)
    assert all(hint.endswith(".") and len(hint) > 20 for hint in HINTS.values())


def test_the_extension_names_codes_only_through_the_vocabulary():
    for path in sorted(EXTENSION_DIR.rglob("*.js")):
        text = path.read_text()
        name = path.relative_to(EXTENSION_DIR)
        assert not re.search(r"TabsightError\(\s*['\"`]", text), f"{name}: a code written out; use Code.X"
        assert not re.search(r"code === ['\"`]", text), f"{name}: a code compared as a string; use Code.X"
    # the page-side library's parts are classic scripts and cannot import the vocabulary: its codes must still be in it
    page_side = "".join(path.read_text() for path in EXTENSION_DIR.glob("page-library/*.js"))
    written_out = set(re.findall(r"error: '([a-z_]+)'", page_side))
    assert written_out and written_out <= {code.value for code in Code}


def test_the_alert_categories_made_filtered_and_documented_are_the_taxonomys():
    # made: the category of every alert the host's detectors and a front's stream put together
    made = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        made |= set(re.findall(r'\bAlert\(\s*"(\w+)"', text)) | set(re.findall(r'"category": "(\w+)"', text))
    assert made == set(CATEGORIES) and BATCH not in EVENTS  # a batch sums alerts up: it is none of them
    # filtered: what configure streaming's events take
    assert ConfigureParams.model_json_schema()["properties"]["events"]["items"]["enum"] == list(EVENTS)
    # documented: docs/wire-protocol.md's table, row for row, and docs/telemetry.md's events
    doc = (ROOT / "docs" / "wire-protocol.md").read_text()
    table = re.search(r"### Alert categories\n.*?\|---[|-]*\n((?:\|[^\n]*\n)+)", doc, re.DOTALL).group(1)
    documented = [[cell.strip() for cell in line.strip().strip("|").split(" | ")] for line in table.splitlines()]
    assert documented == [
        [
            f"`{c.name}`",
            c.made_by,
            c.meaning,
            ", ".join(f"`{e}`" for e in (c.name, *c.under, "all")),
            "yes" if c.url_filtered else "no",
        ]
        for c in TAXONOMY
    ]
    streaming = re.search(
        r"`events`: (.*?); `url_filter`", (ROOT / "docs" / "telemetry.md").read_text(), re.DOTALL
    ).group(1)
    assert sorted(re.findall(r"`(\w+)`", streaming)) == sorted(EVENTS)


def test_the_extension_serves_exactly_the_extension_methods_and_the_host_the_rest():
    table = re.search(r"const methods = \{(.*?)\n\};", js("service-worker/background.js"), re.DOTALL).group(1)
    served = set(re.findall(r"^\s*'?([a-z_.]+)'?:", table, re.MULTILINE))
    assert served == {method.value for method in EXTENSION}
    assert set(Host._own_methods) == {method.value for method in HOST}


@pytest.mark.anyio
async def test_a_browser_that_cannot_start_is_a_clear_error_without_a_traceback(tmp_path: Path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = front_env(TABSIGHT_CHROMIUM="/nonexistent/chromium", TABSIGHT_RUNTIME_DIR=str(runtime))
    env.pop("TABSIGHT_BROWSER", None)
    stderr = tmp_path / "front.stderr"
    with stderr.open("w") as errlog:
        async with mcp_client(server=stdio_client(front_params(env), errlog=errlog)) as client:
            result = await client.call_tool("observe", {"what": "page"})
            shot = await client.call_tool("screenshot", {"url": "http://127.0.0.1:9/"})
    assert result.is_error
    message = refusal(result)
    assert message.startswith("Failed to launch browser: /nonexistent/chromium: No such file or directory.")
    assert "TABSIGHT_CHROMIUM" in message and "apt-get install chromium" in message
    assert "Internal error" not in message
    assert refusal(shot).startswith("Screenshot capture failed: Failed to launch browser")
    assert "Traceback" not in stderr.read_text()


def test_the_extension_and_python_enforce_the_same_limits():
    from tabsight import limits

    in_js = dict(re.findall(r"export const ([A-Z_]+) = ([\d_]+);", js("service-worker/limits.js")))
    in_python = {name: value for name, value in vars(limits).items() if name.isupper()}
    assert {name: int(value.replace("_", "")) for name, value in in_js.items()} == in_python
    # and nothing in the extension writes one of them out again
    for path in sorted(EXTENSION_DIR.rglob("*.js")):
        name = path.relative_to(EXTENSION_DIR).as_posix()
        if name != "service-worker/limits.js":
            assert not re.search(rf"const ({'|'.join(in_js)}) =", path.read_text()), name
