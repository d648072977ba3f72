"""Browser telemetry, passive alerts and streaming, through the real chain."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time

import anyio
import pytest
from mcp.client.stdio import stdio_client

from conftest import front_env, front_params, mcp_client
from harness.calls import json_blocks, region, tracked_tab
from harness.processes import rss_kb

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

SECRETS = ("SECRET123", "SECRET456", "abcdefghijklmnop12345")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answer(result) -> dict:
    return json_blocks(result)[0]


def alerts_of(result) -> list[dict]:
    return [alert for block in json_blocks(result) for alert in block.get("_alerts", [])]


async def navigate(client, url: str) -> None:
    result = await client.call_tool("interact", {"action": "navigate", "url": url})
    assert not result.is_error, result.content[0].text


async def until(predicate, timeout: float = 10.0, interval: float = 0.1):
    """Poll an async predicate until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value or time.monotonic() > deadline:
            return value
        await asyncio.sleep(interval)


def host_telemetry(browser, what: str, tab_id: int) -> list[dict]:
    """Straight from the host (the keeper's client), without draining any session's alerts."""
    return browser.call(browser.client.telemetry(tab_id, what, since=0, limit=200, url=None))["items"]


class Notifications:
    """What a client's logging_callback received."""

    def __init__(self) -> None:
        self.received: list[dict] = []

    async def __call__(self, params) -> None:
        assert params.logger == "tabsight"
        self.received.append({"level": params.level, **json.loads(region(params.data))})  # the alert quotes its page

    async def wait(self, count: int, timeout: float = 10.0) -> list[dict]:
        async def enough():
            return len(self.received) >= count

        await until(enough, timeout)
        return self.received


async def test_errors_network_and_vitals_are_observed_with_nothing_secret(browser, site):
    port = closed_port()
    async with mcp_client() as client:
        # the tab has a past (earlier tests): only what comes after this cursor counts
        since = answer(await client.call_tool("observe", {"what": "errors", "limit": 1}))["cursor"]
        tab_id = await tracked_tab(client)  # (before the page: observe answers carry its alerts)
        await navigate(client, site.url(f"/telemetry.html?closed={port}"))

        def new(what):
            return [item for item in host_telemetry(browser, what, tab_id) if item["seq"] > since]

        async def complete():
            # this page's layout shift: the page left before may still report its own vitals
            vitals = [v for v in new("vitals") if "/telemetry.html" in v["url"]]
            return len(new("errors")) >= 3 and len(new("network")) >= 4 and any("cls" in v["values"] for v in vitals)

        assert await until(complete), "the page's telemetry did not arrive"

        first = await client.call_tool("observe", {"what": "errors", "since": since})
        errors = answer(first)
        assert [e["kind"] for e in errors["items"]] == ["console", "exception", "rejection"]
        console, exception, rejection = errors["items"]
        assert console["text"] == "Login failed for Authorization: [REDACTED]"
        assert exception["text"] == "Uncaught TypeError: Boom at load"
        assert (
            exception["source"].startswith(site.url("/telemetry.html"))
            and "TypeError: Boom at load" in exception["stack"]
        )
        assert rejection["text"] == "Error: Rejected promise"
        # alerts ride on the next observe answer, once
        titles = [a["title"] for a in alerts_of(first)]
        assert "Uncaught exception: Uncaught TypeError: Boom at load" in titles
        assert "Server error: GET /status/500 -> 500" in titles
        assert "Request failed: GET /refused (net::ERR_CONNECTION_REFUSED)" in titles
        assert not any("404" in t for t in titles)  # a 4xx is telemetry, not an alert

        again = await client.call_tool("observe", {"what": "errors", "since": errors["cursor"]})
        assert answer(again)["items"] == [] and alerts_of(again) == []

        logs = answer(await client.call_tool("observe", {"what": "logs", "since": since}))
        assert [(e["level"], e["text"]) for e in logs["items"]][0] == ("warn", "Deprecated API used")

        network = answer(await client.call_tool("observe", {"what": "network", "since": since}))
        outcomes = {
            item["url"].split(f":{site.server.server_address[1]}")[-1]: item.get("status", item.get("error"))
            for item in network["items"]
        }
        assert outcomes["/status/500"] == 500 and outcomes["/status/404"] == 404
        assert outcomes[f"http://127.0.0.1:{port}/refused"] == "net::ERR_CONNECTION_REFUSED"
        assert outcomes["/data?token=[REDACTED]&page=2"] == 404
        assert all(item["method"] == "GET" and item["duration_ms"] >= 0 for item in network["items"])

        # the page left behind reports its last vitals as it goes: the url filter picks this page's
        query = {"what": "vitals", "since": since, "url": "/telemetry.html"}
        (vitals,) = answer(await client.call_tool("observe", query))["items"]
        assert {"ttfb", "fcp", "lcp", "cls"} <= set(vitals["values"]) and vitals["values"]["cls"] > 0

        everything = json.dumps([errors, logs, network, vitals, titles])
        assert not any(secret in everything for secret in SECRETS)


