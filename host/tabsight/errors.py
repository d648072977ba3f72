"""tabsight's error vocabulary: the codes that cross the browser boundary, and what to do about each.

A code travels in the ``error`` frames of the wire protocol
(docs/wire-protocol.md), from the extension or the host to a front.
``extension/service-worker/errors.js`` defines the same codes under the same names
(``Code.ELEMENT_NOT_FOUND`` there is ``Code.ELEMENT_NOT_FOUND`` here); a test
keeps the two lists equal. The hint is what an agent can do next: the front
appends it to the message of every failed tool call, and the code after it
(``tools/response.py``: ``refusal``).
"""

from __future__ import annotations

from enum import Enum


class Code(str, Enum):
    # the request itself
    BAD_REQUEST = "bad_request"
    CANCELLED = "cancelled"
    TIMEOUT = "timeout"
    INTERNAL = "internal"
    # tabs and pages
    NO_TAB = "no_tab"
    TAB_GONE = "tab_gone"
    TAB_CRASHED = "tab_crashed"
    TAB_OWNED = "tab_owned"
    TAB_BUSY = "tab_busy"
    RESTRICTED_PAGE = "restricted_page"
    NAVIGATION_FAILED = "navigation_failed"
    NAVIGATION_TIMEOUT = "navigation_timeout"
    CAPTURE_FAILED = "capture_failed"
    VIEWPORT_FAILED = "viewport_failed"
    # elements
    ELEMENT_NOT_FOUND = "element_not_found"
    AMBIGUOUS_SELECTOR = "ambiguous_selector"
    INVALID_SELECTOR = "invalid_selector"
    ELEMENT_COVERED = "element_covered"
    ELEMENT_DISABLED = "element_disabled"
    ELEMENT_NOT_VISIBLE = "element_not_visible"
    STALE_LABEL = "stale_label"
    # dialogs
    DIALOG_OPEN = "dialog_open"
    NO_DIALOG = "no_dialog"
    DIALOG_UNANSWERABLE = "dialog_unanswerable"
    # the chain: front, host, extension, browser
    NO_BROWSER = "no_browser"
    LAUNCH_FAILED = "launch_failed"
    BAD_CONFIG = "bad_config"
    DISCONNECTED = "disconnected"
    BROWSER_CLOSED = "browser_closed"
    VERSION_MISMATCH = "version_mismatch"
    BAD_FRAME = "bad_frame"
    FRAME_TOO_LARGE = "frame_too_large"
    FORBIDDEN = "forbidden"
    # the user's own browser
    DEBUGGER_CANCELED = "debugger_canceled"
    VIEWPORT_CHANGED = "viewport_changed"
    NO_FILE_ACCESS = "no_file_access"
    NOT_ALLOWED = "not_allowed"

    def __str__(self) -> str:
        return self.value


OBSERVE_LABELS = "observe({what:'page', annotate_screenshot:true})"

