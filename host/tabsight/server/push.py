"""Streamed alerts to one MCP client, in the form its protocol version takes.

While the negotiated protocol has logging (up to 2025-11-25), an alert is a
``notifications/message``; on 2026-07-28, where logging is deprecated, it
is appended to the resource ``tabsight://alerts`` and announced as an update
of it (a client listens with ``subscriptions/listen``, then reads it).
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

import anyio
import mcp_types as types
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

log = logging.getLogger("tabsight.front")

#: the resource a 2026-07-28 client listens to for streamed alerts
ALERTS_URI = "tabsight://alerts"
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
#: alerts kept as the content of ALERTS_URI
KEPT = 100


class AlertPush:
    def __init__(self) -> None:
        #: the MCP connection, as the latest tool call saw it: where pushed alerts go
        self.client: ServerSession | None = None
        #: the lowest level a handshake-era client asked for (logging/setLevel)
        self.log_level = "debug"
        #: alerts pushed to a 2026-07-28 client: the content of ALERTS_URI
        self.pushed: deque[dict[str, Any]] = deque(maxlen=KEPT)
        self.bus = InMemorySubscriptionBus()

    async def push(self, data: dict[str, Any]) -> None:
        """One streamed notification (an alert, or a batch's summary)."""
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
