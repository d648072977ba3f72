"""What `tabsight mcp` does before the MCP SDK is loaded (issue 19): the opening request answered as the SDK
answers it, and the embedded browser started ahead of the first tool call that needs one.

The SDK's own answers come from the real server (``build_server``) over the real transport, in-process, with
nothing answered ahead: every answer given ahead must be exactly that, for every protocol version and for any
request the property test makes up; what it cannot vouch for is left to the SDK. Then real fronts, as clients
start them: the answer comes before the SDK is imported, and the browser started ahead is the session's,
shared with a front starting beside it, never started with TABSIGHT_BROWSER=never, and gone with a session
that did not come to need it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import anyio
import pytest
from hypothesis import given, settings, strategies as st

from harness.lifecycle import RawFront
from harness.processes import wait_until
from tabsight.server import handshake
from tabsight.server.app import build_server
from tabsight.server.handshake import Early
from tabsight.server.stdio import stdio_transport
from tabsight.session.state import Session

CLIENT = {"name": "raw", "version": "0"}


def initialize(version: str = "2025-06-18", **params) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT, **params},
    }


def discover(version: str = "2026-07-28", **meta) -> dict:
    envelope = {
        handshake.PROTOCOL_VERSION_KEY: version,
        handshake.CLIENT_INFO_KEY: CLIENT,
        handshake.CLIENT_CAPABILITIES_KEY: {},
        **meta,
    }
    return {"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": {"_meta": envelope}}


def sdk_answer(message: dict) -> dict:
    """What the SDK's server answers to ``message`` as a session's first line."""
    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    server = build_server(Session())

    async def serve():
        with anyio.fail_after(20), os.fdopen(stdin_r, "rb", buffering=0) as stdin, os.fdopen(stdout_w, "wb") as out:
            async with stdio_transport(stdin, out) as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    with os.fdopen(stdin_w, "wb") as feed:
        feed.write(json.dumps(message).encode() + b"\n")
    anyio.run(serve)
    with os.fdopen(stdout_r, "rb") as out:
        return json.loads(out.readline())


def answered_ahead(message: dict) -> dict | None:
    opening = handshake.opening_request(json.dumps(message).encode())
    return None if opening is None else {"jsonrpc": "2.0", "id": opening[0], "result": opening[1]}


OPENINGS = {
    **{f"initialize {version}": initialize(version) for version in handshake.HANDSHAKE_VERSIONS},
    "initialize, a version the SDK does not speak": initialize("1999-01-01"),
    "initialize, a 2026 version (no handshake there)": initialize("2026-07-28"),
    "initialize, every capability a client sends": initialize(
        capabilities={
            "roots": {"listChanged": True},
            "sampling": {"context": {}, "tools": {}},
            "elicitation": {"form": {}},
            "experimental": {"x": {}},
            "tasks": {"requests": {"sampling": {"createMessage": {}}}},
        }
    ),
    "server/discover 2026-07-28": discover(),
}


@pytest.mark.parametrize("name", list(OPENINGS))
def test_the_opening_is_answered_ahead_exactly_as_the_sdk_answers_it(name):
    message = OPENINGS[name]
    assert answered_ahead(message) == sdk_answer(message)


LEFT_TO_THE_SDK = {
    "a capability of a shape the SDK refuses": initialize(capabilities={"roots": 5}),
    "clientInfo without a version": initialize(clientInfo={"name": "raw"}),
    "_meta on initialize": initialize(_meta={"progressToken": 1}),
    "icons": initialize(clientInfo={**CLIENT, "icons": [{"src": "https://example.com/i.png"}]}),
    "a 2026 version the SDK does not speak": discover("2027-01-01"),
    "an envelope without client capabilities": {
        **discover(),
        "params": {"_meta": {handshake.PROTOCOL_VERSION_KEY: "2026-07-28"}},
    },
    "a batch": [initialize()],
}


@pytest.mark.parametrize("name", list(LEFT_TO_THE_SDK))
def test_what_it_cannot_vouch_for_is_left_to_the_sdk(name):
    assert answered_ahead(LEFT_TO_THE_SDK[name]) is None


def test_the_sdk_refuses_what_is_left_to_it_when_it_is_wrong():
    """The point of leaving them: answered ahead, these would have been a success the SDK does not give."""
    for name in (
        "a capability of a shape the SDK refuses",
        "clientInfo without a version",
        "a 2026 version the SDK does not speak",
    ):
        assert "error" in sdk_answer(LEFT_TO_THE_SDK[name]), name


def test_the_versions_and_the_tools_are_the_sdks_and_ours():
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    from tabsight.tools import TOOLS

    assert handshake.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS
    assert handshake.MODERN_VERSIONS == MODERN_PROTOCOL_VERSIONS
    assert handshake.BROWSER_TOOLS <= set(TOOLS)


#: mostly the shapes clients send, with the odd value the SDK refuses (or takes) mixed in
CAPABILITY = st.recursive(
    st.just({}) | st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.dictionaries(
        st.sampled_from(["context", "tools", "form", "url", "listChanged", "createMessage", "x"]),
        children,
        max_size=3,
    ),
    max_leaves=6,
)
PARAMS = st.fixed_dictionaries(
    {
        "protocolVersion": st.sampled_from([*handshake.HANDSHAKE_VERSIONS, "2026-07-28", "x"]) | st.integers(),
        "capabilities": st.dictionaries(
            st.sampled_from(["roots", "sampling", "elicitation", "experimental", "extensions", "tasks", "other"]),
            st.one_of(st.just({}), st.just({}), st.just({}), CAPABILITY),
            max_size=3,
        ),
        "clientInfo": st.fixed_dictionaries(
            {"name": st.text(max_size=5), "version": st.text(max_size=5)},
            optional={"title": st.text(max_size=5) | st.none() | st.integers(), "websiteUrl": st.text(max_size=5)},
        )
        | st.fixed_dictionaries({"name": st.text(max_size=5) | st.integers()}),
    },
)


@settings(max_examples=80, deadline=None)
@given(PARAMS)
def test_any_initialize_answered_ahead_is_the_sdks_answer(params):
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    early = answered_ahead(message)
    if early is not None:
        assert early == sdk_answer(message)


def test_the_answer_needs_no_sdk():
    """The opening is answered by what runs before the SDK is imported: in a fresh interpreter, the answer comes
    back and no module of the SDK (nor pydantic) has been loaded."""
    script = """
