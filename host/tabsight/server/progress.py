"""``notifications/progress`` while a tool call runs, for a client that sent a ``progressToken``.

Half a second into a call, and then every 0.9 s until it answers, the
client hears how far it is: ``progress`` is the seconds since the call began
(rising with each report), ``total`` the second by which the current phase
ends at the latest when that is known (a ``timeout`` the call was given), and
``message`` what it is doing now, in the words of the layer doing it
(``tabsight.progress``): "starting tabsight's embedded browser (2.5 s of at
most 30 s)". A quick call sends nothing. Clients that reset their request
timeout on progress (Claude Code's idle timeout; the TypeScript SDK with
``resetTimeoutOnProgress``) thereby keep a long call alive; several show the
message on the call's row.

A call read before the SDK's server served (``handshake.py``) has had its
reports from there until its handler starts: they go on from the same start,
value and rhythm (``since``, ``last``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio

from .. import progress, redact
from ..progress import EVERY, FIRST

log = logging.getLogger("tabsight.front")

T = TypeVar("T")

#: (progress, total, message) -> sent; the SDK's ``ServerSession.report_progress``
Send = Callable[[float, "float | None", "str | None"], Awaitable[None]]


async def reporting(
    send: Send,
    what: str,
    work: Callable[[], Awaitable[T]],
    *,
    first: float = FIRST,
    every: float = EVERY,
    since: float | None = None,
    last: float = 0.0,
) -> T:
    """``work()``'s result; meanwhile a report through ``send`` at ``first`` s and then every ``every`` s.
    ``what`` says what the call does until a lower layer names a phase of its own. ``since``: when the call
    began, if before (``time.monotonic``); ``last``: the value of the last report it had then."""
    failure: Exception | None = None
    with progress.tracking(what, started=since) as current:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_tick, send, current, first, every, last)
            try:
                result = await work()
            except Exception as exc:  # noqa: BLE001 - raised below as itself, not inside the task group's ExceptionGroup
                failure = exc
            finally:
                tasks.cancel_scope.cancel()  # no report after the answer
    if failure is not None:
        raise failure
    return result


async def _tick(send: Send, current: progress.Progress, first: float, every: float, last: float) -> None:
    due = first
    while True:
        await anyio.sleep(max(0.0, current.started + due - current.clock()))
        report = current.now()
        value = max(report.progress, round(last + 0.1, 1))  # strictly rising, whatever the rounding
        try:
            await send(value, report.total, redact.text(report.message))  # a URL may carry a token
        except Exception as exc:  # noqa: BLE001 - the client went away: the call itself answers (or not) on its own
            log.debug("progress report not sent: %s", exc)
            return
        last = value
        due += every
        elapsed = current.clock() - current.started
        if due < elapsed:  # a slow send: the next report comes a full interval after this one
            due = elapsed + every
