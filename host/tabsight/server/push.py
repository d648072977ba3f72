"""Streamed alerts to one MCP client, in the form its protocol version takes, and whether they reach it.

Every streamed alert (or batch summary) is appended to the resource
``tabsight://alerts`` (its last KEPT), then announced:

- up to 2025-11-25 (the handshake era, with logging): as a
  ``notifications/message`` (at or above the client's ``logging/setLevel``),
  and as ``notifications/resources/updated`` when the client subscribed to
  the resource (``resources/subscribe``);
- on 2026-07-28 (no logging, no standing channel): as an update of the
  resource on the ``subscriptions/listen`` streams that asked for it
  (``resourceSubscriptions: ["tabsight://alerts"]``), and nowhere else: a
  client that listens for list changes only, or not at all, gets no push.

``delivery`` says which of these reaches the client now, in words for the
agent (``configure streaming`` answers with it): where no push reaches it,
alerts ride on its next ``observe`` answers as ``_alerts`` instead.

An alert quotes its page (a console message, a URL): a log notification's
``data`` and the resource's text are page-content regions
(``tabsight.pagecontent``) holding the alert's JSON, as answers are.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from typing import Any

import anyio
import mcp_types as types
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .. import pagecontent

log = logging.getLogger("tabsight.front")

#: the resource streamed alerts are appended to, which a client may subscribe to (or listen for)
ALERTS_URI = "tabsight://alerts"
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
#: alerts kept as the content of ALERTS_URI
KEPT = 100
#: where every alert reaches the agent whatever the client does with pushes
PASSIVE = "Every alert also rides on your next observe answer as _alerts."
INSTEAD = "Alerts ride on your next observe answers as _alerts instead (observe({what:'alerts'}) reads them at once)."


class AlertListen(ListenHandler):
    """The SDK's ``subscriptions/listen`` handler, keeping which resources each open stream asked for."""

    def __init__(self, bus: InMemorySubscriptionBus) -> None:
        super().__init__(bus)
        #: one entry per open listen stream: the resource URIs it subscribed to, and whether it asked for anything
        self.open: dict[object, tuple[frozenset[str], bool]] = {}

    async def __call__(self, ctx, params: types.SubscriptionsListenRequestParams) -> types.SubscriptionsListenResult:
        wanted = params.notifications
        uris = frozenset(wanted.resource_subscriptions or ())
        anything = bool(
            uris or wanted.tools_list_changed or wanted.prompts_list_changed or wanted.resources_list_changed
        )
        token = object()
        self.open[token] = (uris, anything)
        try:
            return await super().__call__(ctx, params)
        finally:
            del self.open[token]

    def listening_to(self, uri: str) -> bool:
        return any(uri in uris for uris, _anything in self.open.values())

    def listening(self) -> bool:
        return any(anything for _uris, anything in self.open.values())


class AlertPush:
    def __init__(self) -> None:
        #: the MCP connection, as the latest request saw it: where pushed alerts go
        self.client: ServerSession | None = None
        #: the lowest level a handshake-era client asked for (logging/setLevel)
        self.log_level = "debug"
        #: resources a handshake-era client subscribed to (resources/subscribe)
        self.subscribed: set[str] = set()
        #: alerts streamed to this session: the content of ALERTS_URI
        self.pushed: deque[dict[str, Any]] = deque(maxlen=KEPT)
        self.bus = InMemorySubscriptionBus()
        #: serves subscriptions/listen (2026-07-28) and knows what the open streams asked for
        self.listen = AlertListen(self.bus)

    @property
    def modern(self) -> bool:
        return self.client is not None and self.client.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def push(self, data: dict[str, Any]) -> None:
        """One streamed notification (an alert, or a batch's summary)."""
        client = self.client
        if client is None:
            return
        self.pushed.append(data)
        try:
            if self.modern:
                await self.bus.publish(ResourceUpdated(uri=ALERTS_URI))
                return
            if ALERTS_URI in self.subscribed:
                await client.send_resource_updated(ALERTS_URI)
            if self._logged(data["severity"]):
                marked = pagecontent.mark(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
                params = types.LoggingMessageNotificationParams(level=data["severity"], data=marked, logger="tabsight")
                await client.send_notification(types.LoggingMessageNotification(params=params))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            log.debug("client gone: alert not pushed")

    def _logged(self, severity: str) -> bool:
        return LOG_LEVELS.index(severity) >= LOG_LEVELS.index(self.log_level)

    def delivery(self, severity_min: str) -> dict[str, Any]:
        """Whether streamed alerts reach this client as they happen, how, and what to do where they do not.

        ``severity_min`` is the stream's own floor (info, warning or error).
        """
        if self.client is None:  # pragma: no cover - configure is itself a request: the client is known
            return {"pushed": False, "via": [], "note": INSTEAD}
        version = self.client.protocol_version
        if self.modern:
            if self.listen.listening_to(ALERTS_URI):
                return {
                    "pushed": True,
                    "protocol": version,
                    "via": [f"subscriptions/listen: notifications/resources/updated {ALERTS_URI}"],
                    "note": f"Each alert (or batch) is appended to the resource {ALERTS_URI} and announced on this "
                    f"client's subscriptions/listen stream as an update of it; reading the resource gives the alerts. "
                    + PASSIVE,
                }
            which = (
                "it listens (subscriptions/listen) for other notifications only"
                if self.listen.listening()
                else "it has no subscriptions/listen stream open"
            )
            return {
                "pushed": False,
                "protocol": version,
                "via": [],
                "note": f"Pushed alerts will not reach this client: it has not subscribed to {ALERTS_URI} ({which}), "
                f"and on protocol {version} a push reaches only a subscriptions/listen stream whose "
                f"resourceSubscriptions name {ALERTS_URI}. "
                + INSTEAD
                + f" Alerts are still appended to {ALERTS_URI}; a subscription opened later is told of new ones.",
            }
        via = []
        notes = []
        if ALERTS_URI in self.subscribed:
            via.append(f"notifications/resources/updated {ALERTS_URI}")
            notes.append(
                f"Each alert (or batch) is appended to the resource {ALERTS_URI}, which this client "
                "subscribed to, and announced as an update of it (reading the resource gives the alerts)."
            )
        floor = max(LOG_LEVELS.index(severity_min), LOG_LEVELS.index(self.log_level))
        if floor <= LOG_LEVELS.index("error"):
            via.append("notifications/message")
            cut = (
                f" (not below {self.log_level}: the client's logging/setLevel)"
                if LOG_LEVELS.index(self.log_level) > LOG_LEVELS.index(severity_min)
                else ""
            )
            notes.append(
                f"Alerts are pushed as MCP log notifications (notifications/message, logger tabsight){cut} "
                "as they happen. Whether the model sees them is up to the client: many show log "
                "notifications to the user, or keep them in a log, without passing them to the model."
            )
        else:
            notes.append(
                f"No alert is pushed as a log notification: the client's logging/setLevel "
                f"({self.log_level}) is above every alert's severity."
            )
        if not via:
            return {"pushed": False, "protocol": version, "via": [], "note": " ".join(notes) + " " + INSTEAD}
        return {"pushed": True, "protocol": version, "via": via, "note": " ".join(notes) + " " + PASSIVE}