import functools, json, os, sys
from tabsight.server.handshake import Early
from tabsight.server.lines import LinePump, write_line
stdin_r, stdin_w = os.pipe()
stdout_r, stdout_w = os.pipe()
stdout = os.fdopen(stdout_w, "wb")
early = Early(functools.partial(write_line, stdout))
pump = LinePump(os.fdopen(stdin_r, "rb"), early.inspect)
os.write(stdin_w, json.dumps(json.loads(sys.argv[1])).encode() + b"\\n")
answer = os.fdopen(stdout_r, "rb").readline()
loaded = sorted(name for name in sys.modules if name.split(".")[0] in ("mcp", "mcp_types", "pydantic"))
print(json.dumps({"answer": json.loads(answer), "loaded": loaded}))
"""
    for message in (initialize(), discover()):
        run = subprocess.run(
            [sys.executable, "-c", script, json.dumps(message)], capture_output=True, text=True, timeout=30, check=True
        )
        out = json.loads(run.stdout)
        assert out == {"answer": sdk_answer(message), "loaded": []}


def test_a_real_front_answers_ahead_and_the_session_goes_on(tmp_path):
    """Over a real `tabsight mcp`: the opening answered ahead, then the SDK's session serves the rest, and its
    own answer to the opening is not sent again (nor found to differ: stderr would say so)."""
    front = RawFront(TABSIGHT_BROWSER="never")
    try:
        for message in (
            initialize("2025-11-25"),
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ):
            front.send(message)
        assert front.answer(1)["result"] == sdk_answer(initialize("2025-11-25"))["result"]
        assert [tool["name"] for tool in front.answer(2)["result"]["tools"]][0] == "observe"
        assert front.stop("stdin") < 10 and front.process.returncode == 0
        assert front.answers.empty(), "the opening was answered twice"
        assert "answered ahead" not in front.log(), front.log()
    finally:
        front.close()


def test_never_means_no_browser_is_started_ahead(tmp_path):
    front = RawFront(TABSIGHT_BROWSER="never").initialize()
    try:
        answer = front.answer(front.call("screenshot", {"url": "https://example.com"}))
        assert answer["result"]["isError"] and "No browser is connected" in answer["result"]["content"][0]["text"]
        assert front.chain() == [front.process.pid]
    finally:
        front.close()


@pytest.mark.browser
def test_a_browser_started_ahead_of_a_call_refused_goes_with_the_session(site):
    """The first call is refused for its arguments, once the browser it started ahead is up; the session then
    ends without another call: that browser goes with it, and nothing is left."""
    front = RawFront().initialize()
    try:
        answer = front.answer(front.call("screenshot", {"url": site.url("/index.html"), "width": 1}))
        assert answer["result"]["isError"], answer
        assert wait_until(lambda: list(front.runtime.glob("host-*.sock")), 30), "no browser was started ahead"
        assert front.stop("stdin") < 10
        processes, temp, runtime = front.left()
        assert (processes, temp, runtime) == ([], [], [])
    finally:
        front.close()


@pytest.mark.browser
def test_two_fronts_starting_together_share_the_browser_started_ahead(site):
    """Two clients start at once and both call a tool: one browser, started ahead by one front, serves both."""
    first = RawFront()
    second = RawFront(TABSIGHT_RUNTIME_DIR=str(first.runtime), TMPDIR=str(first.temp))
    try:
        calls = [
            front.initialize().call("screenshot", {"url": site.url("/index.html"), "format": "png"})
            for front in (first, second)
        ]
        for front, call in zip((first, second), calls):
            answer = front.answer(call)
            assert answer["result"]["content"][0]["type"] == "image", answer
        assert len(list(first.runtime.glob("host-*.sock"))) == 1
        commands = [_command(pid) for pid in first.chain()]
        assert len([cmd for cmd in commands if "--user-data-dir=" in cmd and "--type=" not in cmd]) == 1, commands
    finally:
        second.close()
        first.close()


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def progress_of(line: bytes) -> dict | None:
    message = json.loads(line)
    return message["params"] if message.get("method") == "notifications/progress" else None


def test_a_call_read_before_the_sdk_serves_hears_progress_until_its_handler_takes_over():
    """Half a second after its line was read, then every 0.9 s, as the server's own reports; its handler then
    goes on from the same start and value (``take``), and nothing more is sent from here."""
    from tabsight.progress import EVERY, FIRST

    written: list[bytes] = []
    early = Early(written.append)
    early.inspect(json.dumps(initialize()).encode())
    early.inspect(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "observe", "arguments": {}, "_meta": {"progressToken": "t"}},
            }
        ).encode()
    )
    time.sleep(FIRST + EVERY + 0.3)
    reports = [params for params in map(progress_of, written[1:]) if params]
    assert len(reports) == 2 and all(report["progressToken"] == "t" for report in reports), reports
    assert reports[0]["progress"] < reports[1]["progress"] and reports[0]["message"].startswith("loading tabsight")
    taken = early.take(2)
    assert taken is not None and taken.last == reports[-1]["progress"]
    time.sleep(EVERY + 0.3)
    assert len(written) == 3 and early.take(2) is None


def test_a_call_the_sdk_refuses_before_any_handler_hears_no_progress_after_its_answer(tmp_path):
    """A tools/call the SDK answers itself (no tool name: -32602) ends the reports sent for it while it loaded."""
    front = RawFront(TABSIGHT_BROWSER="never")
    try:
        front.send(initialize())
        front.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        front.send(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"arguments": {}, "_meta": {"progressToken": "t"}},
            }
        )
        assert front.answer(1)["result"]["serverInfo"]["name"] == "tabsight"
        assert front.answer(2)["error"]["code"] == -32602
        time.sleep(1.5)
        assert front.answers.empty(), front.answers.get()
    finally:
        front.close()
