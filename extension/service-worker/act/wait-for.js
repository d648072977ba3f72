// The `page.wait_for` method: until an element matching a selector is
// visible, or a text is on the page, or the time is up.

import { Code, TabsightError, badRequest } from '../errors.js';
import { inPage } from '../page-library-calls.js';
import { intParam, optionalStringParam, tabIdParam } from '../params.js';
import { sleep } from './waits.js';

export async function waitFor(params, signal) {
  const tabId = tabIdParam(params);
  const selector = optionalStringParam(params, 'selector');
  const text = optionalStringParam(params, 'text');
  const timeoutMs = intParam(params, 'timeout_ms', 0, 120_000, 5000);
  if (!selector === !text) throw badRequest('wait_for needs exactly one of selector or text');
  const started = performance.now();
  for (;;) {
    let state = { present: false };
    try {
      state = await inPage(tabId, 'present', { selector, text });
    } catch (err) {
      if (err.code === Code.RESTRICTED_PAGE) throw err; // anything else: a navigation in progress; look again
    }
    if (state.error) throw new TabsightError(Code.BAD_REQUEST, state.message);
    const waited = Math.round(performance.now() - started);
    if (state.present) return { found: selector ? { selector } : { text }, waited_ms: waited };
    if (waited >= timeoutMs) {
      throw new TabsightError(Code.TIMEOUT, `wait_for timed out after ${timeoutMs} ms: ` +
        (selector ? `no visible element matches ${selector}` : `the text ${JSON.stringify(text)} is not on the page`));
    }
    await sleep(100, signal);
  }
}
