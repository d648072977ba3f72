// The `page.execute` method: a page script and/or a list of CDP calls on a
// tab, for an agent that needs more than the other methods give.
//
// Both go through the debugger: the script with Runtime.evaluate (awaited,
// returned by value; page CSP does not apply) in the page's main world, each
// CDP step with its own bound, once cdp-policy.js has let it through (a step
// it refuses ends the call, saying why). Every step's result or error is
// reported; a step that times out ends the call. After CDP steps the attachment
// is dropped at once (and a clean one made for the usual idle time): what the
// steps switched on (domains, overrides, interception) must not outlive the
// call (cdp.js renew). A script alone switches nothing on, and its attachment
// stays for the idle time as any action's does: the responses its page's
// requests get then are read without a gap (network.js).
//
// The tab's URL is checked against the navigation rule before the script,
// before each step and after the call: a page script can navigate too, and a
// step must never read a page tabsight would not have opened. A tab found on
// such a page is sent to about:blank.
//
// Unless the user allowed reading cookies (settings file, the host adds it as
// `allow`), every cookie value of the profile is masked wherever it appears in
// the answer, as is, URL-encoded or base64-encoded (cookie-mask.js).

import { isCanceledByUser, send, withDebugger } from './cdp.js';
import { navigationRefusal, stepRefusal } from './cdp-policy.js';
import { maskCookieValues } from './cookie-mask.js';
import { guardTab } from './navigation-guard.js';
import { Code, TabsightError, badRequest } from './errors.js';
import { MAX_CDP_STEPS } from './limits.js';
import { fileRootsParam, intParam, optionalStringParam, tabIdParam } from './params.js';

// How long reading the profile's cookies (to mask them) may take, at most.
const COOKIE_READ_MS = 2000;
// How long a tab sent away from a page it may not show may take to get there.
const LEAVE_MS = 5000;
// Steps whose result's `data` is binary, base64: an image or a PDF cannot be masked, and a value's base64 form
// met there by chance must not break it.
const BINARY_RESULTS = new Set(['Page.captureScreenshot', 'Page.printToPDF']);

export async function execute(params, signal) {
  const tabId = tabIdParam(params);
  const script = optionalStringParam(params, 'script');
  const steps = stepsParam(params);
  const timeoutMs = intParam(params, 'timeout_ms', 100, 120_000, 30_000);
  const maxChars = intParam(params, 'max_chars', 1000, 100_000_000, 100_000);
  const fileRoots = fileRootsParam(params);
  const allow = { read_cookies: params.allow?.read_cookies === true, write_cookies: params.allow?.write_cookies === true };
  if (!script && steps.length === 0) throw badRequest('execute needs a script, cdp steps, or both');
  const tabUrl = await checkedTabUrl(tabId, fileRoots, { during: false });
  guardTab(tabId, fileRoots); // what its scripts start may go on after the call
  const context = { kind: params.browser_kind === 'own' ? 'own' : 'user', tabUrl, fileRoots, allow };
  steps.forEach(({ method, params: stepParams }, index) => {
    const why = stepRefusal(method, stepParams ?? {}, context);
    if (why) throw new TabsightError(Code.NOT_ALLOWED, `Refused cdp[${index}] ${method}: ${why}.`);
  });

  return withDebugger(tabId, async () => {
    const answer = {};
    if (script) answer.script = await evaluate(tabId, script, timeoutMs, maxChars, signal);
    if (steps.length) {
      answer.cdp = [];
      let timedOut = answer.script?.timed_out ?? false;
      for (const [index, { method, params: stepParams }] of steps.entries()) {
        if (timedOut) {
          answer.cdp.push({ method, skipped: 'an earlier step timed out' });
          continue;
        }
        await checkedTabUrl(tabId, fileRoots);
        await refuseHistoryEntry(tabId, index, method, stepParams, fileRoots, signal);
        const outcome = await bounded(send(tabId, method, stepParams ?? {}, signal), timeoutMs);
        timedOut = outcome.timed_out ?? false;
        answer.cdp.push({ method, ...outcome });
      }
    }
    await checkedTabUrl(tabId, fileRoots);
    return allow.read_cookies ? answer : withoutCookieValues(tabId, answer, signal);
  }, { detach: steps.length ? 'now' : 'idle' });
}

// The answer with the profile's cookie values masked in every text a script or step returned (cookie-mask.js),
// read once the steps are done (a value they set is one too). Where they cannot be read (the steps crashed the
// tab), the texts are withheld rather than let through unchecked.
async function withoutCookieValues(tabId, answer, signal) {
  const binary = ([list, index, result, key]) => list === 'cdp' && result === 'result' && key === 'data'
    && BINARY_RESULTS.has(answer.cdp[index]?.method);
  if (!holdsText(answer, binary)) return answer; // a screenshot's answer: nothing to read the cookies for
  const read = await bounded(send(tabId, 'Network.getAllCookies', {}, signal), COOKIE_READ_MS);
  if (read.error) {
    const withheld = 'withheld: the cookie values it might hold could not be checked (the tab did not answer)';
    return {
      ...(answer.script && { script: { error: withheld } }),
      ...(answer.cdp && { cdp: answer.cdp.map(({ method, skipped }) => (skipped ? { method, skipped } : { method, error: withheld })) }),
    };
  }
  return maskCookieValues(answer, read.result.cookies.map((cookie) => cookie.value), binary);
}

