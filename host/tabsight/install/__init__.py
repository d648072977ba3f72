"""Registering tabsight's native host with the user's browsers, and checking it.

``tabsight install``, ``tabsight uninstall`` and ``tabsight doctor`` are
:func:`run_install`, :func:`run_uninstall` and :func:`run_doctor`.
"""

from tabsight.install.commands import mcp_client_snippets, run_doctor, run_install, run_uninstall

__all__ = ["mcp_client_snippets", "run_doctor", "run_install", "run_uninstall"]
