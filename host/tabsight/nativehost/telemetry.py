"""Browser telemetry in the host: bounded buffers per tab, queries, and alerts.

The extension reports console messages, uncaught exceptions and rejections,
every request a tab made (method, URL, status or error, type, duration,
size; no headers, no bodies), and Web Vitals for every tab, whether or not
any MCP client is connected. Each report is validated, redacted (redact.py)
and numbered here, then kept in ring buffers of fixed size per tab, for at
most MAX_TABS tabs: a page logging a thousand errors a second costs the host
a bounded amount of memory. Failed and 4xx/5xx requests have a buffer of
their own beside the one of all requests, so that a busy page's successful
requests never push its failures out.

A request's headers and bodies stay in the browser until an agent asks for
one request (``network.detail``); the host redacts that answer
(``network_detail``) before it goes on to the front.

Alerts are what deserves an agent's attention: every error, an error spike
(3x the rolling average), a 5xx or a failed request, a Web Vital over its
budget or regressed against the URL's baseline, a CI result. They are handed
to the router, which sends them to every connected front.

What is trusted: each ``telemetry`` event names its origin. ``"browser"`` is
what the extension's service worker saw itself: requests (chrome.webRequest) and a tab's closing (chrome.tabs.onRemoved); only those
two types are taken from it. ``"page"`` (also when the field is missing) is
what a frame reported about itself: console messages, exceptions, rejections,
Web Vitals and the relay's drop counts; only those types are taken from it,
so no page can add a request entry, a 5xx alert, or empty a tab's buffers.
A page's words stay data: text is capped and redacted, and Web Vitals outside
a plausible range are dropped, never clamped (a clamped 10-minute LCP would
still be a made-up value over its budget), so they reach no buffer, baseline
or alert.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .. import bounded, redact
from ..limits import MAX_BODY_CHARS
from ..times import wall_time
from .tabs import is_int

MAX_TABS = 50
LOG_BUFFER = 300
NETWORK_BUFFER = 300
#: every request of a tab, failed or not
REQUEST_BUFFER = 500
VITALS_BUFFER = 20
MAX_TEXT = 2000
MAX_STACK = 4000

#: Web Vitals budgets: Google's "poor" thresholds (ms, CLS unitless)
BUDGETS = {"lcp": 4000, "fcp": 3000, "inp": 500, "ttfb": 1800, "cls": 0.25}
#: a regression is at least 2x the baseline and at least this much worse
REGRESSION_FLOOR = {"lcp": 100, "fcp": 100, "inp": 50, "ttfb": 100, "cls": 0.05}
BASELINE_SAMPLES = 5
#: the largest value a real measurement can have: a page load is not measured
#: for 10 minutes, and CLS adds fractions of the viewport (real pages stay under 10);
#: a value above, negative or not finite is dropped
VITAL_LIMITS = {"lcp": 600_000, "fcp": 600_000, "inp": 600_000, "ttfb": 600_000, "cls": 100}

#: what a security report is about, as alert titles name it
SECURITY_KINDS = {
    "csp": "Content-Security-Policy",
    "permissions_policy": "Permissions-Policy",
    "integrity": "Subresource integrity",
}

#: which reports each origin may send (see the module's docstring)
PAGE_TYPES = frozenset({"console", "exception", "rejection", "vitals", "dropped", "security", "frustration"})
BROWSER_TYPES = frozenset({"network", "tab_closed"})
#: a request cancelled by a navigation or by the page is not a failure
NOT_A_FAILURE = frozenset({"net::ERR_ABORTED"})
#: reports taken from one event at most (the extension sends up to 200)
MAX_REPORTS_PER_EVENT = 200

#: alerts handed on per second at most; past that they are counted, and the
#: count goes on as one alert: a page erroring in a loop must not flood every
#: front (the buffers still keep every report)
ALERTS_PER_SECOND = 20

SPIKE_BUCKET = 10.0  # seconds
SPIKE_HISTORY = 6  # buckets in the rolling average
SPIKE_FACTOR = 3
SPIKE_MINIMUM = 5

Severity = Literal["info", "warning", "error"]
Origin = Literal["page", "browser"]


# -- reports as the extension sends them -------------------------------------


class TelemetryQuery(BaseModel):
    """A front's ``telemetry.query``: which buffer, of which tab or URL, from which sequence number, how much."""

    what: Literal["errors", "logs", "network", "vitals"]
    #: with what=network: only failed and 4xx/5xx requests, or all
    requests: Literal["failed", "all"] = "failed"
    tab_id: int | None = None
    url: str | None = Field(default=None, max_length=2048)
    since: int = Field(default=0, ge=0)
    limit: int = Field(default=20, ge=1, le=200)


