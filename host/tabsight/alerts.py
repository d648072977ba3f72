"""tabsight's alert taxonomy: every category an alert has, what produces it, what it means.

An alert travels in the ``alert`` event of the wire protocol (docs/wire-protocol.md), from the host's detectors
(``nativehost/telemetry.py``, ``nativehost/picks.py``) to every front, which hands it to its session's inbox and
stream (``session/streaming.py``). A stream's ``events`` filter (configure streaming) takes the categories'
names, or ``all``, and lets a category through under the names in its ``under`` too. docs/wire-protocol.md lists
the table again; a test keeps the categories the code produces, the ones the filter takes and the documented ones
equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Category:
    name: str
    #: what produces its alerts
    made_by: str
    #: what an alert of it means, in one line
    meaning: str
    #: the other ``events`` values that let it through (a regression is a performance problem too)
    under: tuple[str, ...] = ()
    #: whether a stream's ``url_filter`` applies: its alerts are about the URL they carry
    url_filtered: bool = False


TAXONOMY = (
    Category(
        "errors",
        "the page's console, error and rejection handlers (telemetry)",
        "the page's code failed: an error logged, an uncaught exception, an unhandled rejection",
    ),
    Category(
        "network_errors",
        "the browser's requests (telemetry)",
        "a request failed, or its server answered 5xx (a 4xx is in observe network only)",
        url_filtered=True,
    ),
    Category(
        "performance",
        "Web Vitals (telemetry)",
        "a Web Vital over its budget: LCP 4 s, FCP 3 s, INP 500 ms, TTFB 1.8 s, CLS 0.25",
        url_filtered=True,
    ),
    Category(
        "user_frustration",
        "the user's trusted input (telemetry)",
        "a rage click, or one form sent again and again, and the page did not change",
    ),
    Category(
        "security",
        "the browser's own reports, through the Reporting API (telemetry)",
        "a Content-Security-Policy, Permissions-Policy or Subresource-Integrity violation",
        url_filtered=True,
    ),
    Category(
        "regression",
        "Web Vitals (telemetry)",
        "a Web Vital at least twice its URL's baseline (the median of its last 5 loads)",
        under=("performance",),
        url_filtered=True,
    ),
    Category(
        "anomaly",
        "the host's detectors, and a front's stream",
        "an error spike (3x the rolling average), or more alerts at once than are sent one by one",
        under=("errors",),
    ),
    Category("ci", "`tabsight ci-result` (host.ci_result)", "a CI run's result"),
    Category(
        "picked",
        'the user\'s pick ("Look at this")',
        "the user pointed the agent at an element: observe({what:'picked'}) gives it",
    ),
)

CATEGORIES = tuple(category.name for category in TAXONOMY)
#: what a stream's ``events`` filter takes: a category's name, or every category
EVENTS = (*CATEGORIES, "all")
EventFilter = Literal[EVENTS]  # type: ignore[valid-type]  # (checkers want the values written out)
#: an ``events`` value -> the categories it lets through
MATCHES = {event: {c.name for c in TAXONOMY if event in ("all", c.name, *c.under)} for event in EVENTS}
#: categories whose alerts a stream's ``url_filter`` applies to
URL_FILTERED = {category.name for category in TAXONOMY if category.url_filtered}
