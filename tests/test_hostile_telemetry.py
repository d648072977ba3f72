"""A page's own script cannot forge tabsight's telemetry (issue 14), through the real chain.

tests/pages/hostile-pages/forge-telemetry.html tries every forgery, in its top
frame and in iframes: dispatching the events the relay and the page script
listened to, with made-up exceptions, 5xx, Web Vitals, drop counts and a
tab's closing; handing over a port of its own; listening for the handshake;
dispatching ErrorEvents and rejections of its own; patching console,
EventTarget, MessagePort, the event getters, PerformanceObserver and its
entries, Function.prototype.call, JSON, String, Array before and after load;
calling document.open(); and, in one iframe, patching that frame's window
before its document loads. Nothing of it may become an entry, an alert or a
notification, or clear the tab's buffers, while what the page genuinely does
still arrives.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from conftest import mcp_client
from harness.calls import json_blocks, tracked_tab
from tabsight.paths import extension_id
from test_telemetry import Notifications, answer, host_telemetry, navigate, until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: the plausible Web Vitals the page makes up (values a real load of it cannot have), and the absurd ones
FORGED_VITALS = {7777, 6666, 5555, 4444, 0.777, 1e15, 1e6, -5}
#: the one thing the hijacked iframe may still say: what a same-origin frame can make any frame of its
#: origin genuinely log, throw or reject (see docs/wire-protocol.md, "What a page can and cannot report")
PAGE_KINDS = {"console", "exception", "rejection"}


def forged(text: str) -> bool:
    return "forged" in text.lower()


def all_alerts(heard: Notifications, answers: list) -> list[dict]:
    """Every alert a session got: streamed (batches opened) and riding on answers."""
    alerts = []
    for notification in heard.received:
        alerts.extend(notification.get("alerts", [notification]))
    for result in answers:
        for block in json_blocks(result):
            alerts.extend(block.get("_alerts", []))
            alerts.extend(block.get("alerts", []))
    return alerts


async def test_a_page_cannot_forge_entries_alerts_or_a_tab_closing(browser, site):
    ext = extension_id()
    own = f"chrome-extension://{ext}"
    heard = Notifications()
    answers = []
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["all"],
                "throttle_seconds": 1,
                "severity_min": "info",
            },
        )
        since = answer(await client.call_tool("observe", {"what": "errors", "limit": 1}))["cursor"]
        dropped_before = browser.call(browser.client.status())["telemetry"]["dropped"]

        # the tab's past: a real error, which a forged "tab closed" must not erase
        tab_id = await tracked_tab(client)  # (before the page: observe answers carry its alerts)
        await navigate(client, site.url("/broken.html"))

        def texts(what):
            return [item["text"] for item in host_telemetry(browser, what, tab_id) if item["seq"] > since]

        async def broken_reported():
            return "Broken page error" in texts("errors")

        assert await until(broken_reported)

        page = site.url(f"/hostile-pages/forge-telemetry.html?ext={ext}")
        await navigate(client, page)

        async def headings():
            info = answer(await client.call_tool("observe", {"what": "page"}))
            texts = {heading["level"]: heading["text"] for heading in info["headings"]}
            return info["headings"] if texts.get(2) == "done" else None

        # the page's own account of its attempts, from its headings (read in the isolated world)
        finished = await until(headings, timeout=20, interval=0.5)
        assert finished, "the hostile page did not finish"
        await asyncio.sleep(2)  # its last reports, the last vitals (debounced), the stream's last batch
        seen = {heading["text"].split(":")[0]: heading["text"] for heading in finished if heading["level"] == 3}
        for role in ("top", "frame", "reopened", "hijacked"):
            # no patch of the page's ever ran for tabsight's code; no handshake or port reached the page
            assert seen[role] == f"{role}: stolen=0 adopted=0 seen=0 leaked=0 called=none", seen
        assert re.match(r"planted: stolen=\d+ ", seen["planted"]), seen

        items = {
            what: [i for i in host_telemetry(browser, what, tab_id) if i["seq"] > since]
            for what in ("logs", "network", "vitals")
        }
        answers.append(await client.call_tool("observe", {"what": "errors", "since": since}))
        answers.append(await client.call_tool("observe", {"what": "alerts"}))
        await asyncio.sleep(1.5)
        alerts = all_alerts(heard, answers)

    hijacked = f"{page}&role=hijacked"
    # nothing made up becomes an entry, except the hijacked frame's page-kind words
    for entry in items["logs"]:
        stated = " ".join(str(entry.get(key, "")) for key in ("text", "stack", "source"))
        assert own not in stated.lower(), entry
        if forged(stated):
            assert entry["url"] == hijacked and entry["kind"] in PAGE_KINDS, entry
    assert not [entry for entry in items["network"] if forged(entry["url"])], items["network"]
    for record in items["vitals"]:
        assert not forged(record["navigation"]), record
        assert not FORGED_VITALS & set(record["values"].values()), record
        assert all(0 <= value <= 600_000 for value in record["values"].values()), record
    # a forged drop count of 10^12 was not counted
    assert browser.call(browser.client.status())["telemetry"]["dropped"] - dropped_before < 10_000

    # nor an alert or a notification
    for alert in alerts:
        stated = f"{alert.get('title', '')} {alert.get('detail', '')} {alert.get('url', '')}"
        assert own not in stated.lower(), alert
        if forged(stated):
            assert alert.get("url") == hijacked and alert["category"] == "errors", alert
        assert not re.search(r"\b(7777|6666|5555|4444) ms|0\.777", stated), alert
    assert any("GENUINE" in alert.get("title", "") for alert in heard.received + alerts), "no genuine alert came"

    # the forged "tab closed" (sent many times) left the tab's past in place
    logs = [entry["text"] for entry in items["logs"]]
    assert "Broken page error" in logs and "GENUINE final" in logs

    # what the page genuinely did arrived, text intact, patched or not, before or after document.open()
    phases = {
        "top": ("early", "patched", "late"),
        "frame": ("early", "patched", "late"),
        "reopened": ("early", "patched", "late", "after open"),
    }
    for role, when in phases.items():
        for phase in when:
            where = f"{role} {phase}" if phase != "after open" else "reopened after open"
            assert f"GENUINE console error ({where})" in logs, where
            assert f"GENUINE warning ({where})" in logs, where
            assert f"Uncaught TypeError: GENUINE exception ({where})" in logs, where
            assert f"Error: GENUINE rejection ({where})" in logs, where
    for phase in ("early", "patched", "late"):
        assert f"GENUINE console error (hijacked {phase})" in logs
    exception = next(e for e in items["logs"] if e["text"] == "Uncaught TypeError: GENUINE exception (top late)")
    assert exception["source"].startswith(page) and "GENUINE exception (top late)" in exception["stack"]
    assert ("GET", 503) in {
        (e["method"], e.get("status")) for e in items["network"] if e["url"].endswith("/status/503")
    }
    assert any(record["url"] == page and "fcp" in record["values"] for record in items["vitals"]), items["vitals"]