class Source(BaseModel):
    url: str = Field(default="", max_length=4096)
    line: int | None = Field(default=None, ge=0, le=2**31)
    column: int | None = Field(default=None, ge=0, le=2**31)


class Report(BaseModel):
    """One telemetry report from the extension; anything larger is cut, not refused."""

    model_config = ConfigDict(extra="ignore")

    type: Literal[
        "console", "exception", "rejection", "network", "vitals", "dropped", "tab_closed", "security", "frustration"
    ]
    url: str = Field(default="", max_length=8192)
    level: Literal["error", "warn", "info", "log", "debug"] = "error"
    text: str = ""
    stack: str = ""
    source: Source | None = None
    method: str = Field(default="", max_length=16)
    status: int | None = Field(default=None, ge=0, le=999)
    error: str = Field(default="", max_length=200)
    resource_type: str = Field(default="", max_length=40)
    duration_ms: float | None = None
    #: a request's id in the browser (network.detail takes it), its response's Content-Length
    id: int | None = Field(default=None, ge=0, le=2**53)
    size: int | None = Field(default=None, ge=0, le=2**53)
    from_cache: bool = False
    #: a page load tabsight itself made (navigate): listed, but no failure (the navigate answered how it went)
    by_tabsight: bool = False
    navigation: str = Field(default="", max_length=100)
    values: dict[str, float] = Field(default={}, max_length=20)
    count: int = Field(default=0, ge=0, le=10**9)
    #: security: csp / permissions_policy / integrity; frustration: rage_click / repeated_submit
    kind: str = Field(default="", max_length=40)
    #: security: the violated directive or feature, the blocked URL, enforce or report
    directive: str = Field(default="", max_length=100)
    blocked: str = Field(default="", max_length=8192)
    disposition: str = Field(default="", max_length=20)
    #: frustration: the element the user clicked or the form, how many times, over how long
    target: str = Field(default="", max_length=300)
    times: int = Field(default=0, ge=0, le=10_000)
    span_ms: float = Field(default=0, ge=0, le=600_000)


@dataclass
class Alert:
    category: str
    severity: Severity
    title: str
    detail: str = ""
    url: str = ""
    tab_id: int | None = None
    source: str = "browser"
    timestamp: str = field(default_factory=lambda: wall_time(time.time(), "milliseconds"))

    def wire(self) -> dict[str, Any]:
        """As sessions get it: url and tab_id only when the alert has them."""
        return {k: v for k, v in asdict(self).items() if not (k in ("url", "tab_id") and v in ("", None))}


@dataclass
class TabBuffers:
    logs: deque = field(default_factory=lambda: deque(maxlen=LOG_BUFFER))
    #: failed and 4xx/5xx requests
    network: deque = field(default_factory=lambda: deque(maxlen=NETWORK_BUFFER))
    #: every request, the failed ones too
    requests: deque = field(default_factory=lambda: deque(maxlen=REQUEST_BUFFER))
    #: navigation id -> the latest vitals of that page load
    vitals: OrderedDict = field(default_factory=OrderedDict)


