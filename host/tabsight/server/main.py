"""``tabsight mcp``: the MCP server over stdio, from the process's start.

The wire is claimed and read first (``lines.py``), so that the opening request is answered and a browser started
ahead (``handshake.py``) before and while the MCP SDK and the tools are imported (about 0.7 s); then the SDK's
server serves (``app.py``).
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import sys
import threading

from .handshake import Early
from .lines import LinePump, claim_stdio, write_line

#: how long the SDK's import waits for the opening request and the browser it starts (a client sends that request
#: as it spawns the server; one that waits longer is served as soon anyway: the opening answer does not need the SDK)
OPENING_WAIT = 0.5


def run() -> int:
    # stdout is the MCP channel: logs go to stderr only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="tabsight: %(message)s")
    # A client may stop a front it sees answering (SIGINT, SIGTERM) while the imports still run: it exits as a
    # serving one does (128 + the signal's number), without a traceback. The server installs its own handlers.
    sys.unraisablehook = _exit_if_swallowed
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _exit_at_once)
    stdin, stdout, release = claim_stdio()
    early = Early(functools.partial(write_line, stdout), _launch_ahead)
    pump = LinePump(stdin, early.inspect)
    try:
        # first what a launch ahead needs (a tool call comes right after the opening answer), then the SDK and
        # the tools: most of a cold start, now while the browser starts
        from ..browser import embedded  # noqa: F401

        # the browser started at the opening request spawns first (a few tens of milliseconds): the SDK's import
        # would otherwise take the cores its start needs
        early.opened.wait(OPENING_WAIT)
        from . import app

        return app.run(stdin, stdout, pump, early)
    finally:
        release()
        _end_unused_ahead()


def _exit_at_once(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _exit_if_swallowed(unraisable: sys.UnraisableHookArgs) -> None:
    """Python swallows an exception raised where it runs a weakref callback or a ``__del__``: a signal's
    SystemExit that lands there (seen: a SIGTERM while the imports freed a module lock printed "Exception
    ignored" and the front went on starting up) ends the process here, quietly, after what ``run``'s finally
    would have done."""
    if isinstance(unraisable.exc_value, SystemExit):
        # in a thread, joined for a moment: this thread may hold the lock it takes
        ending = threading.Thread(target=_end_unused_ahead, daemon=True)
        ending.start()
        ending.join(2)
        code = unraisable.exc_value.code
        os._exit(code if isinstance(code, int) else 1)
    sys.__unraisablehook__(unraisable)


def _launch_ahead(headless: bool) -> None:
    from ..browser import embedded
    from ..errors import BrowserError

    try:
        isolated = embedded.isolated_mode()
    except BrowserError:
        return  # the session's own look for a browser says what is wrong
    embedded.launch_ahead(headless, isolated=isolated)


def _end_unused_ahead() -> None:
    """A browser started ahead that no session took over (a signal ended the front while it loaded) ends too;
    its host removes its profile."""
    from ..browser import embedded

    browser = embedded.take_ahead()
    if browser is not None:
        browser.process.terminate()
