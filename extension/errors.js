// Error codes of the wire protocol (docs/wire-protocol.md) and the mapping of
// anything a handler throws onto them.

export class TabsightError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'TabsightError';
    this.code = code;
  }
}

export function badRequest(message) {
  return new TabsightError('bad_request', message);
}

// Turns any thrown value into the `{code, message}` of an `error` frame.
// Chrome's own errors arrive as plain Errors, so the ones callers can act on
// are recognised by their text.
export function toWireError(err) {
  if (err instanceof TabsightError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  const noTab = /No tab with id:? (-?\d+)/.exec(message);
  if (noTab) return { code: 'no_tab', message: `No tab with id ${noTab[1]}` };
  return { code: 'internal', message };
}
