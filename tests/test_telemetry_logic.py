"""The host's telemetry: redaction, bounded buffers, alerts, queries."""

from __future__ import annotations

from tabsight import redact
from tabsight.nativehost.telemetry import (
    LOG_BUFFER,
    MAX_TABS,
    NETWORK_BUFFER,
    REQUEST_BUFFER,
    Telemetry,
    network_detail,
)


def telemetry(clock=lambda: 1000.0):
    alerts = []
    return Telemetry(on_alert=alerts.append, clock=clock), alerts


def test_secret_query_parameters_and_credentials_are_masked():
    assert (
        redact.url("https://a.b/x?token=abc&page=2&api_key=k&X-Amz-Signature=s")
        == "https://a.b/x?token=[REDACTED]&page=2&api_key=[REDACTED]&X-Amz-Signature=[REDACTED]"
    )
    assert redact.url("https://user:pw@a.b/") == "https://[REDACTED]@a.b/"
    assert redact.url("https://a.b/x?q=cats") == "https://a.b/x?q=cats"


def test_secret_patterns_in_text_are_masked():
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    samples = {
        "Authorization: Bearer abcdefghijklmnop": "Authorization: [REDACTED]",
        "sent bearer abcdefghijklmnopqrstu to it": "sent bearer [REDACTED] to it",
        f"token is {jwt}": "token is [REDACTED]",
        "key AKIAABCDEFGHIJKLMNOP used": "key [REDACTED] used",
        '{"password": "hunter22", "user": "ada"}': '{"password": "[REDACTED]", "user": "ada"}',
        "GET https://api.x/y?access_token=zzz failed": "GET https://api.x/y?access_token=[REDACTED] failed",
        "Cookie: sid=123; theme=dark": "Cookie: [REDACTED]",
    }
    for raw, masked in samples.items():
        assert redact.text(raw) == masked, raw


def test_buffers_are_bounded_per_tab_and_in_tabs():
    t, _ = telemetry()
    for n in range(LOG_BUFFER * 3):
        t.ingest(1, {"type": "console", "level": "warn", "text": f"w{n}"})
    logs = t.query("logs", 1, None, 0, 200)
    assert len(t.tabs[1].logs) == LOG_BUFFER and logs["omitted"] == LOG_BUFFER - 200
    assert logs["items"][-1]["text"] == f"w{LOG_BUFFER * 3 - 1}"
    for tab in range(MAX_TABS + 10):
        t.ingest(100 + tab, {"type": "console", "level": "warn", "text": "x"})
    assert len(t.tabs) == MAX_TABS and 1 not in t.tabs


def test_reports_that_do_not_validate_are_counted_and_dropped():
    t, alerts = telemetry()
    t.ingest(1, {"type": "telepathy"})
    t.ingest(1, {"type": "dropped", "count": 7})
    assert t.dropped == 8 and alerts == [] and not t.tabs


def test_queries_follow_the_cursor():
    t, _ = telemetry()
    t.ingest(1, {"type": "console", "level": "error", "text": "one", "url": "http://a/x"})
    first = t.query("errors", 1, None, 0, 20)
    t.ingest(1, {"type": "exception", "text": "two", "url": "http://a/y"})
    t.ingest(1, {"type": "console", "level": "warn", "text": "a warning", "url": "http://a/y"})
    newer = t.query("errors", 1, None, first["cursor"], 20)
    assert [i["text"] for i in newer["items"]] == ["two"]
    assert [i["text"] for i in t.query("logs", 1, "/y", 0, 20)["items"]] == ["two", "a warning"]
    assert t.query("errors", 1, None, newer["cursor"], 20)["items"] == []


def test_errors_5xx_and_failures_alert_and_4xx_does_not():
    t, alerts = telemetry()
    t.ingest(1, {"type": "exception", "text": "Uncaught Error: x", "url": "http://a/"})
    t.ingest(1, {"type": "network", "method": "post", "url": "http://a/api/users?token=s", "status": 500}, "browser")
    t.ingest(1, {"type": "network", "method": "GET", "url": "http://a/missing", "status": 404}, "browser")
    t.ingest(
        1,
        {"type": "network", "method": "GET", "url": "http://a/down", "error": "net::ERR_CONNECTION_REFUSED"},
        "browser",
    )
    assert [(a.category, a.title) for a in alerts] == [
        ("errors", "Uncaught exception: Uncaught Error: x"),
        ("network_errors", "Server error: POST /api/users?token=[REDACTED] -> 500"),
        ("network_errors", "Request failed: GET /down (net::ERR_CONNECTION_REFUSED)"),
    ]


