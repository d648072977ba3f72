// tabsight's error vocabulary: the codes of the wire protocol's error frames
// (docs/wire-protocol.md), and the mapping of anything a handler throws onto
// them. host/tabsight/errors.py defines the same codes under the same names,
// with what an agent can do about each; a test keeps the two lists equal. A
// message here is a sentence without its code: the front adds the hint and
// the code when it lays the failure out for the agent.

export const Code = Object.freeze({
  BAD_REQUEST: 'bad_request',
  CANCELLED: 'cancelled',
  TIMEOUT: 'timeout',
  INTERNAL: 'internal',
  NO_TAB: 'no_tab',
  TAB_GONE: 'tab_gone',
  TAB_CRASHED: 'tab_crashed',
  TAB_OWNED: 'tab_owned',
  TAB_BUSY: 'tab_busy',
  RESTRICTED_PAGE: 'restricted_page',
  NAVIGATION_FAILED: 'navigation_failed',
  NAVIGATION_TIMEOUT: 'navigation_timeout',
  CAPTURE_FAILED: 'capture_failed',
  VIEWPORT_FAILED: 'viewport_failed',
  ELEMENT_NOT_FOUND: 'element_not_found',
  AMBIGUOUS_SELECTOR: 'ambiguous_selector',
  INVALID_SELECTOR: 'invalid_selector',
  ELEMENT_COVERED: 'element_covered',
  ELEMENT_DISABLED: 'element_disabled',
  ELEMENT_NOT_VISIBLE: 'element_not_visible',
  STALE_LABEL: 'stale_label',
  DIALOG_OPEN: 'dialog_open',
  NO_DIALOG: 'no_dialog',
  DIALOG_UNANSWERABLE: 'dialog_unanswerable',
  NO_BROWSER: 'no_browser',
  LAUNCH_FAILED: 'launch_failed',
  BAD_CONFIG: 'bad_config',
  DISCONNECTED: 'disconnected',
  BROWSER_CLOSED: 'browser_closed',
  VERSION_MISMATCH: 'version_mismatch',
  BAD_FRAME: 'bad_frame',
  FRAME_TOO_LARGE: 'frame_too_large',
  FORBIDDEN: 'forbidden',
  DEBUGGER_CANCELED: 'debugger_canceled',
  VIEWPORT_CHANGED: 'viewport_changed',
  NO_FILE_ACCESS: 'no_file_access',
  NOT_ALLOWED: 'not_allowed',
});

export class TabsightError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'TabsightError';
    this.code = code;
  }
}

export function badRequest(message) {
  return new TabsightError(Code.BAD_REQUEST, message);
}

// Turns any thrown value into the `{code, message}` of an `error` frame.
// Chrome's own errors arrive as plain Errors, so the ones callers can act on
// are recognised by their text.
export function toWireError(err) {
  if (err instanceof TabsightError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  const noTab = /No tab with id:? (-?\d+)/.exec(message);
  if (noTab) return { code: Code.NO_TAB, message: `No tab with id ${noTab[1]}` };
  return { code: Code.INTERNAL, message };
}
