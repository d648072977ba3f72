"""``tabsight mcp``: the MCP server over stdio, built on the official SDK's low-level Server.

The server answers ``initialize`` and ``tools/list`` without touching a
browser. What runs before the SDK is imported (the wire claimed,
``initialize`` answered, tabsight's own browser started ahead when it is the
one calls will use) is in ``main.py``; the session links to that browser as
soon as it is up (``link_ahead``), else finds (or starts) one at its first
tool call.
"""

from __future__ import annotations

import functools
import gc
import json
import signal
import sys
import threading
import warnings
from contextlib import contextmanager
from typing import BinaryIO

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import INVALID_PARAMS

from .. import __version__, pagecontent, vision
from ..session.state import Session
from ..tools import TOOLS, dispatch, observe
from .handshake import INSTRUCTIONS, NAME, Early
from .lines import LinePump
from .progress import reporting
from .push import ALERTS_URI, AlertPush
from .stdio import stdio_transport

ALERTS_RESOURCE = types.Resource(
    uri=ALERTS_URI,
    name="alerts",
    description="Alerts streamed to this session (configure streaming), the last 100. Subscribe to be told of new "
    "ones: resources/subscribe, or on 2026-07-28 subscriptions/listen with resourceSubscriptions. "
    + pagecontent.CONVENTION,
    mime_type="text/plain",
)


#: the tools whose first call warms the drawing of looks (an agent that navigates or looks is about to look)
LOOK_TOOLS = ("observe", "interact")


def _alerts_only(uri: object) -> None:
    if str(uri) != ALERTS_URI:
        raise MCPError(INVALID_PARAMS, f"Unknown resource {uri}; the one resource is {ALERTS_URI}")


def build_server(session: Session, early: Early | None = None) -> Server:
    """The SDK's server for ``session``; ``early``: what read the lines before it (``main.py``), whose progress
    reports of the calls read then its handlers take over."""
    pusher = AlertPush()
    session.stream.send = pusher.push
    session.stream.reach = pusher.delivery
    # the drawing of looks loads while the session's first observe or interact call runs (a navigation: the
    # browser's work, not the cores'): the first annotated look no longer pays its ~0.2 s of imports
    warming = threading.Thread(target=observe.warm_drawing, name="tabsight warm drawing", daemon=True)

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.definition() for tool in TOOLS.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        pusher.client = ctx.session  # where streamed alerts go from now on
        if not session.browsers.client_name:
            session.browsers.client_name = _client_name(ctx.session.client_params)
            info = ctx.session.client_params.client_info if ctx.session.client_params is not None else None
            session.vision = vision.of_client(f"{info.name} {info.title or ''}" if info is not None else "")
        if params.name in LOOK_TOOLS and warming.ident is None:  # not started yet
            warming.start()
        # notifications/progress while it runs, each second, saying what it does (progress.py);
        # the SDK sends them only to a caller that asked (a progressToken)
        call = functools.partial(dispatch.call, session, params.name, params.arguments)
        waiting = early.take(ctx.request_id) if early is not None else None
        if waiting is not None:  # read before the server served: its reports go on from there
            return await reporting(
                ctx.session.report_progress,
                f"working on {params.name}",
                call,
                first=waiting.due,
                since=waiting.started,
                last=waiting.last,
            )
        return await reporting(ctx.session.report_progress, f"working on {params.name}", call)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[ALERTS_RESOURCE])

    async def list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])  # one fixed resource, no templates

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        _alerts_only(params.uri)
        # the alerts' JSON, as a page-content region: they quote their pages
        text = pagecontent.mark(json.dumps({"alerts": list(pusher.pushed)}, separators=(",", ":")))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=ALERTS_URI, mime_type="text/plain", text=text)]
        )

    # handshake era (up to 2025-11-25): the 2026-07-28 wire has neither method (the SDK answers -32601 there)
    async def subscribe_resource(ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        _alerts_only(params.uri)
        pusher.client = ctx.session
        pusher.subscribed.add(ALERTS_URI)
        return types.EmptyResult()

    async def unsubscribe_resource(ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        pusher.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    async def set_logging_level(ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
        pusher.client = ctx.session
        pusher.log_level = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        # logging is deprecated on 2026-07-28, and still how handshake-era clients get pushed alerts
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return Server(
            NAME,
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_list_resource_templates=list_resource_templates,
            on_read_resource=read_resource,
            on_subscribe_resource=subscribe_resource,
            on_unsubscribe_resource=unsubscribe_resource,
            on_subscriptions_listen=pusher.listen,
            on_set_logging_level=set_logging_level,
        )


def _client_name(client_params: types.InitializeRequestParams | None) -> str:
    """The MCP client's name as its tabs show it (a tab group's title, observe tabs' owners): its title if it
    gave one, else its name; short, one line."""
    info = client_params.client_info if client_params is not None else None
    name = (info.title or info.name) if info is not None else ""
    return " ".join(name.split())[:40]


#: how long closing the session may take once serving ends: the link to the browser closes at once, and an
#: embedded browser this front started is left to its host (which stops it after its linger time)
CLOSE_TIMEOUT = 0.5
#: what stops the server besides the end of stdin: Ctrl-C, and what clients send when stdin was not enough
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def serve_stdio(
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    pump: LinePump | None = None,
    early: Early | None = None,
) -> int:
    """Serve until stdin ends (0) or SIGINT or SIGTERM comes (128 + its number); the session is closed either way.

    A signal cancels everything in flight, calls included: nothing is answered after it. The streams, their
    reader and what answered before the server are ``main.py``'s (the process's own streams without them).
    """
    session = Session()
    server = build_server(session, early)
    stopped_by: list[int] = []
    with _stop_signals() as signals:  # held until the session is closed: a second signal waits for that too
        async with anyio.create_task_group() as tasks:
            if signals is not None:
                tasks.start_soon(_stop_on_signal, signals, tasks.cancel_scope, stopped_by)
            if early is not None and early.launching:
                tasks.start_soon(session.browsers.link_ahead, early.opened)
            try:
                # our transport, not the SDK's stdio_server: it answers every line it cannot parse (stdio.py)
                async with stdio_transport(stdin, stdout, pump=pump, early=early) as (read_stream, write_stream):
                    await server.run(read_stream, write_stream, server.create_initialization_options())
            finally:
                tasks.cancel_scope.cancel()
                with anyio.move_on_after(CLOSE_TIMEOUT, shield=True):
                    await session.aclose()
    return 128 + stopped_by[0] if stopped_by else 0


@contextmanager
def _stop_signals():
    if sys.platform == "win32":  # no signal handlers in asyncio there: Ctrl-C is a KeyboardInterrupt (see run)
        yield None
        return
    with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
        yield signals


async def _stop_on_signal(signals, scope: anyio.CancelScope, stopped_by: list[int]) -> None:
    async for signum in signals:
        stopped_by.append(int(signum))
        scope.cancel()
        return


def run(stdin: BinaryIO, stdout: BinaryIO, pump: LinePump, early: Early) -> int:
    try:
        code = anyio.run(serve_stdio, stdin, stdout, pump, early)
    except KeyboardInterrupt:  # Ctrl-C where no handler of ours was installed (Windows; the loop winding down)
        code = 128 + signal.SIGINT
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)  # from here on a signal ends the process at once, without a traceback
    # The interpreter's teardown collects garbage over the whole heap (the SDK's and pydantic's schemas) as it
    # unloads modules: 0.3-0.8 s on a busy machine, past what clients wait before they kill us. Nothing is left
    # to clean up that needs it.
    gc.freeze()
    return code