def test_every_request_is_listed_and_successes_never_push_failures_out():
    t, alerts = telemetry()
    t.ingest(1, {"type": "network", "id": 7, "method": "GET", "url": "http://a/broken", "status": 500}, "browser")
    t.ingest(
        1, {"type": "network", "id": 8, "method": "GET", "url": "http://a/gone", "error": "net::ERR_ABORTED"}, "browser"
    )
    t.ingest(
        1,
        {"type": "network", "id": 9, "method": "GET", "url": "http://a/down", "status": 502, "by_tabsight": True},
        "browser",
    )
    for n in range(REQUEST_BUFFER * 2):
        t.ingest(
            1,
            {
                "type": "network",
                "id": 10 + n,
                "method": "GET",
                "url": f"http://a/ok/{n}",
                "status": 200,
                "size": 12,
                "resource_type": "script",
            },
            "browser",
        )
    failed = t.query("network", 1, None, 0, 200)["items"]
    assert [(item["id"], item["status"]) for item in failed] == [(7, 500)]  # aborted and navigate's own: no failures
    assert len(t.tabs[1].requests) == REQUEST_BUFFER and len(t.tabs[1].network) <= NETWORK_BUFFER
    newest = t.query("network", 1, None, 0, 1, requests="all")["items"][0]
    last = REQUEST_BUFFER * 2 - 1
    assert newest | {"time": "-"} == {
        "seq": last + 4,
        "id": last + 10,
        "url": f"http://a/ok/{last}",
        "method": "GET",
        "resource_type": "script",
        "status": 200,
        "size": 12,
        "time": "-",
    }
    assert [a.title for a in alerts] == ["Server error: GET /broken -> 500"]


def test_a_request_detail_is_redacted_then_cut():
    detail = {
        "id": 3,
        "url": "http://a/api?api_key=k1&page=2",
        "method": "POST",
        "request_headers": [
            ["Authorization", "Bearer abcdefgh12345678"],
            ["Cookie", "sid=s1"],
            ["Accept", "*/*"],
            ["X-Api-Key", "k2"],
            "not a pair",
        ],
        "response_headers": [["Set-Cookie", "sid=s2; Path=/"], ["Content-Type", "application/json"]],
        "request_body": {"chars": 40, "content": "user=bob&password=hunter2&note=hi"},
        "response_body": {"chars": 5000, "content": '{"token": "tok123456"}' + "x" * 5000},
    }
    shown = network_detail(detail, 100)
    assert shown["url"] == "http://a/api?api_key=[REDACTED]&page=2"
    assert shown["request_headers"] == [
        "Authorization: [REDACTED]",
        "Cookie: [REDACTED]",
        "Accept: */*",
        "X-Api-Key: [REDACTED]",
    ]
    assert shown["response_headers"] == ["Set-Cookie: [REDACTED]", "Content-Type: application/json"]
    assert shown["request_body"]["content"] == "user=bob&password=[REDACTED]&note=hi"
    content = shown["response_body"]["content"]
    assert content.startswith('{"token": "[REDACTED]"}') and content.endswith("… [truncated: 5023 chars]")
    assert len(content) == 100 + len("… [truncated: 5023 chars]")


def test_an_error_spike_is_three_times_the_rolling_average():
    now = [0.0]
    t, alerts = telemetry(lambda: now[0])
    for bucket in range(6):  # a steady 2 errors per 10 s
        for _ in range(2):
            now[0] = bucket * 10 + 1
            t.ingest(1, {"type": "console", "level": "error", "text": "steady"})
    assert not [a for a in alerts if a.category == "anomaly"]
    for _ in range(6):  # then 6 in one bucket: 3x the average of 2
        now[0] = 61
        t.ingest(1, {"type": "console", "level": "error", "text": "burst"})
    (spike,) = [a for a in alerts if a.category == "anomaly"]
    assert spike.title == "Error spike: 6 errors in 10 s" and spike.severity == "warning"