#: what the agent can do about each failure; appended to the message
HINTS: dict[Code, str] = {
    Code.BAD_REQUEST: "Fix the argument the message names (the tool's schema lists the allowed values).",
    Code.CANCELLED: "The call was cancelled before it finished; call again if it is still wanted.",
    Code.TIMEOUT: "The page or browser may be busy; call again, or with a larger timeout (many clients give up on a "
    "call at 60 s: to wait longer, wait in steps).",
    Code.INTERNAL: "Call again; if it keeps failing, `tabsight doctor` checks the setup.",
    Code.NO_TAB: "Call observe({what:'tabs'}) for the open tabs and configure({action:'track', tab_id}) to pick one.",
    Code.TAB_GONE: "Look at the tab now tracked (observe, screenshot). Call again to act there, or pick a tab: "
    "observe({what:'tabs'}) lists them, configure({action:'track', tab_id}) tracks one.",
    Code.TAB_CRASHED: "Reload it: interact({action:'navigate', url}) with its URL (observe({what:'tabs'}) lists it) "
    "loads the page again.",
    Code.TAB_OWNED: "Observe it as you like. To act there, ask its owner's agent to release it, or take it over "
    "if you must: configure({action:'take_over', tab_id}) (its owner is told). Or open a tab of your own: "
    "interact({action:'open_tab', url}).",
    Code.TAB_BUSY: "Observe it as you like. Call again once the lease ends, or configure({action:'tabs', "
    "on_busy:'wait'}) to wait for it; or open a tab of your own: interact({action:'open_tab', url}).",
    Code.RESTRICTED_PAGE: "Navigate the tab to a web page, or track another tab (observe({what:'tabs'})).",
    Code.NAVIGATION_FAILED: "Check the URL, and that its server is running and reachable from the browser.",
    Code.NAVIGATION_TIMEOUT: "Pass a larger 'timeout', up to 60000 for most clients (with screenshot, "
    "waitForNetworkIdle: false suits a page that keeps the network busy).",
    Code.CAPTURE_FAILED: "Call again; if the tab keeps failing, reload it or capture another tab.",
    Code.VIEWPORT_FAILED: "Ask for a smaller width and height: the screen may be too small for that window.",
    Code.ELEMENT_NOT_FOUND: f"Check the selector, or call {OBSERVE_LABELS} and use a label.",
    Code.AMBIGUOUS_SELECTOR: f"Make the selector match one element, or call {OBSERVE_LABELS} and use a label.",
    Code.INVALID_SELECTOR: "Fix the CSS selector's syntax.",
    Code.ELEMENT_COVERED: "Something else is where it was: close or scroll away what covers it, or let the page "
    "settle (interact wait_for) and observe again, then call again.",
    Code.ELEMENT_DISABLED: "Wait until the page enables it (interact wait_for), or act on another element.",
    Code.ELEMENT_NOT_VISIBLE: "Make it visible first (open its menu or section, or scroll), then call again.",
    Code.STALE_LABEL: f"Call {OBSERVE_LABELS} for fresh labels.",
    Code.DIALOG_OPEN: "Answer it with interact({action:'dialog', accept:true}) (or accept:false; prompt_text for a "
    "prompt), or let a policy answer dialogs: configure({action:'dialogs', dialog_policy:'accept'}).",
    Code.NO_DIALOG: "Nothing to answer: the dialog was answered or closed already; carry on.",
    Code.DIALOG_UNANSWERABLE: "A navigate closes it (to the tab's own URL to reload). To have later dialogs answered "
    "as they open, keep a policy for the tab: configure({action:'dialogs', dialog_policy}) (report keeps the tab "
    "attached so that they can be answered).",
    Code.NO_BROWSER: "`tabsight doctor` names the missing link.",
    Code.LAUNCH_FAILED: "Check that a Chromium-family browser is installed (Debian/Ubuntu: sudo apt-get install "
    "chromium), or set TABSIGHT_CHROMIUM to one in the MCP client's configuration; `tabsight doctor` checks the "
    "setup.",
    Code.BAD_CONFIG: "Fix the environment variable the message names, in the MCP client's configuration.",
    Code.DISCONNECTED: "The extension reconnects by itself; call again in a moment.",
    Code.BROWSER_CLOSED: "The browser was closed; the next call connects to a browser again.",
    Code.VERSION_MISMATCH: "`tabsight doctor` shows which part is from another release.",
    Code.BAD_FRAME: "Another program answered on tabsight's socket; `tabsight doctor` checks the runtime folder.",
    Code.FRAME_TOO_LARGE: "Ask for less: jpeg or webp, max_width/max_height, a selector, or a smaller limit.",
    Code.FORBIDDEN: "Run the MCP client as the user who runs the browser.",
    Code.DEBUGGER_CANCELED: "Ask the user whether tabsight may go on acting in their browser; if they agree, call "
    "configure({action:'debugger'}), then call again. Until then, screenshots of a tab in front still work.",
    Code.VIEWPORT_CHANGED: "Take a new screenshot and use its coordinates, or target the element by label or selector.",
    Code.NO_FILE_ACCESS: "Ask the user to turn on 'Allow access to file URLs' in tabsight's Details at "
    "chrome://extensions, then call again.",
    Code.NOT_ALLOWED: "tabsight's security boundary refuses this (docs/security.md). Use the tools' own actions "
    "(navigate, screenshot, observe, interact) for page work; what only the user may allow is in their tabsight "
    "settings file, never a tool argument.",
}


class BrowserError(Exception):
    """The browser side (extension, host, or the link to them) could not do what was asked."""

    def __init__(self, code: Code | str, message: str) -> None:
        super().__init__(message)
        self.code = _known(code)
        self.message = message

    @property
    def hint(self) -> str:
        return HINTS[self.code]


class ToolError(Exception):
    """An error for the agent to read, worded by the tool: what was wrong and how to recover. One with a ``code``
    is a failure of the vocabulary's that the front finds itself (a label gone stale): the code's hint says how to
    recover, after the words."""

    def __init__(self, message: str, code: Code | None = None) -> None:
        super().__init__(message)
        self.code = code

    @property
    def hint(self) -> str:
        return HINTS[self.code] if self.code else ""


def _known(code: Code | str) -> Code:
    """A code from the wire; one this release does not know reads as internal, never as a crash."""
    try:
        return Code(code)
    except ValueError:
        return Code.INTERNAL
