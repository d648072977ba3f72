"""Every line sent to ``tabsight mcp`` is answered: raw JSON-RPC over stdio, hostile lines included.

A real ``python -m tabsight mcp`` subprocess (no browser: TABSIGHT_BROWSER=never,
a temporary runtime folder) is sent raw lines after the handshake. Each
hostile one must get a JSON-RPC error (with the request's id when the line
still shows it), a line on stderr naming the refusal without quoting
megabytes, and the server must go on answering (tools/list) afterwards.
"""

from __future__ import annotations

import json
import os
import time

import anyio
import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

from harness.rawmcp import TIMEOUT, RawServer
from tabsight.server.stdio import MAX_LINE_BYTES, encode_answer, read_message, reader_gone, stdio_transport


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    runtime = tmp_path_factory.mktemp("stdio-runtime")
    os.chmod(runtime, 0o700)
    raw = RawServer(runtime)
    initialized = raw.request(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    )
    assert initialized["result"]["serverInfo"]["name"] == "tabsight"
    raw.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield raw
    raw.close()
    assert raw.process.returncode == 0, "".join(raw.stderr)[-2000:]


def call(request_id, arguments: str | bytes) -> bytes:
    """A tools/call line whose arguments are the given raw JSON text (or bytes)."""
    if isinstance(arguments, str):
        arguments = arguments.encode()
    head = f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"method":"tools/call","params":{{"name":"interact","arguments":'
    return head.encode() + arguments + b"}}"


def nested(depth: int) -> str:
    return '{"action":"execute","script":' + "[" * depth + "]" * depth + "}"


HOSTILE = {
    # name: (line, code, id the answer carries, what stderr names)
    "nested 400 deep": (call(1, nested(400)), -32600, 1, "nested 403 levels deep"),
    "nested 10,000 deep": (call(2, nested(10_000)), -32600, 2, "nested 10,003 levels deep"),
    "lone high surrogate, escaped": (
        call(3, '{"action":"type","text":"a\\ud800b"}'),
        -32700,
        3,
        "lone surrogate \\ud800",
    ),
    "lone low surrogate, escaped": (
        call("four", '{"action":"type","text":"\\udc00"}'),
        -32700,
        "four",
        "lone surrogate \\udc00",
    ),
    "invalid UTF-8 bytes": (call(5, b'{"action":"type","text":"\xff\xfe"}'), -32700, 5, "not UTF-8 (byte 0xff"),
    "a surrogate encoded in UTF-8": (
        call(6, b'{"action":"type","text":"\xed\xa0\x80"}'),
        -32700,
        6,
        "not UTF-8 (byte 0xed",
    ),
    "not JSON": (b"this is not JSON at all", -32700, None, "Parse error"),
    "cut short": (b'{"jsonrpc":"2.0","id":7,"method":"tools/list"', -32700, 7, "Parse error"),
    "a JSON array": (b'[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]', -32600, None, "batches are not supported"),
    "a JSON string": (b'"tools/list"', -32600, None, "not a JSON object"),
    "a request without method": (b'{"jsonrpc":"2.0","id":9,"params":{}}', -32600, 9, "no method"),
    "a method that is not a string": (b'{"jsonrpc":"2.0","id":10,"method":["tools/list"]}', -32600, 10, "method"),
    "an id that is neither string nor integer": (
        b'{"jsonrpc":"2.0","id":[11],"method":"tools/list"}',
        -32600,
        None,
        "id must be a string or an integer",
    ),
    "params that are not an object": (
        b'{"jsonrpc":"2.0","id":12,"method":"tools/list","params":5}',
        -32600,
        12,
        "params",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_line_is_answered_logged_and_survived(server, name):
    line, code, request_id, named = HOSTILE[name]
    mark = server.send_marked(line)
    answer = server.answer()
    assert answer["id"] == request_id and answer["error"]["code"] == code, answer
    assert "result" not in answer and len(answer["error"]["message"]) <= 300
    logged = server.stderr_line("refused", named, since=mark)
    assert len(logged) < 1000
    assert (f"id {json.dumps(request_id)}" if request_id is not None else "no id") in logged
    # the server goes on answering
    assert [tool["name"] for tool in server.request("tools/list")["result"]["tools"]][0] == "observe"


def test_a_20_mb_line_is_refused_with_its_id_and_not_quoted(server):
    script = "a" * (20 * 1024 * 1024)
    line = call(21, json.dumps({"action": "execute", "script": script}))
    started = time.monotonic()
    mark = server.send_marked(line)
    answer = server.answer()
    assert answer["id"] == 21 and answer["error"]["code"] == -32600, answer
    assert f"over the limit of {MAX_LINE_BYTES:,}" in answer["error"]["message"]
    logged = server.stderr_line("refused", "id 21", f"the line is {len(line):,} bytes", since=mark)
    assert len(logged) < 1000  # the start of the line, never megabytes
    assert time.monotonic() - started < 10
    assert server.request("tools/list")["result"]["tools"]
    # a line just under the limit still reaches the server (and the tool's own checks)
    fits = call(22, json.dumps({"action": "execute", "script": "1;" + " " * (MAX_LINE_BYTES - 200)}))
    server.send(fits)
    answer = server.answer()
    assert answer["id"] == 22 and "result" in answer, str(answer)[:500]


def test_errors_the_sdk_answers_are_named_on_stderr_too(server):
    unknown = server.request("no/such/method")
    assert unknown["error"]["code"] == -32601
    server.stderr_line("refused", '"no/such/method"', "-32601")
    bad_params = server.request("tools/call", {"arguments": {}})
    assert bad_params["error"]["code"] == -32602
    server.stderr_line("refused", '"tools/call"', f"id {server.next_id}", "-32602")


def test_blank_lines_and_a_burst_of_mixed_lines_keep_order_and_answers(server):
    server.send(b"")
    server.send(b"   ")
    ids = []
    for n in range(30):
        server.next_id += 1
        ids.append(server.next_id)
        if n % 3 == 0:
            server.send(call(server.next_id, nested(300)))
        elif n % 3 == 1:
            server.send(json.dumps({"jsonrpc": "2.0", "id": server.next_id, "method": "ping"}).encode())
        else:
            server.send(call(server.next_id, '{"text":"\\ud834"}'))
    answers = [server.answer() for _ in ids]
    assert sorted(answer["id"] for answer in answers) == ids
    assert all(("result" in a) == ((a["id"] - ids[0]) % 3 == 1) for a in answers)


def test_a_tool_call_is_still_answered_after_all_this(server):
    answer = server.request("tools/call", {"name": "observe", "arguments": {"what": "nothing"}})
    assert answer["result"]["isError"] and "'what' is 'nothing'" in answer["result"]["content"][0]["text"]


# ---- in-process: what the transport writes and reads ----


def test_an_answer_with_a_lone_surrogate_is_written_as_valid_utf8():
    """A tool's text with a lone surrogate (a page's broken string, say) reaches the client, the
    surrogate replaced; the SDK's writer raised there and the session died. Stdin ends right after the
    last request, as with ``echo ... | tabsight mcp``: the requests in flight are answered all the same."""

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(type="text", text="broken \ud800 string")])

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[])

    server = Server("t", on_call_tool=call_tool, on_list_tools=list_tools)
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "x", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
    ]
    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()

    async def main():
        with (
            anyio.fail_after(TIMEOUT),
            os.fdopen(stdin_r, "rb", buffering=0) as stdin,
            os.fdopen(stdout_w, "wb") as stdout,
        ):
            async with stdio_transport(stdin, stdout) as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

    with os.fdopen(stdin_w, "wb") as feed:
        feed.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    anyio.run(main)
    with os.fdopen(stdout_r, "rb") as out:
        answers = [json.loads(line.decode("utf-8")) for line in out.read().splitlines()]
    assert [answer["id"] for answer in answers] == [1, 2, 3]
    assert answers[1]["result"]["content"][0]["text"] == "broken \ufffd string"


def test_encode_answer_keeps_what_needs_no_repair():
    answer = types.JSONRPCResponse(jsonrpc="2.0", id=7, result={"text": "héllo ✓ \U0001f600"})
    from mcp.shared.message import SessionMessage

    assert json.loads(encode_answer(SessionMessage(answer))) == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {"text": "héllo ✓ \U0001f600"},
    }


def test_read_message_recovers_the_id_wherever_it_stands():
    refused = read_message(
        b'{"jsonrpc":"2.0","method":"x","params":{"id":1,"a":' + b"[" * 300 + b"]" * 300 + b'},"id":"late"}'
    )
    assert refused.id == "late"
    refused = read_message(b'{"method":"x","id":"esc\\"aped","params":"\\ud800"}')
    assert refused.id == 'esc"aped' and refused.code == -32700
    assert read_message(b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":"\\ud83d\\ude00"}}').message.id == 5


def test_reader_gone_tells_a_closed_pipe():
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as stdout:
        assert not reader_gone(stdout)
        os.close(read_end)
        assert reader_gone(stdout)
