"""``tabsight mcp``: the MCP server over stdio, built on the official SDK's low-level Server.

The server answers ``initialize`` and ``tools/list`` without touching a
browser; the browser is found (or started) on the first tool call.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
import warnings

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import ListenHandler
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import INVALID_PARAMS

from .. import __version__
from ..session.state import Session
from ..tools import TOOLS, dispatch
from .progress import reporting
from .push import ALERTS_URI, AlertPush
from .stdio import stdio_transport

INSTRUCTIONS = (
    "tabsight shows you a real browser. observe({what:'page'}) describes the tracked tab (annotate_screenshot "
    "numbers its elements for interact({label})); observe errors/logs/network/vitals reads its telemetry; "
    "screenshot() captures it or any url; interact acts on it (execute runs scripts and CDP, screenshots come back "
    "as images); generate makes visual diffs; configure tracks a tab, attaches screenshots to answers or streams "
    "alerts. Alerts (errors, failed requests, regressions) ride on observe answers as _alerts."
)


ALERTS_RESOURCE = types.Resource(
    uri=ALERTS_URI,
    name="alerts",
    description="Alerts streamed to this session (configure streaming); 2026-07-28 clients listen for its updates.",
    mime_type="application/json",
)


def build_server(session: Session) -> Server:
    pusher = AlertPush()
    session.stream.send = pusher.push

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.definition() for tool in TOOLS.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        pusher.client = ctx.session  # where streamed alerts go from now on
        # notifications/progress while it runs, each second, saying what it does (progress.py);
        # the SDK sends them only to a caller that asked (a progressToken)
        call = functools.partial(dispatch.call, session, params.name, params.arguments)
        return await reporting(ctx.session.report_progress, f"working on {params.name}", call)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[ALERTS_RESOURCE])

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if str(params.uri) != ALERTS_URI:
            raise MCPError(INVALID_PARAMS, f"Unknown resource {params.uri}; the one resource is {ALERTS_URI}")
        text = json.dumps({"alerts": list(pusher.pushed)}, separators=(",", ":"))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=ALERTS_URI, mime_type="application/json", text=text)]
        )

    async def set_logging_level(ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
        pusher.log_level = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        # logging is deprecated on 2026-07-28, and still how handshake-era clients get pushed alerts
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return Server(
            "tabsight",
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_read_resource=read_resource,
            on_subscriptions_listen=ListenHandler(pusher.bus),
            on_set_logging_level=set_logging_level,
        )


async def serve_stdio() -> None:
    session = Session()
    server = build_server(session)
    try:
        # our transport, not the SDK's stdio_server: it answers every line it cannot parse (stdio.py)
        async with stdio_transport() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        with anyio.CancelScope(shield=True):
            await session.aclose()


def run() -> int:
    # stdout is the MCP channel: logs go to stderr only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="tabsight: %(message)s")
    anyio.run(serve_stdio)
    return 0
