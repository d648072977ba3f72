"""``tabsight mcp``: the MCP server over stdio, built on the official SDK's low-level Server.

The server answers ``initialize`` and ``tools/list`` without touching a
browser; the browser is found (or started) on the first tool call.
"""

from __future__ import annotations

import logging
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..tools import TOOLS
from .session import Session

INSTRUCTIONS = (
    "tabsight shows you a real browser. observe({what:'page'}) describes the tracked tab, "
    "observe({what:'tabs'}) lists tabs, screenshot() returns an image of the tracked tab, "
    "interact({action:'navigate', url}) loads a page, configure({action:'track', tab_id}) switches tabs."
)


def build_server(session: Session) -> Server:
    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.definition() for tool in TOOLS.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await session.call(params.name, params.arguments)

    return Server(
        "tabsight",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio() -> None:
    session = Session()
    server = build_server(session)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        with anyio.CancelScope(shield=True):
            await session.aclose()


def run() -> int:
    # stdout is the MCP channel: logs go to stderr only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="tabsight: %(message)s")
    anyio.run(serve_stdio)
    return 0