def test_vitals_over_budget_and_regressed_against_the_baseline():
    t, alerts = telemetry()
    for n in range(3):
        t.ingest(1, {"type": "vitals", "url": "http://a/page?v=1", "navigation": f"n{n}", "values": {"lcp": 1000}})
    t.ingest(
        1, {"type": "vitals", "url": "http://a/page?v=2", "navigation": "slow", "values": {"lcp": 4500, "cls": 0.3}}
    )
    titles = sorted(a.title for a in alerts)
    assert titles == [
        "CLS 0.300 over the 0.250 budget on /page?v=2",
        "LCP 4500 ms over the 4000 ms budget on /page?v=2",
        "LCP regressed on /page?v=2: 4500 ms vs a baseline of 1000 ms",
    ]
    # the same page load reporting again does not repeat them
    t.ingest(
        1, {"type": "vitals", "url": "http://a/page?v=2", "navigation": "slow", "values": {"lcp": 4600, "cls": 0.3}}
    )
    assert len(alerts) == 3


def test_a_page_can_report_neither_requests_nor_a_tab_closing():
    t, alerts = telemetry()
    t.receive({"tab_id": 1, "origin": "page", "events": [{"type": "console", "level": "error", "text": "real"}]})
    forged = [
        {"type": "network", "method": "GET", "url": "http://a/api", "status": 503},
        {"type": "network", "method": "GET", "url": "http://a/api", "error": "net::ERR_FAILED"},
        {"type": "tab_closed"},
    ]
    t.receive({"tab_id": 1, "origin": "page", "events": forged})
    t.receive({"tab_id": 1, "events": forged})  # no origin: a page's, the narrowest
    t.receive({"tab_id": 1, "origin": "anything", "events": forged})
    assert [a.title for a in alerts] == ["Console error: real"] and t.dropped == 9
    assert [i["text"] for i in t.query("errors", 1, None, 0, 20)["items"]] == ["real"]
    assert t.query("network", 1, None, 0, 20)["items"] == []
    # and the browser's side may send only those two
    t.receive(
        {
            "tab_id": 1,
            "origin": "browser",
            "events": [{"type": "exception", "text": "x"}, {"type": "vitals", "navigation": "n", "values": {"lcp": 1}}],
        }
    )
    assert t.dropped == 11 and len(alerts) == 1
    t.receive({"tab_id": 1, "origin": "browser", "events": [{"type": "tab_closed"}]})
    assert 1 not in t.tabs
    for bad in ({"tab_id": True, "events": []}, {"tab_id": "1", "events": []}, {"tab_id": 1, "events": {}}):
        t.receive(bad)  # ignored, nothing raised


def test_implausible_vitals_are_dropped_never_alerted():
    t, alerts = telemetry()
    absurd = [
        {"lcp": 1e15},
        {"fcp": -1},
        {"ttfb": float("nan")},
        {"inp": float("inf")},
        {"cls": 101},
        {"lcp": 600_001, "cls": 1e9},
    ]
    for n, values in enumerate(absurd):
        t.ingest(1, {"type": "vitals", "url": "http://a/p", "navigation": f"bad{n}", "values": values})
    assert alerts == [] and t.dropped == len(absurd) and not t.tabs
    # one absurd value among plausible ones: the rest is kept
    t.ingest(1, {"type": "vitals", "url": "http://a/p", "navigation": "mixed", "values": {"lcp": 1e15, "cls": 0.5}})
    (record,) = t.query("vitals", 1, None, 0, 20)["items"]
    assert record["values"] == {"cls": 0.5}
    assert [a.title for a in alerts] == ["CLS 0.500 over the 0.250 budget on /p"]
    # the ranges' edges are plausible
    t.ingest(1, {"type": "vitals", "url": "http://a/q", "navigation": "edge", "values": {"lcp": 600_000, "cls": 100}})
    assert t.query("vitals", 1, "/q", 0, 20)["items"][0]["values"] == {"lcp": 600_000, "cls": 100}


def test_a_ci_result_is_an_alert():
    t, alerts = telemetry()
    alert = t.ci_result({"status": "failed", "name": "e2e", "summary": "2 failed", "url": "https://ci/run?token=x"})
    assert alerts == [alert] and alert.severity == "error" and alert.title == "e2e: failed"
    assert alert.url == "https://ci/run?token=[REDACTED]"
    assert t.ci_result({"status": "passed"}).severity == "info"


