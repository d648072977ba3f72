"""MCP calls as a run judges them: the text of an answer, a call that failed, a percentile of call times."""

from __future__ import annotations

from mcp_types import CallToolResult


class Failed(Exception):
    """A call or sample that errored or whose answer was not what the bench expects."""


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
