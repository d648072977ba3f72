"""What the tool call under way is doing now, in words: the phases its layers name, for progress reports.

No MCP here. The MCP layer (``tabsight.server.progress``) opens a ``Progress`` for
each tool call (``tracking``) and reads it every second for a
``notifications/progress``; the layers below only say what they start doing,
with ``phase``::

    with phase(f"waiting for {url} to load", bound=timeout_s):
        await client.navigate(...)

A phase lasts for its block; the one around it comes back afterwards. Outside
a tracked call (the CLI, unit tests, the test suite's keeper) ``phase`` does
nothing. The call's ``Progress`` rides in a context variable, so it follows
the call's own task (and ``asyncio.to_thread``) and concurrent calls never
see each other's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

#: the most characters of a phase's words in a report (a URL can be long; clients show a line)
LONGEST = 160
#: seconds into a call of its first report, and between reports (under a second: "at least once a second",
#: with room for the event loop's and the pipe's delays)
FIRST = 0.5
EVERY = 0.9


@dataclass(frozen=True)
class Phase:
    #: what the call is doing, for a person: "waiting for #late to be visible"
    what: str
    #: when it began (the call's clock)
    started: float
    #: the most seconds it may take, when known (a timeout the call was given)
    bound: float | None = None


@dataclass(frozen=True)
class Report:
    """One progress report: seconds since the call began, the second by which its current phase ends at the
    latest (when known), and what it is doing."""

    progress: float
    total: float | None
    message: str


class Progress:
    """One tool call's progress: when it began and what it is doing now."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic, started: float | None = None) -> None:
        self.clock = clock
        self.started = clock() if started is None else started
        self.phase = Phase(what, self.started)

    def now(self) -> Report:
        phase = self.phase
        what = phase.what if len(phase.what) <= LONGEST else phase.what[: LONGEST - 1] + "…"
        now = self.clock()
        into = now - phase.started
        total = None
        if phase.bound is not None:
            end = phase.started - self.started + phase.bound
            total = round(end, 1) if end > now - self.started else None  # overrun: the end is unknown now
            message = f"{what} ({into:.1f} s of at most {phase.bound:g} s)"
        else:
            message = f"{what} ({into:.1f} s)"
        return Report(round(now - self.started, 1), total, message)


_current: ContextVar[Progress | None] = ContextVar("tabsight_progress", default=None)


@contextmanager
def tracking(
    what: str, clock: Callable[[], float] = time.monotonic, started: float | None = None
) -> Iterator[Progress]:
    """A tool call's progress, for the block (the call): its phases are what ``phase`` names inside it.
    ``started``: when the call began, if before the block (on ``clock``)."""
    progress = Progress(what, clock, started)
    token = _current.set(progress)
    try:
        yield progress
    finally:
        _current.reset(token)


@contextmanager
def phase(what: str, bound: float | None = None) -> Iterator[None]:
    """The call under way is doing ``what`` (in at most ``bound`` seconds, when given) until the block ends."""
    progress = _current.get()
    if progress is None:
        yield
        return
    outer = progress.phase
    progress.phase = Phase(what, progress.clock(), bound)
    try:
        yield
    finally:
        progress.phase = outer