async def test_streaming_pushes_alerts_and_reports_its_status(browser, site):
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        # severity_min error: the warnings earlier tests' floods leave behind (spikes, summaries) stay out
        enabled = answer(
            await client.call_tool(
                "configure",
                {
                    "action": "streaming",
                    "streaming_action": "enable",
                    "events": ["errors"],
                    "throttle_seconds": 1,
                    "severity_min": "error",
                },
            )
        )
        delivery = enabled.pop("delivery")
        assert delivery["pushed"] and delivery["via"] == ["notifications/message"]
        assert enabled == {
            "status": "enabled",
            "config": {
                "enabled": True,
                "events": ["errors"],
                "throttle_seconds": 1,
                "severity_min": "error",
                "url": "",
            },
        }
        await navigate(client, site.url("/broken.html"))
        (first,) = await heard.wait(1)
        assert first["level"] == "error" and first["category"] == "errors"
        assert first["title"] == "Console error: Broken page error" and first["source"] == "browser"
        await asyncio.sleep(1.5)
        # the 503 of the same page is a network_errors alert: not asked for
        assert [n["category"] for n in heard.received] == ["errors"]
        status = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
        assert status["notify_count"] == 1 and status["pending"] == 0 and status["config"]["enabled"]


async def test_a_burst_is_batched_and_the_timer_flushes_it(browser, site):
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["errors"],
                "throttle_seconds": 2,
                "severity_min": "error",
            },
        )
        await navigate(client, site.url("/burst.html?n=5"))
        first, *_ = await heard.wait(1)
        assert first["title"] == "Console error: Failure number 1"
        # no further event comes: the throttle window's end flushes the rest as one batch
        batch = (await heard.wait(2, timeout=6))[1]
        assert batch["category"] == "batch" and batch["title"] == "4 alerts"
        assert [a["title"] for a in batch["alerts"]] == [f"Console error: Failure number {n}" for n in range(2, 6)]


async def test_duplicates_within_30s_are_pushed_once_and_disable_clears_pending(browser, site):
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["errors"],
                "throttle_seconds": 1,
                "severity_min": "error",
            },  # no error-spike warnings
        )
        await navigate(client, site.url("/burst.html?n=5&same=1"))
        await heard.wait(1)
        await asyncio.sleep(1.5)
        assert [n["title"] for n in heard.received] == ["Console error: The same failure"]

        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["errors"],
                "throttle_seconds": 60,
                "severity_min": "error",
            },
        )
        await navigate(client, site.url("/burst.html?n=4"))

        async def pending():
            status = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
            return status["pending"] == 3

        assert await until(pending)
        disabled = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "disable"}))
        assert disabled == {"status": "disabled", "pending_cleared": 3}
        status = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
        assert status["config"]["enabled"] is False and status["pending"] == 0


async def test_a_flood_is_capped_and_bounded(browser, site):
    """1000 errors a second for 14 s: at most 12 notifications in that minute, the page
    keeps running, the host's buffers and memory stay bounded."""
    heard = Notifications()
    host_pid = browser.client.transport.hello.pid
    rss_before = rss_kb(host_pid)
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        tab_id = await tracked_tab(client)
        await client.call_tool(
            "configure",
            {"action": "streaming", "streaming_action": "enable", "events": ["errors"], "throttle_seconds": 1},
        )
        await navigate(client, site.url("/burst.html?flood=14000"))
        ticks = []
        for _ in range(15):  # the page's own 50 ms timer, read from its heading, keeps counting
            await asyncio.sleep(1)
            page = answer(await client.call_tool("observe", {"what": "page"}))
            ticks.append(int(page["headings"][0]["text"]))
        assert all(later > earlier for earlier, later in zip(ticks, ticks[1:])), ticks
        # one a second would be 15: the minute's cap stops them at 12; all but the first are batches, but
        # for a window in which a loaded machine stalled the page down to one alert (it goes alone)
        assert 10 <= len(heard.received) <= 12, len(heard.received)
        later = heard.received[1:]
        assert all(len(n["alerts"]) <= 100 for n in later if n["category"] == "batch")
        assert sum(n["category"] == "batch" for n in later) >= len(later) - 2, [n["title"] for n in later]
        # (while the session lasts: its tab, and the tab's telemetry, go with it)
        logs = browser.call(browser.client.telemetry(tab_id, "logs", since=0, limit=200, url=None))
        assert len(logs["items"]) + logs["omitted"] == 300  # the flood filled the ring buffer, and no more
    assert rss_kb(host_pid) - rss_before < 20_000, "the host's memory grew with the flood"