class Telemetry:
    def __init__(self, on_alert: Callable[[Alert], None], clock: Callable[[], float] = time.time) -> None:
        self._deliver = on_alert
        self.clock = clock
        self._second = -1
        self._sent_this_second = 0
        self._held: dict[str, int] = {}  # category -> alerts held back this second
        self.tabs: OrderedDict[int, TabBuffers] = OrderedDict()
        self._seq = itertools.count(1)
        self.last_seq = 0
        self.dropped = 0
        self._spike = SpikeDetector()
        #: url without query -> metric -> values of past page loads
        self._baselines: dict[str, dict[str, deque]] = {}
        self._alerted: set[tuple[str, str, str]] = set()  # (navigation, metric, kind)

    # -- intake ----------------------------------------------------------------

    def receive(self, data: dict[str, Any]) -> None:
        """One ``telemetry`` event from the extension: ``{tab_id, origin, events}``."""
        tab_id = data.get("tab_id")
        reports = data.get("events")
        if not is_int(tab_id) or not isinstance(reports, list):
            return
        origin: Origin = "browser" if data.get("origin") == "browser" else "page"
        for report in reports[:MAX_REPORTS_PER_EVENT]:
            if isinstance(report, dict):
                self.ingest(tab_id, report, origin)

    def ingest(self, tab_id: int, raw: dict[str, Any], origin: Origin = "page") -> None:
        """One report from the extension: validated, redacted, stored, checked for alerts.

        A type its origin may not send (a page's network report or tab closing) is dropped."""
        try:
            report = Report.model_validate(raw)
        except ValidationError:
            self.dropped += 1
            return
        if report.type not in (BROWSER_TYPES if origin == "browser" else PAGE_TYPES):
            self.dropped += 1
            return
        now = self.clock()
        if report.type == "tab_closed":
            self.tabs.pop(tab_id, None)
            return
        if report.type == "dropped":
            self.dropped += report.count
            return
        if report.type == "vitals":
            values = {k: v for k, v in report.values.items() if k in VITAL_LIMITS and _plausible(k, v)}
            if not values:
                self.dropped += 1
                return
        buffers = self._buffers(tab_id)
        seq = next(self._seq)
        self.last_seq = seq
        record: dict[str, Any] = {"seq": seq, "time": now, "tab_id": tab_id, "url": redact.url(report.url)}
        if report.type in ("console", "exception", "rejection"):
            record.update(
                kind=report.type,
                level="error" if report.type != "console" else report.level,
                text=redact.text(report.text[:MAX_TEXT]),
            )
            if report.stack:
                record["stack"] = redact.text(report.stack[:MAX_STACK])
            if report.source and report.source.url:
                record["source"] = _location(report.source)
            buffers.logs.append(record)
            if record["level"] == "error":
                self._error_alerts(record, now)
        elif report.type == "network":
            if report.id is not None:
                record["id"] = report.id
            record.update(method=report.method.upper(), resource_type=report.resource_type)
            if report.status is not None:
                record["status"] = report.status
            if report.error:
                record["error"] = report.error
            if report.duration_ms is not None:
                record["duration_ms"] = round(report.duration_ms)
            if report.size is not None:
                record["size"] = report.size
            if report.from_cache:
                record["from_cache"] = True
            buffers.requests.append(record)
            if report.by_tabsight:
                record["by_tabsight"] = True
            elif record.get("status", 0) >= 400 or report.error not in NOT_A_FAILURE | {""}:
                buffers.network.append(record)
                self._network_alerts(record)
        elif report.type == "vitals":
            previous = buffers.vitals.get(report.navigation)
            if previous is None:
                self._finish_page_loads(buffers)
            record.update(navigation=report.navigation, values=values)
            buffers.vitals[report.navigation] = record
            buffers.vitals.move_to_end(report.navigation)
            while len(buffers.vitals) > VITALS_BUFFER:
                buffers.vitals.popitem(last=False)
            self._vitals_alerts(record)
        elif report.type == "security":
            self._security(record, report, buffers)
        elif report.type == "frustration":
            self._frustration(record, report)

    def _buffers(self, tab_id: int) -> TabBuffers:
        buffers = self.tabs.get(tab_id)
        if buffers is None:
            buffers = self.tabs[tab_id] = TabBuffers()
            while len(self.tabs) > MAX_TABS:
                self.tabs.popitem(last=False)
        self.tabs.move_to_end(tab_id)
        return buffers

    # -- alerts ----------------------------------------------------------------

    def on_alert(self, alert: Alert) -> None:
        """Hands the alert on, within ALERTS_PER_SECOND."""
        second = int(self.clock())
        if second != self._second:
            held, self._held = self._held, {}
            self._second, self._sent_this_second = second, 0
            if held:
                counts = ", ".join(f"{n} {category}" for category, n in held.items())
                self._sent_this_second += 1
                self._deliver(
                    Alert(
                        "anomaly",
                        "warning",
                        f"{sum(held.values())} more alerts in one second",
                        f"not sent one by one ({counts}); observe errors/network has them all",
                        source="detector",
                    )
                )
        if self._sent_this_second >= ALERTS_PER_SECOND:
            self._held[alert.category] = self._held.get(alert.category, 0) + 1
            return
        self._sent_this_second += 1
        self._deliver(alert)

    def _error_alerts(self, record: dict[str, Any], now: float) -> None:
        kind = {"exception": "Uncaught exception", "rejection": "Unhandled rejection"}.get(
            record["kind"], "Console error"
        )
        detail = record.get("source", "")
        if record.get("stack"):
            detail = (detail + "\n" if detail else "") + "\n".join(record["stack"].splitlines()[:3])
        self.on_alert(
            Alert("errors", "error", f"{kind}: {record['text'][:160]}", detail, record["url"], record["tab_id"])
        )
        spike = self._spike.add(now)
        if spike:
            count, average = spike
            self.on_alert(
                Alert(
                    "anomaly",
                    "warning",
                    f"Error spike: {count} errors in {SPIKE_BUCKET:g} s",
                    f"{SPIKE_FACTOR}x or more the rolling average of {average:.1f} per {SPIKE_BUCKET:g} s",
                    record["url"],
                    record["tab_id"],
                    source="detector",
                )
            )

    def _network_alerts(self, record: dict[str, Any]) -> None:
        target = f"{record['method']} {_short(record['url'])}"
        if record.get("status", 0) >= 500:
            title = f"Server error: {target} -> {record['status']}"
        elif record.get("error"):
            title = f"Request failed: {target} ({record['error']})"
        else:
            return  # a 4xx is in observe network, not an alert
        self.on_alert(
            Alert("network_errors", "error", title, record.get("resource_type", ""), record["url"], record["tab_id"])
        )

    def _vitals_alerts(self, record: dict[str, Any]) -> None:
        page = _page(record["url"])
        for metric, value in record["values"].items():
            shown = _metric(metric, value)
            if value > BUDGETS[metric] and self._once(record["navigation"], metric, "budget"):
                self.on_alert(
                    Alert(
                        "performance",
                        "warning",
                        f"{metric.upper()} {shown} over the {_metric(metric, BUDGETS[metric])} "
                        f"budget on {_short(record['url'])}",
                        url=record["url"],
                        tab_id=record["tab_id"],
                        source="detector",
                    )
                )
            past = self._baselines.get(page, {}).get(metric)
            if not past:
                continue
            baseline = statistics.median(past)
            if (
                value >= 2 * baseline
                and value - baseline >= REGRESSION_FLOOR[metric]
                and self._once(record["navigation"], metric, "regression")
            ):
                self.on_alert(
                    Alert(
                        "regression",
                        "warning",
                        f"{metric.upper()} regressed on {_short(record['url'])}: {shown} "
                        f"vs a baseline of {_metric(metric, baseline)}",
                        f"median of the last {len(past)} loads",
                        record["url"],
                        record["tab_id"],
                        source="detector",
                    )
                )

    def _security(self, record: dict[str, Any], report: Report, buffers: TabBuffers) -> None:
        """A violation the browser reported (the Reporting API, in the extension's isolated world): kept in the
        tab's logs as a warning and alerted once per page, directive and blocked resource."""
        kind = report.kind if report.kind in SECURITY_KINDS else "csp"
        enforced = report.disposition != "report"
        record.update(
            kind="security",
            level="warn",
            violation=kind,
            directive=report.directive,
            disposition="enforce" if enforced else "report",
        )
        if report.blocked:
            record["blocked"] = redact.url(report.blocked)
        if report.text:
            record["text"] = redact.text(report.text[:MAX_TEXT])
        if report.source and report.source.url:
            record["source"] = _location(report.source)
        buffers.logs.append(record)
        blocked = record.get("blocked", "")  # whole: whose resource it was matters
        what = SECURITY_KINDS[kind]
        verb = "blocked" if enforced else "would block (report-only)"
        title = f"{what} {verb} {report.directive or 'a resource'}" + (f": {blocked[:160]}" if blocked else "")
        if not self._once(_page(record["url"]), f"{kind}:{report.directive}:{blocked}", "security"):
            return
        detail = "; ".join(part for part in (record.get("text", ""), record.get("source", "")) if part)
        self.on_alert(
            Alert("security", "error" if enforced else "warning", title, detail, record["url"], record["tab_id"])
        )

    def _frustration(self, record: dict[str, Any], report: Report) -> None:
        """The user's own input that got nowhere, as the extension saw it: trusted events only, none while
        tabsight was giving the tab input of its own (the service worker drops those)."""
        target = redact.text(report.target[:120]) or "the page"
        seconds = f"{report.span_ms / 1000:.1f} s"
        if report.kind == "repeated_submit":
            title = f"Form submitted {report.times} times in {seconds}: {target}"
            detail = "the user sent the same form again and again and the page stayed"
        elif report.kind == "rage_click":
            title = f"Rage click: {report.times} clicks in {seconds} on {target}"
            detail = "the user clicked one spot again and again and the page did not change"
        else:
            self.dropped += 1
            return
        self.on_alert(
            Alert("user_frustration", "warning", title, detail, record["url"], record["tab_id"], source="user")
        )

    def _finish_page_loads(self, buffers: TabBuffers) -> None:
        """A new page load began in this tab: the earlier ones' last values join their URL's baseline."""
        for record in list(buffers.vitals.values()):
            if record.get("final"):
                continue
            record["final"] = True
            metrics = self._baselines.setdefault(_page(record["url"]), {})
            for metric, value in record["values"].items():
                metrics.setdefault(metric, deque(maxlen=BASELINE_SAMPLES)).append(value)

    def _once(self, navigation: str, metric: str, kind: str) -> bool:
        key = (navigation, metric, kind)
        if key in self._alerted:
            return False
        if len(self._alerted) > 10_000:
            self._alerted.clear()
        self._alerted.add(key)
        return True

    def ci_result(self, result: dict[str, Any]) -> Alert:
        """A CI run's outcome (``tabsight ci-result``) as an alert."""
        status = str(result.get("status", "unknown"))[:40]
        failed = status.lower() in ("fail", "failed", "failure", "error", "errored", "red")
        name = redact.text(str(result.get("name", "CI"))[:100])
        detail = redact.text(str(result.get("summary", ""))[:MAX_TEXT])
        alert = Alert(
            "ci",
            "error" if failed else "info",
            f"{name}: {status}",
            detail,
            redact.url(str(result.get("url", ""))[:4096]),
            source="ci",
        )
        self.on_alert(alert)
        return alert

    # -- queries -------------------------------------------------------------

    def query(
        self, what: str, tab_id: int | None, url: str | None, since: int, limit: int, requests: str = "failed"
    ) -> dict[str, Any]:
        """The newest ``limit`` records of a kind after cursor ``since``, oldest first; for network, the failed
        requests or ``requests="all"``."""
        if tab_id is None:
            tabs = list(self.tabs.values())
        else:
            tabs = [self.tabs[tab_id]] if tab_id in self.tabs else []
        if what == "vitals":
            records = [r for buffers in tabs for r in buffers.vitals.values()]
        else:
            records = [r for buffers in tabs for r in _buffer(buffers, what, requests)]
            if what == "errors":
                records = [r for r in records if r["level"] == "error"]
        records = sorted(
            (r for r in records if r["seq"] > since and (not url or url in r["url"])), key=lambda r: r["seq"]
        )
        shown = records[-limit:]
        return {
            "items": [_compact(r, keep_tab=tab_id is None) for r in shown],
            # every report is numbered in one sequence: anything later is new, whatever its kind
            "cursor": max(since, self.last_seq),
            "omitted": len(records) - len(shown),
        }


