"""The native host: launched by the browser, bridging it to any number of fronts."""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

from .. import config, profiles
from ..errors import BrowserError
from ..paths import FolderError, extension_ids, extension_origin, host_socket_path

log = logging.getLogger("tabsight.host")


def run(argv: list[str]) -> int:
    """Entry point of ``tabsight host`` (what the browser's launcher runs)."""
    # here, not at the top: a front that starts the embedded browser imports this package for the manifest
    import asyncio

    from .native import caller_origin, extension_channel
    from .router import EmbeddedSettings, Host

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="tabsight host: %(message)s")
    origin = caller_origin(argv)
    allowed = {extension_origin(extension): extension for extension in extension_ids()}
    if origin not in allowed:
        # Only tabsight's own extension may drive this host (the manifest's
        # allowed_origins already says so; this also refuses hand-started hosts).
        log.error(
            "refusing to serve %s: only %s may start this host",
            origin or "an unknown caller",
            " or ".join(allowed),
        )
        return 1

    browser = os.getppid()  # now, while it is surely alive: it may be gone when we are done
    try:
        embedded = EmbeddedSettings.from_config()
    except BrowserError as exc:  # a value TABSIGHT_EMBEDDED_LINGER does not take: the browser's log says which
        log.error("%s", exc)
        return 1

    async def main() -> None:
        host = Host(await extension_channel(), host_socket_path(os.getpid()), embedded, allowed[origin])
        await host.run()

    try:
        asyncio.run(main())
    except FolderError as exc:  # the browser's log gets what is wrong with the runtime folder, and how to fix it
        log.error("%s", exc)
        return 1
    remove_embedded_profile(browser)
    return 0


def remove_embedded_profile(browser: int, wait: float = 10.0) -> None:
    """Delete an embedded browser's temporary profile once that browser has exited.

    The host is the one that outlives the browser and knows the profile: the
    front that started it does not wait for it (``tabsight mcp`` exits at once;
    ``tabsight shot`` does wait, and removes it too if it gets there first).
    """
    profile = config.current()[config.TABSIGHT_EMBEDDED_PROFILE]
    if not profile:
        return
    deadline = time.monotonic() + wait
    while os.getppid() == browser and time.monotonic() < deadline:
        time.sleep(0.1)  # our parent is the browser: reparented means it is gone
    if os.getppid() != browser:
        # the embedded browser leads a process group of its own (it was started in a new session)
        profiles.remove_when_gone(Path(profile), browser, wait)