def test_alerts_past_20_a_second_are_counted_into_one():
    now = [5000.0]
    t, alerts = telemetry(lambda: now[0])
    for n in range(100):
        t.ingest(1, {"type": "console", "level": "error", "text": f"e{n}"})
    assert len(alerts) == 20
    now[0] = 5001.2
    t.ingest(1, {"type": "console", "level": "error", "text": "later"})
    summary, later = alerts[20:]
    # the first 20: 19 errors and the error spike they made; the other 81 errors are counted
    assert summary.title == "81 more alerts in one second" and summary.detail.startswith(
        "not sent one by one (81 errors)"
    )
    assert later.title == "Console error: later"
    assert len(t.query("errors", 1, None, 0, 200)["items"]) == 101  # the buffers keep them all


def test_a_front_that_stopped_reading_gets_no_more_alerts(tmp_path):
    from tabsight.nativehost.router import MAX_ALERT_BACKLOG, FrontConnection, Host
    from tabsight.nativehost.telemetry import Alert

    class Channel:
        def __init__(self, backlog):
            self.backlog = backlog
            self.posted = []

        def post(self, frame):
            self.posted.append(frame)

    host = Host(extension=None, socket_path=tmp_path / "host.sock")
    reading = FrontConnection(1, Channel(backlog=0))
    stuck = FrontConnection(2, Channel(backlog=MAX_ALERT_BACKLOG + 1))
    host.fronts = {reading, stuck}
    host._broadcast_alert(Alert("errors", "error", "Console error: x"))
    assert len(reading.channel.posted) == 1 and reading.alerts_dropped == 0
    assert stuck.channel.posted == [] and stuck.alerts_dropped == 1


def test_a_security_violation_is_kept_and_alerted_once_per_page_directive_and_resource():
    t, alerts = telemetry()
    csp = {
        "type": "security",
        "kind": "csp",
        "url": "https://a.b/app?token=s3cret",
        "directive": "script-src-elem",
        "blocked": "https://evil.example/x.js?key=abc",
        "disposition": "enforce",
        "source": {"url": "https://a.b/app", "line": 3, "column": 1},
    }
    t.receive({"tab_id": 1, "events": [csp, csp]})
    t.ingest(1, {**csp, "disposition": "report", "blocked": "https://cdn.example/y.js"})
    t.ingest(
        1,
        {
            "type": "security",
            "kind": "permissions_policy",
            "url": "https://a.b/",
            "directive": "camera",
            "text": "Permissions policy violation: camera is not allowed in this document.",
        },
    )
    assert [(a.category, a.severity) for a in alerts] == [
        ("security", "error"),
        ("security", "warning"),
        ("security", "error"),
    ]
    assert (
        alerts[0].title == "Content-Security-Policy blocked script-src-elem: https://evil.example/x.js?key=[REDACTED]"
    )
    assert "would block (report-only)" in alerts[1].title
    assert alerts[2].title.startswith("Permissions-Policy blocked camera")
    assert "s3cret" not in repr([a.wire() for a in alerts])
    logs = t.query("logs", 1, None, 0, 20)["items"]
    assert [item["kind"] for item in logs] == ["security"] * 4 and logs[0]["level"] == "warn"
    assert t.query("errors", 1, None, 0, 20)["items"] == []  # a warning, not a page error


def test_user_frustration_alerts_and_a_browser_origin_cannot_send_page_reports():
    t, alerts = telemetry()
    t.ingest(
        2,
        {
            "type": "frustration",
            "kind": "rage_click",
            "times": 4,
            "span_ms": 1400,
            "target": 'button#save "Save"',
            "url": "https://a.b/form",
        },
    )
    t.ingest(
        2,
        {
            "type": "frustration",
            "kind": "repeated_submit",
            "times": 3,
            "span_ms": 5200,
            "target": "form#login",
            "url": "https://a.b/login",
        },
    )
    t.ingest(2, {"type": "frustration", "kind": "something_else", "url": "https://a.b/"})
    assert [(a.category, a.severity, a.source) for a in alerts] == [("user_frustration", "warning", "user")] * 2
    assert alerts[0].title == 'Rage click: 4 clicks in 1.4 s on button#save "Save"'
    assert alerts[1].title == "Form submitted 3 times in 5.2 s: form#login"
    # only a frame's content scripts (origin page) report these; nothing claiming the worker's origin does
    t.receive(
        {
            "tab_id": 2,
            "origin": "browser",
            "events": [
                {"type": "security", "kind": "csp", "directive": "x"},
                {"type": "frustration", "kind": "rage_click", "times": 3},
            ],
        }
    )
    assert len(alerts) == 2