def _buffer(buffers: TabBuffers, what: str, requests: str) -> deque:
    if what != "network":
        return buffers.logs
    return buffers.requests if requests == "all" else buffers.network


def network_detail(detail: dict[str, Any], max_body_chars: Any) -> dict[str, Any]:
    """The extension's ``network.detail`` answer as it may leave the host: the URL and every header redacted
    (``Name: value`` lines, so the credential-header rules apply: Authorization, Cookie, Set-Cookie, API keys),
    text bodies redacted, then cut at ``max_body_chars`` (the extension sends a margin more, so that no cut hides
    part of a secret from the rules). A base64 body, given only when the agent asked for binary bodies, is not
    text the rules can read; it goes as it is."""
    limit = (
        max_body_chars if isinstance(max_body_chars, int) and 0 <= max_body_chars <= MAX_BODY_CHARS else MAX_BODY_CHARS
    )
    shown = dict(detail)
    for key in ("url", "error"):
        if isinstance(shown.get(key), str):
            shown[key] = redact.url(shown[key]) if key == "url" else redact.text(shown[key])
    for key in ("request_headers", "response_headers"):
        if isinstance(shown.get(key), list):
            shown[key] = [
                redact.text(f"{pair[0]}: {pair[1]}")
                for pair in shown[key]
                if isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
            ]
    for key in ("request_body", "response_body"):
        body = shown.get(key)
        if isinstance(body, dict) and isinstance(body.get("content"), str):
            shown[key] = {**body, "content": bounded.cap(redact.text(body["content"]), limit)}
    return shown


