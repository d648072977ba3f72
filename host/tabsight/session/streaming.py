"""Alerts for one MCP session: the passive inbox and the opt-in stream.

Every alert the host reports reaches both paths, independently:

- ``AlertInbox``: always on. Pending alerts ride on the session's next
  ``observe`` answers as an ``_alerts`` block and are drained there (a few
  per answer, the most severe first: ``tools/response.py``).
- ``StreamPolicy`` + ``Streamer``: off until ``configure({action:"streaming",
  streaming_action:"enable"})``. Alerts that pass the session's filters are
  pushed as notifications, in the form the MCP layer chooses (which also
  says whether they reach the client: ``reach``): at most one per
  ``throttle_seconds`` (what comes inside the window is batched, up to
  BATCH_MAX, and a timer flushes it when the window ends), at most
  MINUTE_CAP a minute, and the same ``category:title`` not again within
  DEDUP_SECONDS (a cache of at most DEDUP_MAX keys).

The alert categories, and what each ``events`` value lets through, are
listed once in ``tabsight.alerts``.

``StreamPolicy`` is the decision logic with the time passed in, so it is
tested on a fake clock; ``Streamer`` runs it on the event loop.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..alerts import MATCHES, URL_FILTERED

#: the category of a notification that sums several alerts up (they are its ``alerts``): no alert's, no filter's
BATCH = "batch"
SEVERITY = {"info": 0, "warning": 1, "error": 2}

MINUTE_CAP = 12
DEDUP_SECONDS = 30.0
DEDUP_MAX = 500
BATCH_MAX = 100
INBOX_MAX = 50


class AlertInbox:
    """Alerts waiting for the next observe answer (the oldest go past INBOX_MAX, counted)."""

    def __init__(self) -> None:
        self.pending: deque[dict[str, Any]] = deque(maxlen=INBOX_MAX)
        self.overflow = 0

    def add(self, alert: dict[str, Any]) -> None:
        if len(self.pending) == INBOX_MAX:
            self.overflow += 1
        self.pending.append(alert)

    def drain(self, most: int | None = None) -> dict[str, Any] | None:
        """The ``_alerts`` block, or None when nothing is pending: every pending alert, or the ``most`` most
        severe (the first of a severity first, in the order they came), the others left pending and counted
        (``_alerts_waiting``)."""
        if not self.pending:
            return None
        alerts = list(self.pending)
        by_severity = sorted(range(len(alerts)), key=lambda i: (-SEVERITY.get(alerts[i].get("severity", ""), -1), i))
        taken = set(by_severity[:most] if most is not None else by_severity)
        block: dict[str, Any] = {"_alerts": [alert for i, alert in enumerate(alerts) if i in taken]}
        if self.overflow:
            block["_alerts_dropped"] = self.overflow
        self.pending = deque((alert for i, alert in enumerate(alerts) if i not in taken), maxlen=INBOX_MAX)
        if self.pending:
            block["_alerts_waiting"] = len(self.pending)
        self.overflow = 0
        return block


@dataclass(frozen=True)
class StreamConfig:
    events: tuple[str, ...] = ("all",)
    throttle_seconds: int = 5
    url_filter: str = ""
    severity_min: str = "warning"

    def admits(self, alert: dict[str, Any]) -> bool:
        category = alert.get("category", "")
        if not any(category in MATCHES[name] for name in self.events):
            return False
        if SEVERITY.get(alert.get("severity", "info"), 0) < SEVERITY[self.severity_min]:
            return False
        if self.url_filter and category in URL_FILTERED:
            return self.url_filter in alert.get("url", "")
        return True

    def wire(self, enabled: bool) -> dict[str, Any]:
        return {
            "enabled": enabled,
            "events": list(self.events),
            "throttle_seconds": self.throttle_seconds,
            "severity_min": self.severity_min,
            "url": self.url_filter,
        }


@dataclass
class StreamPolicy:
    config: StreamConfig = field(default_factory=StreamConfig)
    enabled: bool = False
    pending: list[dict[str, Any]] = field(default_factory=list)
    notify_count: int = 0
    last_sent: float = -math.inf
    sent: deque[float] = field(default_factory=deque)  # send times within the last minute
    seen: dict[str, float] = field(default_factory=dict)  # dedup key -> last time offered
    overflow: int = 0  # alerts that found the pending batch full

    def enable(self, config: StreamConfig) -> None:
        self.disable()
        self.config, self.enabled = config, True

    def disable(self) -> int:
        """Stops at once; returns how many pending alerts were cleared."""
        cleared = len(self.pending) + self.overflow
        self.enabled = False
        self.pending.clear()
        self.overflow = 0
        self.seen.clear()
        self.sent.clear()
        self.last_sent = -math.inf
        return cleared

    def offer(self, alert: dict[str, Any], now: float) -> list[dict[str, Any]] | None:
        """The alerts to send now as one notification, or None (filtered, duplicate, or batched)."""
        if not self.enabled or not self.config.admits(alert):
            return None
        key = f"{alert.get('category')}:{alert.get('title')}"
        last = self.seen.get(key)
        if last is not None and now - last < DEDUP_SECONDS:
            return None
        self._remember(key, now)
        if self.pending or not self._may_send(now):
            if len(self.pending) < BATCH_MAX:
                self.pending.append(alert)
            else:
                self.overflow += 1
            return self.flush(now)
        return self._sent([alert], now)

    def flush(self, now: float) -> list[dict[str, Any]] | None:
        """The pending batch, if the throttle and the cap allow sending it now."""
        if not self.pending or not self._may_send(now):
            return None
        batch, self.pending = self.pending, []
        if self.overflow:
            batch.append(
                {
                    "category": "anomaly",
                    "severity": "warning",
                    "source": "tabsight",
                    "title": f"{self.overflow} more alerts not listed",
                    "detail": "the batch was full",
                }
            )
            self.overflow = 0
        return self._sent(batch, now)

    def next_flush(self) -> float | None:
        """When a pending batch may go, or None if nothing waits."""
        if not self.pending:
            return None
        at = self.last_sent + self.config.throttle_seconds
        if len(self.sent) >= MINUTE_CAP:
            at = max(at, self.sent[0] + 60)
        return at

    def _may_send(self, now: float) -> bool:
        while self.sent and now - self.sent[0] >= 60:
            self.sent.popleft()
        return now - self.last_sent >= self.config.throttle_seconds and len(self.sent) < MINUTE_CAP

    def _sent(self, batch: list[dict[str, Any]], now: float) -> list[dict[str, Any]]:
        self.last_sent = now
        self.sent.append(now)
        self.notify_count += 1
        return batch

    def _remember(self, key: str, now: float) -> None:
        self.seen[key] = now
        if len(self.seen) > DEDUP_MAX:
            for old in [k for k, t in self.seen.items() if now - t > 2 * DEDUP_SECONDS]:
                del self.seen[old]
            while len(self.seen) > DEDUP_MAX:
                del self.seen[min(self.seen, key=self.seen.__getitem__)]


def notification(batch: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``data`` of one notification: the alert itself, or a summary of a batch."""
    if len(batch) == 1:
        return batch[0]
    severity = max((a.get("severity", "info") for a in batch), key=SEVERITY.__getitem__)
    return {
        "category": BATCH,
        "severity": severity,
        "title": f"{len(batch)} alerts",
        "detail": "\n".join(a.get("title", "") for a in batch[:20]),
        "timestamp": batch[-1].get("timestamp", ""),
        "source": "tabsight",
        "alerts": batch,
    }


