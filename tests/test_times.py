"""Every time an agent reads as text is ISO 8601 in the host's local time with its offset (tabsight.times): a
lease's until, a telemetry record's time, an alert's timestamp, a pick's time."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

import tabsight
from tabsight.nativehost.picks import Picks
from tabsight.nativehost.tabs import Holder, TabClaims
from tabsight.nativehost.telemetry import Alert, Telemetry
from tabsight.protocol.methods import Method
from tabsight.times import wall_time

#: 1970-01-12T13:46:40Z
NOW = 1_000_000.0


@pytest.fixture
def india(monkeypatch):
    """The host's time zone is UTC+05:30 (a POSIX zone: no tz database needed)."""
    monkeypatch.setenv("TZ", "IST-5:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_time_has_its_date_and_the_hosts_offset(india):
    assert wall_time(NOW) == "1970-01-12T19:16:40+05:30"
    assert wall_time(NOW + 0.1234, "milliseconds") == "1970-01-12T19:16:40.123+05:30"


def test_a_busy_tab_says_until_when_with_date_and_offset(india):
    claims = TabClaims(clock=lambda: NOW, lease_seconds=10)
    act = Method.ELEMENT_ACT.value
    claims.admit(Holder("a1", "alpha"), act, 5)
    claims.done(Holder("a1", "alpha"), act, 5)
    refused = claims.admit(Holder("b2", "beta"), act, 5)
    assert "in use by alpha (session a1) until 1970-01-12T19:16:50+05:30 (" in refused.message
    assert claims.describe(5, "b2")["lease"]["until"] == "1970-01-12T19:16:50+05:30"


def test_records_alerts_and_picks_are_timed_to_the_millisecond_with_the_offset(india, monkeypatch):
    alerts = []
    telemetry = Telemetry(on_alert=alerts.append, clock=lambda: NOW + 0.25)
    monkeypatch.setattr(time, "time", lambda: NOW + 0.25)
    telemetry.ingest(1, {"type": "console", "level": "error", "text": "boom", "url": "http://a/x"})
    (record,) = telemetry.query("errors", 1, None, 0, 20)["items"]
    assert record["time"] == "1970-01-12T19:16:40.250+05:30"
    assert alerts[0].timestamp == "1970-01-12T19:16:40.250+05:30"
    assert Alert("ci", "info", "CI: passed").wire()["timestamp"] == "1970-01-12T19:16:40.250+05:30"
    picks = Picks(on_alert=alerts.append, clock=lambda: NOW)
    picks.receive(
        {
            "tab_id": 7,
            "url": "http://a/",
            "title": "A",
            "selector": "#s",
            "tag": "button",
            "role": "button",
            "name": "Save",
            "text": "Save",
            "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
            "styles": {},
            "note": "",
        }
    )
    assert picks.query()["items"][0]["time"] == "1970-01-12T19:16:40.000+05:30"


def test_no_module_but_times_formats_a_wall_clock_time():
    package = Path(tabsight.__file__).parent
    formatting = re.compile(r"strftime|isoformat|fromtimestamp|time\.localtime|time\.gmtime|utcfromtimestamp")
    found = [
        f"{path.name}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "times.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if formatting.search(line)
    ]
    assert found == []
