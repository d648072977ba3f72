"""Streaming's throttle, batching, cap and dedup, and the passive inbox, on a fake clock."""

from __future__ import annotations

import asyncio
import json

import anyio
import mcp_types as types
import pytest

from harness.calls import region
from tabsight.server.push import ALERTS_URI, AlertPush
from tabsight.session.streaming import (
    BATCH_MAX,
    DEDUP_MAX,
    INBOX_MAX,
    MINUTE_CAP,
    AlertInbox,
    StreamConfig,
    Streamer,
    StreamPolicy,
)


def alert(title: str, category: str = "errors", severity: str = "error", url: str = "") -> dict:
    return {"category": category, "severity": severity, "title": title, "url": url}


def policy(**config) -> StreamPolicy:
    p = StreamPolicy()
    p.enable(StreamConfig(**config))
    return p


def test_off_by_default_and_after_disable():
    p = StreamPolicy()
    assert p.offer(alert("a"), 0) is None
    p.enable(StreamConfig())
    assert p.offer(alert("a"), 0) == [alert("a")]
    p.offer(alert("b"), 1)
    assert p.disable() == 1 and p.pending == [] and p.offer(alert("c"), 100) is None


def test_throttle_batches_and_flushes_when_the_window_ends():
    p = policy(throttle_seconds=5)
    assert p.offer(alert("a"), 0.0) == [alert("a")]
    assert p.offer(alert("b"), 1.0) is None and p.offer(alert("c"), 2.0) is None
    assert p.next_flush() == 5.0
    assert p.flush(4.9) is None
    assert p.flush(5.0) == [alert("b"), alert("c")]
    assert p.next_flush() is None and p.notify_count == 2
    # after the window, the next event goes at once, with nothing pending
    assert p.offer(alert("d"), 10.0) == [alert("d")]


def test_an_event_after_the_window_carries_the_pending_batch():
    p = policy(throttle_seconds=5)
    p.offer(alert("a"), 0)
    p.offer(alert("b"), 1)
    assert p.offer(alert("c"), 6) == [alert("b"), alert("c")]


def test_batches_hold_at_most_100():
    p = policy(throttle_seconds=60)
    p.offer(alert("first"), 0)
    for n in range(BATCH_MAX + 50):
        p.offer(alert(f"e{n}"), 1)
    assert len(p.pending) == BATCH_MAX


def test_at_most_12_a_minute_even_with_a_1s_throttle():
    p = policy(throttle_seconds=1)
    sent = [t for t in range(60) if p.offer(alert(f"e{t}"), float(t))]
    assert len(sent) == MINUTE_CAP
    assert p.next_flush() == 60.0  # the oldest send leaves the minute
    assert p.flush(60.0) is not None


def test_the_same_alert_is_not_repeated_within_30s():
    p = policy(throttle_seconds=1)
    assert p.offer(alert("same"), 0)
    assert p.offer(alert("same"), 10) is None
    assert p.offer(alert("same", category="network_errors"), 11)  # another category: another key
    assert p.offer(alert("same"), 31)


def test_the_dedup_cache_stays_bounded():
    p = policy(throttle_seconds=1)
    for n in range(DEDUP_MAX * 3):
        p.offer(alert(f"e{n}"), n * 0.01)
    assert len(p.seen) <= DEDUP_MAX + 1


def test_filters_by_category_severity_and_url():
    config = StreamConfig(events=("network_errors", "performance"), severity_min="error", url_filter="/api/")
    assert config.admits(alert("x", "network_errors", url="http://h/api/users"))
    assert not config.admits(alert("x", "network_errors", url="http://h/static/app.js"))
    assert not config.admits(alert("x", "network_errors", severity="warning", url="http://h/api/"))
    assert config.admits(alert("x", "regression", url="http://h/api/"))  # performance covers regressions
    assert not config.admits(alert("x", "errors"))
    errors = StreamConfig(events=("errors",), url_filter="/api/")
    assert errors.admits(alert("x", "anomaly", "warning"))  # spikes; the URL filter does not apply to errors
    assert errors.admits(alert("x", "errors", url="http://h/other"))


def test_the_inbox_drains_once_and_counts_what_it_dropped():
    inbox = AlertInbox()
    assert inbox.drain() is None
    for n in range(INBOX_MAX + 3):
        inbox.add(alert(f"e{n}"))
    block = inbox.drain()
    assert len(block["_alerts"]) == INBOX_MAX and block["_alerts"][0]["title"] == "e3" and block["_alerts_dropped"] == 3
    assert inbox.drain() is None


