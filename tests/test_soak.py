"""A short soak (tests/harness/soak.py, the code bench/soak_bench.py runs): eight clients, mixed calls, a browser
restart and a host killed with SIGKILL midway. Every call is answered and right; nothing listens, leaks or shows a
secret."""

from __future__ import annotations

import pytest

from harness.soak import Config, Soak, failures, print_report

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


@pytest.mark.timeout(420)
async def test_soak_with_a_browser_restart_and_a_host_kill():
    soak = await Soak(Config(clients=8, calls=320, max_seconds=300)).run()
    summary = soak.summary()
    print_report(summary)  # shown when the test fails
    assert failures(summary) == []
    assert [fault["fault"] for fault in summary["faults"]] == ["browser restart", "host kill -9"]
    assert summary["ok"] >= 0.8 * summary["calls"]
    # an error is an outage's, never one of a browser at work
    assert summary["errors_outside_outages"] == []
    assert summary["listener_samples"] >= 10 and summary["notifications"] > 0