async def test_two_sessions_get_their_own_streams(browser, site):
    network, errors = Notifications(), Notifications()
    async with (
        mcp_client(mode="legacy", logging_callback=network) as first,
        mcp_client(mode="legacy", logging_callback=errors) as second,
    ):
        await first.call_tool(
            "configure",
            {"action": "streaming", "streaming_action": "enable", "events": ["network_errors"], "throttle_seconds": 1},
        )
        await second.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["errors"],
                "throttle_seconds": 1,
                "severity_min": "error",
            },
        )
        await navigate(first, site.url("/broken.html"))
        await network.wait(1)
        await errors.wait(1)
        await asyncio.sleep(1)
        assert [n["title"] for n in network.received] == ["Server error: GET /status/503 -> 503"]
        assert [n["title"] for n in errors.received] == ["Console error: Broken page error"]


async def test_a_new_connection_starts_with_streaming_off(browser):
    async with mcp_client(mode="legacy") as client:
        await client.call_tool("configure", {"action": "streaming", "streaming_action": "enable"})
    async with mcp_client(mode="legacy") as client:
        status = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
        assert status["config"]["enabled"] is False and status["notify_count"] == 0


async def test_on_the_2026_protocol_alerts_come_as_resource_updates(browser, site):
    async with mcp_client() as client:
        assert client.protocol_version == "2026-07-28"
        await client.call_tool(
            "configure",
            {"action": "streaming", "streaming_action": "enable", "events": ["errors"], "severity_min": "error"},
        )
        async with client.listen(resource_subscriptions=["tabsight://alerts"]) as subscription:
            status = answer(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
            assert status["delivery"]["pushed"]
            await navigate(client, site.url("/broken.html"))
            with anyio.fail_after(10):
                async for event in subscription:
                    assert event.uri == "tabsight://alerts"
                    break
        contents = (await client.read_resource("tabsight://alerts")).contents[0]
        (alert,) = json.loads(region(contents.text))["alerts"]
        assert alert["title"] == "Console error: Broken page error"


async def test_ci_results_become_alerts(browser, tmp_path):
    async with mcp_client() as client:
        await client.call_tool("observe", {"what": "tabs"})  # alerts flow once the session has its browser
        await client.call_tool("observe", {"what": "alerts"})  # start from an empty inbox
        result = {"status": "failed", "name": "unit tests", "summary": "3 failed; token=SECRET123"}
        sent = subprocess.run(
            [sys.executable, "-m", "tabsight", "ci-result", "-"],
            input=json.dumps(result),
            env=front_env(),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert sent.returncode == 0, sent.stderr
        alerts = answer(await client.call_tool("observe", {"what": "alerts"}))["alerts"]
        (ci,) = [a for a in alerts if a["category"] == "ci"]
        assert ci["severity"] == "error" and ci["title"] == "unit tests: failed"
        assert "SECRET123" not in ci["detail"]
        bad = subprocess.run(
            [sys.executable, "-m", "tabsight", "ci-result", "-"],
            input="not json",
            env=front_env(),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert bad.returncode == 2 and "is not JSON" in bad.stderr


async def test_closing_stdin_ends_every_task_cleanly(browser, site, tmp_path):
    stderr = tmp_path / "front.stderr"
    with stderr.open("w") as errlog:
        async with mcp_client(server=stdio_client(front_params(), errlog=errlog), mode="legacy") as client:
            await client.call_tool(
                "configure",
                {"action": "streaming", "streaming_action": "enable", "events": ["errors"], "throttle_seconds": 60},
            )
            await navigate(client, site.url("/burst.html?n=3"))

            async def pending():
                status = answer(
                    await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"})
                )
                return status["pending"] > 0

            assert await until(pending)  # a flush timer is armed when the client goes
    logged = stderr.read_text()
    assert "Task was destroyed" not in logged and "Traceback" not in logged and "never awaited" not in logged, logged
