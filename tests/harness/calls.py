"""MCP calls as a run judges them: the text of an answer, its JSON payload or refusal, a call that failed, a
percentile of call times."""

from __future__ import annotations

import json

from mcp_types import CallToolResult


class Failed(Exception):
    """A call or sample that errored or whose answer was not what the bench expects."""


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")


def payload(result: CallToolResult) -> dict:
    """The JSON answer of a call that must have succeeded: its last text block that is a JSON object
    other than the ``_alerts`` block alerts ride on and the ``_notes`` block (either may come with any
    answer; an attached image may come with a caption)."""
    assert not result.is_error, result.content[0].text
    for block in reversed(result.content):
        if block.type != "text":
            continue
        try:
            data = json.loads(block.text)
        except ValueError:
            continue
        if isinstance(data, dict) and not set(data) <= {"_alerts", "_alerts_dropped", "_notes"}:
            return data
    raise AssertionError(f"no JSON answer in {result.content!r}")


def notes(result: CallToolResult) -> list[str]:
    """The notes an answer carries: what changed under the session since its last answer."""
    for block in result.content:
        if block.type == "text" and block.text.startswith('{"_notes"'):
            return json.loads(block.text)["_notes"]
    return []


def refusal(result: CallToolResult) -> str:
    """The message of a call that must have failed."""
    assert result.is_error, result.content[-1].text
    return result.content[0].text


async def script(client, source: str):
    """What a page script returns, run in the tracked tab through interact execute (which must succeed)."""
    result = payload(await client.call_tool("interact", {"action": "execute", "script": source}))
    assert "error" not in result["script"], result["script"]
    return result["script"]["result"]


async def tracked_tab(client) -> int:
    """The id of the tab the client's session works on (on the embedded browser, a tab of its own)."""
    listing = payload(await client.call_tool("observe", {"what": "tabs"}))
    (tab_id,) = [tab["id"] for browser in listing["browsers"] for tab in browser["tabs"] if tab.get("tracked")]
    return tab_id


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
