"""Where security and user_frustration alerts come from, through the real chain and the MCP SDK client
(issue 31): a security alert is a violation the browser itself reported (a ReportingObserver in the
extension's isolated world), user frustration is the user's own trusted input that got nowhere (rage
clicks, a form sent again and again). A page can fake neither, and tabsight's own input (the debugger's
Input domain) is no user's frustration.

The user's input is real input on a headed browser's display: xdotool under Xvfb (tests/harness/desktop.py,
as tests/test_headed.py), which the X server hands to Chromium as any mouse or keyboard's.
"""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from conftest import headed_client, mcp_client
from harness.calls import payload
from test_telemetry import Notifications, answer, navigate

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def streaming(client, *events: str) -> None:
    enabled = answer(
        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": list(events),
                "throttle_seconds": 1,
                "severity_min": "warning",
            },
        )
    )
    assert enabled["delivery"]["pushed"], enabled


def of(heard: Notifications, category: str) -> list[dict]:
    """The alerts of ``category`` received, batches opened."""
    found = []
    for notification in heard.received:
        for alert in notification.get("alerts", [notification]):
            if alert.get("category") == category:
                found.append(alert)
    return found


async def wait_for(heard: Notifications, category: str, timeout: float = 10.0) -> list[dict]:
    for _ in range(int(timeout * 10)):
        if of(heard, category):
            break
        await asyncio.sleep(0.1)
    return of(heard, category)


async def test_a_csp_violation_the_browser_reports_is_a_security_alert(browser, site):
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await streaming(client, "security")
        await navigate(client, site.url("/csp-violation.html"))
        (alert, *_) = await wait_for(heard, "security")
        assert alert["level"] == "error" and alert["severity"] == "error", alert
        # (Chrome reports the blocked URL whole, or its origin where the spec strips it: redacted either way)
        assert alert["title"].startswith("Content-Security-Policy blocked img-src: http://blocked.invalid"), alert
        assert "SECRET123" not in repr(heard.received)
        # kept with the tab's logs as a warning, redacted
        logs = payload(await client.call_tool("observe", {"what": "logs"}))["items"]
        (kept,) = [item for item in logs if item.get("kind") == "security"]
        assert kept["directive"] == "img-src" and kept["disposition"] == "enforce" and "SECRET123" not in repr(kept)


async def test_a_page_can_fake_no_security_alert_and_no_user_frustration(browser, site):
    """The page dispatches SecurityPolicyViolationEvents of its own making, clicks its button by script 36
    times in a burst, submits its form by requestSubmit() and by script clicks, and dispatches Enter keys:
    nothing of it is a browser report or trusted input. Its genuine console error at the end is pushed."""
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await streaming(client, "security", "user_frustration", "errors")
        await navigate(client, site.url("/forged-alerts.html"))
        errors = await wait_for(heard, "errors")
        assert any(alert["title"] == "Console error: forging done" for alert in errors), heard.received
        await asyncio.sleep(1.5)  # a rage-click report waits 0.5 s for the page to change; a batch 1 s
        assert of(heard, "security") == [] and of(heard, "user_frustration") == [], heard.received
        passive = payload(await client.call_tool("observe", {"what": "alerts"}))
        assert not any(
            alert.get("category") in ("security", "user_frustration") for alert in passive.get("alerts", [])
        ), passive


async def test_tabsights_own_clicks_and_submissions_are_no_user_frustration(browser, site):
    """tabsight's input is trusted too (Input.dispatch* through the debugger): four clicks on a button
    that does nothing, a burst of presses through execute's CDP steps, and Enter pressed three times in a
    form that goes nowhere are no rage click and no repeated submission."""
    heard = Notifications()
    async with mcp_client(mode="legacy", logging_callback=heard) as client:
        await streaming(client, "user_frustration")
        await navigate(client, site.url("/frustration.html"))
        for _ in range(4):
            payload(await client.call_tool("interact", {"action": "click", "selector": "#dead"}))
        press = [
            {
                "method": "Input.dispatchMouseEvent",
                "params": {"type": kind, "x": 100, "y": 100, "button": "left", "clickCount": 1},
            }
            for _ in range(5)
            for kind in ("mousePressed", "mouseReleased")
        ]
        payload(await client.call_tool("interact", {"action": "execute", "cdp": press}))
        for _ in range(3):
            payload(await client.call_tool("interact", {"action": "press", "selector": "#field", "key": "Enter"}))
        record = payload(await client.call_tool("interact", {"action": "execute", "script": "return window.record"}))[
            "script"
        ]["result"]
        assert record["clicks"] >= 9 and record["submits"] >= 3, record  # the input landed
        await asyncio.sleep(2.0)
        assert of(heard, "user_frustration") == [], heard.received


# -- the user's own input: a headed browser on a desktop of its own ---------------------------------------


def xdotool(desktop, *command: str) -> str:
    done = subprocess.run(["xdotool", *command], env=desktop.env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done
    return done.stdout


@pytest.mark.headed
async def test_the_users_rage_clicks_and_repeated_submissions_are_user_frustration(desktop, site, tmp_path):
    async with headed_client(desktop, tmp_path, site.url("/frustration.html")) as (client, window):
        await client.call_tool(
            "configure",
            {
                "action": "streaming",
                "streaming_action": "enable",
                "events": ["user_frustration"],
                "throttle_seconds": 1,
            },
        )
        # (headed_client's client has no logging callback: alerts come passively, on observe answers)
        await asyncio.sleep(2.0)  # clear of tabsight's own input, if any
        geometry = dict(
            line.split("=") for line in xdotool(desktop, "getwindowgeometry", "--shell", str(window)).split()
        )
        width, height = int(geometry["WIDTH"]), int(geometry["HEIGHT"])
        # the button covers the top 60 % of the viewport: a third of the way down the window is on it,
        # whatever bars the browser shows above the page
        xdotool(desktop, "mousemove", "--window", str(window), str(width // 2), str(height * 2 // 5))
        xdotool(desktop, "click", "--repeat", "4", "--delay", "150", "1")
        alerts = await passive_until(client, "user_frustration")
        (rage,) = [a for a in alerts if a["title"].startswith("Rage click")]
        assert rage["title"].startswith("Rage click: 4 clicks in ") and 'button#dead "Does nothing"' in rage["title"]
        assert rage["source"] == "user" and rage["severity"] == "warning"

        # the form: focused by the page itself (no input of tabsight's), Enter pressed three times
        await client.call_tool("interact", {"action": "execute", "script": "document.getElementById('field').focus()"})
        await asyncio.sleep(2.0)
        xdotool(desktop, "key", "--delay", "300", "Return", "Return", "Return")
        alerts = await passive_until(client, "user_frustration")
        (again,) = [a for a in alerts if a["title"].startswith("Form submitted")]
        assert again["title"].startswith("Form submitted 3 times in ") and again["title"].endswith("form#send")
        record = payload(await client.call_tool("interact", {"action": "execute", "script": "return window.record"}))[
            "script"
        ]["result"]
        assert record == {"clicks": 4, "submits": 3}, record


async def passive_until(client, category: str, timeout: float = 10.0) -> list[dict]:
    """The passive alerts of ``category`` that ride on observe answers, once there are some."""
    for _ in range(int(timeout * 2)):
        result = payload(await client.call_tool("observe", {"what": "alerts"}))
        found = [alert for alert in result.get("alerts", []) if alert.get("category") == category]
        if found:
            return found
        await asyncio.sleep(0.5)
    return []
