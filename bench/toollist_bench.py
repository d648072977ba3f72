"""What the tool list costs an agent, in tokens: what every MCP client puts in the model's context.

    .venv/bin/python bench/toollist_bench.py [--playwright-mcp PATH/TO/cli.js] [--chromium PATH]

Each server is started through the official MCP SDK client (`python -m tabsight mcp`, and Playwright MCP from
bench/peers), asked `list_tools()`, and each tool is dumped as the client receives it
(``model_dump(by_alias=True, exclude_none=True, mode="json")``: name, description, input schema,
annotations), serialised as compact JSON and counted with bench/tokencount.py (the worse of characters / 4
and the real tokenizers). No browser is needed: listing the tools opens none.

Target (the tool-list issue): tabsight's whole list at most 0.6x Playwright MCP's. Results: a markdown table
per tool for both servers, the totals and their ratio, and bench/results/toollist.json.

``tool_list`` and ``weigh`` are reusable: another benchmark imports them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import PLAYWRIGHT, TABSIGHT, describe, peer_arguments, playwright_server, tabsight_server, workspace
from tokencount import count

RESULTS = Path(__file__).parent / "results"
#: tabsight's list against Playwright MCP's, at most
TARGET_RATIO = 0.6


async def tool_list(server_params: StdioServerParameters) -> list[dict[str, Any]]:
    """The server's tools as a client receives them, each a JSON-ready dict."""
    async with Client(server_params, read_timeout_seconds=60) as client:
        tools = (await client.list_tools()).tools
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in tools]


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def weigh(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Each tool's tokens (its compact JSON) and characters, and the list's total (the sum of the tools')."""
    texts = [compact_json(tool) for tool in tools]
    tokens = count(texts)
    per_tool = {
        tool["name"]: {"tokens": n, "chars": len(text)} for tool, text, n in zip(tools, texts, tokens, strict=True)
    }
    return {"tools": per_tool, "total": sum(tokens), "chars": sum(len(text) for text in texts)}


def table(weighed: dict[str, dict[str, Any]]) -> str:
    lines = []
    for server, found in weighed.items():
        if "error" in found:
            lines += [f"{server}: skipped ({found['error']})", ""]
            continue
        lines += [f"### {server}", "", "| tool | tokens | characters |", "|---|---:|---:|"]
        lines += [f"| {name} | {row['tokens']:,} | {row['chars']:,} |" for name, row in found["tools"].items()]
        lines += [f"| **total ({len(found['tools'])} tools)** | **{found['total']:,}** | **{found['chars']:,}** |", ""]
    ours, theirs = weighed.get(TABSIGHT, {}), weighed.get(PLAYWRIGHT, {})
    if "total" in ours and "total" in theirs:
        ratio = ours["total"] / theirs["total"]
        verdict = "met" if ratio <= TARGET_RATIO else "not met"
        lines.append(
            f"{TABSIGHT} / {PLAYWRIGHT}: {ours['total']:,} / {theirs['total']:,} = {ratio:.2f}x "
            f"(target <= {TARGET_RATIO}x, {TARGET_RATIO * theirs['total']:,.0f} tokens: {verdict})"
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    peer_arguments(parser)
    args = parser.parse_args()
    _, runtime = workspace()
    servers: dict[str, StdioServerParameters | None] = {TABSIGHT: tabsight_server(runtime, args.chromium)}
    with tempfile.TemporaryDirectory(prefix="tabsight-toollist-") as tmpdir:
        playwright = Path(args.playwright_mcp)
        servers[PLAYWRIGHT] = (
            playwright_server(str(playwright), args.chromium, Path(tmpdir)) if playwright.is_file() else None
        )
        weighed: dict[str, dict[str, Any]] = {}
        for server, params in servers.items():
            if params is None:
                weighed[server] = {"error": f"not installed at {args.playwright_mcp}: run bench/peers/install.sh"}
                continue
            try:
                weighed[server] = weigh(await tool_list(params))
            except Exception as error:  # noqa: BLE001 -- a server that fails is reported in the table, not fatal
                weighed[server] = {"error": describe(error)[:300]}
    print(table(weighed))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "toollist.json").write_text(json.dumps(weighed, indent=1) + "\n")


if __name__ == "__main__":
    anyio.run(main)