class SpikeDetector:
    """Errors per SPIKE_BUCKET seconds against the average of the previous SPIKE_HISTORY buckets."""

    def __init__(self) -> None:
        self.bucket = -1
        self.count = 0
        self.history: deque[int] = deque(maxlen=SPIKE_HISTORY)
        self.alerted = False

    def add(self, now: float) -> tuple[int, float] | None:
        bucket = int(now // SPIKE_BUCKET)
        if bucket != self.bucket:
            if self.bucket >= 0:
                self.history.append(self.count)
                for _ in range(min(SPIKE_HISTORY, bucket - self.bucket - 1)):
                    self.history.append(0)  # quiet buckets in between
            self.bucket, self.count, self.alerted = bucket, 0, False
        self.count += 1
        average = sum(self.history) / SPIKE_HISTORY
        if not self.alerted and self.count >= SPIKE_MINIMUM and self.count >= SPIKE_FACTOR * max(average, 1):
            self.alerted = True
            return self.count, average
        return None


def _compact(record: dict[str, Any], keep_tab: bool) -> dict[str, Any]:
    """A record as an agent reads it: its time in ISO 8601 (ms, the host's offset), the tab only when several
    are listed."""
    out = {k: v for k, v in record.items() if k not in ("time", "final") and (keep_tab or k != "tab_id")}
    out["time"] = wall_time(record["time"], "milliseconds")
    return out


def _location(source: Source) -> str:
    where = redact.url(source.url)
    if source.line is not None:
        where += f":{source.line}"
        if source.column is not None:
            where += f":{source.column}"
    return where


def _plausible(metric: str, value: float) -> bool:
    return math.isfinite(value) and 0 <= value <= VITAL_LIMITS[metric]


def _page(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def _short(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path or "/"
    return path + (f"?{parts.query}" if parts.query else "") if parts.netloc else url


def _metric(metric: str, value: float) -> str:
    return f"{value:.3f}" if metric == "cls" else f"{round(value)} ms"