class Streamer:
    """Runs a StreamPolicy on the event loop: sends, and flushes batches by timer."""

    def __init__(
        self,
        send: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.policy = StreamPolicy()
        #: where notifications go: set by the MCP layer, which knows the client's protocol
        self.send = send
        #: whether they reach the client, given the stream's severity floor: set by the MCP layer too
        self.reach: Callable[[str], dict[str, Any]] | None = None
        self._clock = clock
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task] = set()

    def enable(self, config: StreamConfig) -> None:
        self._cancel_timer()
        self.policy.enable(config)

    def disable(self) -> int:
        self._cancel_timer()
        return self.policy.disable()

    def offer(self, alert: dict[str, Any]) -> None:
        self._emit(self.policy.offer(alert, self._clock()))

    def status(self) -> dict[str, Any]:
        status = {
            "config": self.policy.config.wire(self.policy.enabled),
            "notify_count": self.policy.notify_count,
            "pending": len(self.policy.pending),
        }
        delivery = self.delivery()
        if delivery is not None:
            status["delivery"] = delivery
        return status

    def delivery(self) -> dict[str, Any] | None:
        """Whether pushed alerts reach the client now, and how (None without an MCP layer to ask)."""
        return self.reach(self.policy.config.severity_min) if self.reach else None

    def _emit(self, batch: list[dict[str, Any]] | None) -> None:
        if batch and self.send is not None:
            task = asyncio.ensure_future(self.send(notification(batch)))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._arm()

    def _arm(self) -> None:
        self._cancel_timer()
        at = self.policy.next_flush()
        if at is not None:
            delay = max(0.0, at - self._clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._emit(self.policy.flush(self._clock()))

    def _cancel_timer(self) -> None:
        if self._timer:
            self._timer.cancel()
            self._timer = None

    async def aclose(self) -> None:
        """Ends every timer and send of this session."""
        self._cancel_timer()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
