"""One MCP client's session: its browser link, tracked tab and tool dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..tools import TOOLS
from ..tools.base import ToolError
from .autoshot import AutoScreenshots
from .browsers import Browsers
from .link import BrowserError, HostLink
from .streaming import AlertInbox, Streamer

log = logging.getLogger("tabsight.front")

#: what the agent can do about each browser-side failure
RECOVERY = {
    "disconnected": "The extension reconnects by itself; call again in a moment.",
    "browser_closed": "The browser was closed; the next call connects to a browser again.",
    "no_tab": "Call observe({what:'tabs'}) for the open tabs and configure({action:'track', tab_id}) to pick one.",
    "timeout": "The page or browser may be busy; call again, or with a larger timeout.",
    "navigation_timeout": "Pass a larger 'timeout', or waitForNetworkIdle: false for a page that keeps "
    "the network busy.",
}


@dataclass(frozen=True)
class Annotation:
    """The latest annotated screenshot of this session: what its labels point at."""

    browser: str
    tab_id: int
    document: str
    url: str
    selectors: list[str]


@dataclass(frozen=True)
class Label:
    number: int
    annotation: Annotation

    @property
    def selector(self) -> str:
        return self.annotation.selectors[self.number - 1]


#: the resource a 2026-07-28 client listens to for streamed alerts
ALERTS_URI = "tabsight://alerts"
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


class Session:
    def __init__(self, browsers: Browsers | None = None) -> None:
        self.id = uuid.uuid4().hex[:8]
        self.browsers = browsers or Browsers(self.id)
        self.browsers.on_event = self._on_browser_event
        self.annotation: Annotation | None = None
        self.inbox = AlertInbox()
        self.stream = Streamer(self._push)
        #: the MCP connection, as the latest tool call saw it: where pushed alerts go
        self.client: ServerSession | None = None
        #: the lowest level a handshake-era client asked for (logging/setLevel)
        self.log_level = "debug"
        #: alerts pushed to a 2026-07-28 client: the content of ALERTS_URI
        self.pushed: deque[dict[str, Any]] = deque(maxlen=100)
        self.bus = InMemorySubscriptionBus()
        self.autoshots = AutoScreenshots()
        #: the latest screenshot any answer of this session carried (visual_diff's default baseline)
        self.last_screenshot: bytes | None = None
        #: screenshots saved with generate({type:"baseline", name})
        self.baselines: OrderedDict[str, bytes] = OrderedDict()

    def remember_screenshot(self, data: bytes) -> None:
        self.last_screenshot = data

    def _on_browser_event(self, event: str, data: dict[str, Any]) -> None:
        if event == "alert":
            self.inbox.add(data)
            self.stream.offer(data)

    async def _push(self, data: dict[str, Any]) -> None:
        """One streamed notification: notifications/message while the protocol has
        logging, else an update of the alerts resource (2026-07-28)."""
        client = self.client
        if client is None:
            return
        try:
            if client.protocol_version in MODERN_PROTOCOL_VERSIONS:
                self.pushed.append(data)
                await self.bus.publish(ResourceUpdated(uri=ALERTS_URI))
            elif LOG_LEVELS.index(data["severity"]) >= LOG_LEVELS.index(self.log_level):
                params = types.LoggingMessageNotificationParams(level=data["severity"], data=data, logger="tabsight")
                await client.send_notification(types.LoggingMessageNotification(params=params))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            log.debug("client gone: alert not pushed")

    def remember_annotation(self, link: HostLink, tab_id: int, page: dict[str, Any], selectors: list[str]) -> None:
        self.annotation = Annotation(link.hello.host_id, tab_id, page["document"], page["url"], selectors)

    def label(self, number: int) -> Label:
        """Label ``number`` of the latest annotation, or a ToolError saying how to get one."""
        if self.annotation is None:
            raise ToolError(
                "No annotation in this session yet: call observe({what:'page', annotate_screenshot:true}) "
                "and use a number from it"
            )
        if not 1 <= number <= len(self.annotation.selectors):
            raise ToolError(
                f"label {number} is not in the latest annotation, which has labels 1 to "
                f"{len(self.annotation.selectors)}" if self.annotation.selectors else
                "The latest annotation has no labels (nothing interactive was in view)"
            )
        return Label(number, self.annotation)

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        """Run a tool; every failure becomes an isError result, never an exception."""
        tool = TOOLS.get(name)
        prefix = tool.error_prefix if tool else ""
        try:
            if tool is None:
                raise ToolError(f"Unknown tool {name!r}; tools: {', '.join(TOOLS)}")
            params = tool.parse(arguments)
            content = await tool.handler(self, params)
            if self.autoshots.wanted(tool.name, getattr(params, "what", None)):
                content.append(await self.autoshots.block(self))
            return types.CallToolResult(content=content)
        except ToolError as exc:
            return _error(prefix + str(exc))
        except BrowserError as exc:
            hint = RECOVERY.get(exc.code)
            return _error(prefix + (f"{exc.message} {hint}" if hint else exc.message))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not end the session: report it and go on
            log.exception("tool %s failed", name)
            return _error(f"Internal error in {name}: {type(exc).__name__}: {exc}")

    async def describe_tabs(self) -> dict[str, Any]:
        """Every connected browser with its tabs; marks the tracked one."""
        async with self._other_browsers() as (current, others):
            _link, tracked_id = await self.browsers.tab(follow=True)
            browsers = []
            for link in (current, *others):
                listing = await link.request("tabs.list", timeout=5)
                ext = link.hello.extension
                browsers.append(
                    {
                        "browser": link.hello.host_id,
                        "name": f"{ext.browser.name} {ext.browser.version}".strip() if ext else "unknown",
                        "embedded": bool(link.hello.embedded),
                        "tabs": [
                            {
                                "id": tab["id"],
                                "title": tab.get("title", "")[:100],
                                "url": tab.get("url", ""),
                                **({"active": True} if tab.get("active") else {}),
                                **({"tracked": True} if link is current and tab["id"] == tracked_id else {}),
                            }
                            for tab in listing.get("tabs", [])
                            if not tab.get("owned")  # a capture's own window, gone in a moment
                        ],
                    }
                )
        return {"browsers": browsers}

    async def find_tab(self, tab_id: int, browser: str | None) -> dict[str, Any] | None:
        """Track ``tab_id`` (in ``browser``, if given); its description, or None if absent."""
        async with self._other_browsers() as (current, others):
            found: list[tuple[HostLink, dict[str, Any]]] = []
            for link in (current, *others):
                if browser and link.hello.host_id != browser:
                    continue
                listing = await link.request("tabs.list", timeout=5)
                found += [(link, tab) for tab in listing.get("tabs", []) if tab["id"] == tab_id]
            if len(found) > 1:
                raise ToolError(
                    f"Tab id {tab_id} exists in several browsers "
                    f"({', '.join(link.hello.host_id for link, _ in found)}); pass 'browser' to say which."
                )
            if not found:
                return None
            chosen, tab = found[0]
            if chosen is not current:
                others.remove(chosen)  # it becomes the session's link: not closed on the way out
                await self.browsers.use(chosen)
            self.browsers.track(chosen, tab_id)
        return {"browser": chosen.hello.host_id, "tab_id": tab_id, "url": tab.get("url"), "title": tab.get("title")}

    @contextlib.asynccontextmanager
    async def _other_browsers(self):
        """The session's link and links to every other running host, closed afterwards whatever happens."""
        current, *others = await self.browsers.all_links()
        try:
            yield current, others
        finally:
            for link in others:
                await link.close()

    async def aclose(self) -> None:
        await self.stream.aclose()
        await self.browsers.aclose()


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)
