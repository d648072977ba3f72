"""MCP calls as a run judges them: the text of an answer, its JSON payload or refusal, a call that failed, a
percentile of call times.

What an answer quotes from pages is a page-content region (``tabsight.pagecontent``): its JSON, its compact
form, its ``_alerts`` list, a browser error's message. ``region`` reads one back; ``payload``, ``alerts`` and
``refusal`` read through them."""

from __future__ import annotations

import json
import re

from mcp_types import CallToolResult

#: one page-content region: its id, and its text
REGION = re.compile(r"<page-content id=([A-Z0-9]{6})>(.*?)</page-content id=\1>", re.DOTALL)


class Failed(Exception):
    """A call or sample that errored or whose answer was not what the bench expects."""


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")


def region(text: str) -> str:
    """The text of ``text``, which must be one page-content region and nothing else."""
    found = REGION.fullmatch(text)
    assert found, f"not one page-content region: {text[:200]!r}"
    return found.group(2)


def unmarked(text: str) -> str:
    """``text`` without the markers of its page-content regions (their text left where it was)."""
    return REGION.sub(r"\2", text)


def payload(result: CallToolResult) -> dict:
    """The JSON answer of a call that must have succeeded: its last text block that is a JSON object
    (in a page-content region, but for a tool that quotes no page) other than the ``_notes`` block (which may
    come with any answer; so may the ``_alerts`` block, and an attached image with a caption)."""
    assert not result.is_error, result.content[0].text
    data = json_block(result)
    if data is None:
        raise AssertionError(f"no JSON answer in {result.content!r}")
    return data


def json_block(result: CallToolResult) -> dict | None:
    """The last text block of an answer that is a JSON object other than the ``_notes`` block; None."""
    for block in reversed(result.content):
        if block.type != "text":
            continue
        try:
            data = json.loads(unmarked(block.text))
        except ValueError:
            continue
        if isinstance(data, dict) and set(data) != {"_notes"}:
            return data
    return None


def json_blocks(result: CallToolResult) -> list:
    """The JSON of each text block of a call that must have succeeded, read through its page-content region;
    the ``_alerts`` block as ``{"_alerts": [...]}``."""
    assert not result.is_error, result.content[0].text
    texts = [block.text for block in result.content if block.type == "text"]
    return [{"_alerts": alerts(result)} if text.startswith("_alerts") else json.loads(unmarked(text)) for text in texts]


def alerts(result: CallToolResult) -> list | None:
    """The ``_alerts`` an answer carries (``_alerts: `` and their list as a page-content region), or None."""
    for block in result.content:
        if block.type == "text" and block.text.startswith("_alerts"):
            return json.loads(region(block.text.split(": ", 1)[1]))
    return None


def notes(result: CallToolResult) -> list[str]:
    """The notes an answer carries: what changed under the session since its last answer."""
    for block in result.content:
        if block.type == "text" and block.text.startswith('{"_notes"'):
            return json.loads(block.text)["_notes"]
    return []


def refusal(result: CallToolResult) -> str:
    """The message of a call that must have failed (a browser's is a page-content region: its text)."""
    assert result.is_error, result.content[-1].text
    return unmarked(result.content[0].text)


async def script(client, source: str):
    """What a page script returns, run in the tracked tab through interact execute (which must succeed)."""
    result = payload(await client.call_tool("interact", {"action": "execute", "script": source}))
    assert "error" not in result["script"], result["script"]
    return result["script"]["result"]


async def tracked_tab(client) -> int:
    """The id of the tab the client's session works on (on the embedded browser, a tab of its own, made by the
    first call that needs one: a screenshot is such a call, observe tabs is not)."""
    listing = payload(await client.call_tool("observe", {"what": "tabs"}))
    if "tracked" in listing:  # none yet
        assert not (await client.call_tool("screenshot", {})).is_error
        listing = payload(await client.call_tool("observe", {"what": "tabs"}))
    (tab_id,) = [tab["id"] for browser in listing["browsers"] for tab in browser["tabs"] if tab.get("tracked")]
    return tab_id


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
