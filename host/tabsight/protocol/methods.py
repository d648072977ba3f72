"""The request methods of the wire protocol (docs/wire-protocol.md): every name, once.

The extension serves the ``EXTENSION`` ones (``extension/service-worker/background.js``
maps each to its handler); the host answers the ``HOST`` ones itself. A test
keeps this list and the extension's table equal. Python code names a method
only through this enum (``tabsight.browser.client`` is the one caller).
"""

from __future__ import annotations

from enum import Enum


class Method(str, Enum):
    # served by the extension
    PING = "ping"
    TABS_LIST = "tabs.list"
    TAB_NAVIGATE = "tab.navigate"
    TAB_HISTORY = "tab.history"
    TAB_OPEN = "tab.open"
    TAB_CLOSE = "tab.close"
    PAGE_INFO = "page.info"
    PAGE_OUTLINE = "page.outline"
    CAPTURE = "capture"
    CAPTURE_URL = "capture.url"
    SET_VIEWPORT = "window.set_viewport"
    EMULATION_SET = "emulation.set"
    ELEMENTS_FIND = "elements.find"
    ELEMENT_ACT = "element.act"
    PAGE_WAIT_FOR = "page.wait_for"
    PAGE_EXECUTE = "page.execute"
    DIALOG_ANSWER = "dialog.answer"
    DIALOG_POLICY = "dialog.policy"
    DEBUGGER_ALLOW = "debugger.allow"
    NETWORK_DETAIL = "network.detail"
    # answered by the host
    HOST_STATUS = "host.status"
    TELEMETRY_QUERY = "telemetry.query"
    HOST_CI_RESULT = "host.ci_result"
    PICKS_QUERY = "picks.query"
    TABS_CLAIM = "tabs.claim"
    FILES_PUT = "files.put"

    def __str__(self) -> str:
        return self.value


HOST = frozenset(
    {
        Method.HOST_STATUS,
        Method.TELEMETRY_QUERY,
        Method.HOST_CI_RESULT,
        Method.PICKS_QUERY,
        Method.TABS_CLAIM,
        Method.FILES_PUT,
    }
)
EXTENSION = frozenset(Method) - HOST