// Whether the answer carries any text a page or step produced: not a step's method name, the script result's
// type, or binary data.
function holdsText(answer, binary) {
  const ours = (path) => (path.length === 3 && path[0] === 'cdp' && path[2] === 'method')
    || (path.length === 2 && path[0] === 'script' && path[1] === 'type');
  const texts = (value, path) => {
    if (typeof value === 'string') return !binary(path) && !ours(path);
    if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => texts(item, [...path, key]));
    return false;
  };
  return texts(answer, []);
}

// The tab's URL (the one it is loading, if any), once it is known to be one
// tabsight may open. Otherwise the call is refused; and where the tab got there
// during the call (`during`: a script or step navigated it), it goes to
// about:blank first, so that no later call reads that page. A tab the user
// left on such a page before the call is theirs, and is not moved.
async function checkedTabUrl(tabId, fileRoots, { during = true } = {}) {
  const tab = await chrome.tabs.get(tabId).catch((err) => {
    if (during) return null; // the steps closed it (a script's window.close()): it shows nothing any more
    throw err;
  });
  if (tab === null) return null;
  const url = tab.pendingUrl || tab.url || 'about:blank';
  const why = navigationRefusal(url, fileRoots);
  if (!why) return url;
  if (!during) throw new TabsightError(Code.NOT_ALLOWED, `Refused: the tab shows a page execute may not run in (${why}).`);
  await leaveFor(tabId, 'about:blank');
  throw new TabsightError(Code.NOT_ALLOWED, `Refused: the tab went to a page tabsight does not open (${why}); ` +
    'it was sent to about:blank.');
}

// Sends the tab to `url` and waits, at most LEAVE_MS, until it shows it: the next call must not find the
// page it left.
async function leaveFor(tabId, url) {
  await chrome.tabs.update(tabId, { url });
  const deadline = performance.now() + LEAVE_MS;
  for (let tab = await chrome.tabs.get(tabId); tab.url !== url || tab.pendingUrl || tab.status === 'loading';
    tab = await chrome.tabs.get(tabId)) {
    if (performance.now() > deadline) break;
    await new Promise((resolve) => { setTimeout(resolve, 20); });
  }
}

// Page.navigateToHistoryEntry goes where the entry is: the same rule as Page.navigate.
async function refuseHistoryEntry(tabId, index, method, stepParams, fileRoots, signal) {
  if (method !== 'Page.navigateToHistoryEntry') return;
  const { entries } = await send(tabId, 'Page.getNavigationHistory', {}, signal);
  const entry = entries.find(({ id }) => id === stepParams?.entryId);
  const why = entry ? navigationRefusal(entry.url, fileRoots) : null;
  if (why) throw new TabsightError(Code.NOT_ALLOWED, `Refused cdp[${index}] ${method}: ${why}.`);
}

function stepsParam(params) {
  const steps = params.cdp ?? [];
  if (!Array.isArray(steps) || steps.length > MAX_CDP_STEPS) {
    throw badRequest(`Invalid cdp: expected a list of at most ${MAX_CDP_STEPS} {method, params} steps`);
  }
  steps.forEach((step, index) => {
    if (typeof step?.method !== 'string' || !/^[A-Z][A-Za-z]*\.[a-zA-Z]+$/.test(step.method)) {
      throw badRequest(`Invalid cdp[${index}].method: ${JSON.stringify(step?.method)} (allowed: Domain.method, e.g. Page.captureScreenshot)`);
    }
    if (step.params !== undefined && (typeof step.params !== 'object' || step.params === null || Array.isArray(step.params))) {
      throw badRequest(`Invalid cdp[${index}].params: expected an object`);
    }
  });
  return steps;
}

// The script as an expression (`document.title`, `fetch(...).then(...)`),
// or, if that is not valid, as the body of an async function (statements
// with `return`).
async function evaluate(tabId, script, timeoutMs, maxChars, signal) {
  const run = (expression) => bounded(send(tabId, 'Runtime.evaluate', {
    expression, awaitPromise: true, returnByValue: true, userGesture: true,
  }, signal), timeoutMs);
  let outcome = await run(script);
  if (outcome.result?.exceptionDetails?.exception?.className === 'SyntaxError') {
    outcome = await run(`(async () => {\n${script}\n})()`);
  }
  if (outcome.error || outcome.timed_out) return outcome;
  const { result, exceptionDetails } = outcome.result;
  if (exceptionDetails) {
    return { error: exceptionDetails.exception?.description ?? exceptionDetails.text ?? 'the script threw' };
  }
  return { result: cut(result.value ?? null, maxChars), type: result.type };
}

// A page decides how much its script returns: past maxChars of JSON, the
// answer carries the start of it and its full length (the front cuts finer).
export function cut(value, maxChars) {
  const json = typeof value === 'string' ? value : JSON.stringify(value);
  if (json === undefined || json.length <= maxChars) return value;
  return `${json.slice(0, maxChars)}… [truncated: ${json.length} chars]`;
}

// A CDP call's { result } or { error }, or { error, timed_out } past the bound;
// the user's Cancel on the debugging bar rejects.
async function bounded(command, timeoutMs) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ error: `timed out after ${timeoutMs} ms`, timed_out: true }), timeoutMs);
  });
  try {
    const outcome = command.then((result) => ({ result }), (err) => {
      if (isCanceledByUser(err)) throw err; // not a step's failure: the whole call stops
      return { error: err.message };
    });
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