@pytest.mark.anyio
async def test_the_streamer_flushes_by_timer_and_closes_cleanly():
    now = [0.0]
    sent = []

    async def send(data):
        sent.append(data)

    streamer = Streamer(send=send, clock=lambda: now[0])
    streamer.enable(StreamConfig(throttle_seconds=1))
    streamer.offer(alert("a"))
    streamer.offer(alert("b"))
    streamer.offer(alert("c"))
    await asyncio.sleep(0)
    assert [d["title"] for d in sent] == ["a"]
    now[0] = 1.0  # the window ends; the armed timer (1 s of real time) fires
    await asyncio.sleep(1.1)
    assert sent[1]["category"] == "batch" and [a["title"] for a in sent[1]["alerts"]] == ["b", "c"]
    streamer.offer(alert("d"))
    assert streamer.status()["pending"] == 1
    await streamer.aclose()
    assert streamer._timer is None


def test_a_full_batch_counts_what_it_left_out():
    p = policy(throttle_seconds=60)
    p.offer(alert("first"), 0)
    for n in range(BATCH_MAX + 7):
        p.offer(alert(f"e{n}"), 1)
    batch = p.flush(60)
    assert len(batch) == BATCH_MAX + 1 and batch[-1]["title"] == "7 more alerts not listed"


# ---- the MCP side: what is pushed where, and what configure says of it ----


class FakeClient:
    """What AlertPush uses of the SDK's ServerSession: the protocol version and outgoing notifications."""

    def __init__(self, protocol_version: str) -> None:
        self.protocol_version = protocol_version
        self.sent: list = []

    async def send_notification(self, notification, related_request_id=None) -> None:
        self.sent.append(notification)

    async def send_resource_updated(self, uri: str) -> None:
        self.sent.append(("updated", uri))


class FakeListenContext:
    request_id = 7

    def __init__(self) -> None:
        self.session = FakeClient("2026-07-28")


@pytest.mark.anyio
async def test_a_handshake_client_gets_log_messages_at_its_level_and_updates_once_subscribed():
    pusher = AlertPush()
    pusher.client = client = FakeClient("2025-11-25")
    await pusher.push(alert("a", severity="warning"))
    # the alert's JSON as a page-content region: it quotes its page
    assert [json.loads(region(n.params.data))["title"] for n in client.sent] == ["a"]
    assert client.sent[0].params.level == "warning"
    pusher.log_level = "error"
    pusher.subscribed.add(ALERTS_URI)
    await pusher.push(alert("b", severity="warning"))
    assert client.sent[1:] == [("updated", ALERTS_URI)]  # below the client's level: no log message
    assert [a["title"] for a in pusher.pushed] == ["a", "b"]
    assert pusher.delivery("warning")["via"] == [
        f"notifications/resources/updated {ALERTS_URI}",
        "notifications/message",
    ]
    pusher.subscribed.clear()
    pusher.log_level = "emergency"
    refused = pusher.delivery("info")
    assert not refused["pushed"] and "above every alert's severity" in refused["note"]


@pytest.mark.anyio
async def test_a_2026_client_gets_updates_only_on_a_listen_stream_for_the_alerts():
    pusher = AlertPush()
    pusher.client = client = FakeClient("2026-07-28")
    ctx = FakeListenContext()
    params = types.SubscriptionsListenRequestParams(notifications={"resourceSubscriptions": [ALERTS_URI]})
    async with anyio.create_task_group() as tg:
        tg.start_soon(pusher.listen, ctx, params)
        while not ctx.session.sent:  # the acknowledgement
            await anyio.sleep(0.01)
        assert pusher.listen.listening_to(ALERTS_URI) and pusher.delivery("warning")["pushed"]
        await pusher.push(alert("a"))
        while len(ctx.session.sent) < 2:
            await anyio.sleep(0.01)
        assert ctx.session.sent[1].params.uri == ALERTS_URI and client.sent == []  # no log message on 2026
        tg.cancel_scope.cancel()
    assert pusher.listen.open == {} and not pusher.delivery("warning")["pushed"]
    assert [a["title"] for a in pusher.pushed] == ["a"]


def test_status_says_where_alerts_go_when_the_mcp_layer_tells():
    streamer = Streamer()
    assert "delivery" not in streamer.status()
    streamer.reach = lambda severity_min: {"pushed": False, "severity_min": severity_min}
    streamer.enable(StreamConfig(severity_min="error"))
    assert streamer.status()["delivery"] == {"pushed": False, "severity_min": "error"}
