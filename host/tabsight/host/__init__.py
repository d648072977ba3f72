"""The native host: launched by the browser, bridging it to any number of fronts."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from ..paths import extension_origin, host_socket_path
from .native import caller_origin, extension_channel
from .router import EmbeddedSettings, Host

log = logging.getLogger("tabsight.host")


def run(argv: list[str]) -> int:
    """Entry point of ``tabsight host`` (what the browser's launcher runs)."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="tabsight host: %(message)s")
    origin = caller_origin(argv)
    if origin != extension_origin():
        # Only tabsight's own extension may drive this host (the manifest's
        # allowed_origins already says so; this also refuses hand-started hosts).
        log.error("refusing to serve %s: only %s may start this host", origin or "an unknown caller", extension_origin())
        return 1

    async def main() -> None:
        host = Host(await extension_channel(), host_socket_path(os.getpid()), EmbeddedSettings.from_env())
        await host.run()

    asyncio.run(main())
    return 0
