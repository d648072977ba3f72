// The `page.execute` method: a page script and/or a list of CDP calls on a
// tab, for an agent that needs more than the other methods give.
//
// Both go through the debugger: the script with Runtime.evaluate (awaited,
// returned by value; page CSP does not apply), each CDP step with its own
// bound. Every step's result or error is reported; a step that times out
// ends the call. The attachment is dropped at once afterwards (not after
// the usual idle delay): what the steps switched on (domains, overrides,
// interception) must not outlive the call (cdp.js renew).

import { isCanceledByUser, send, withDebugger } from './cdp.js';
import { badRequest } from './errors.js';
import { MAX_CDP_STEPS } from './limits.js';
import { intParam, optionalStringParam, tabIdParam } from './params.js';

export async function execute(params, signal) {
  const tabId = tabIdParam(params);
  const script = optionalStringParam(params, 'script');
  const steps = stepsParam(params);
  const timeoutMs = intParam(params, 'timeout_ms', 100, 120_000, 30_000);
  const maxChars = intParam(params, 'max_chars', 1000, 100_000_000, 100_000);
  if (!script && steps.length === 0) throw badRequest('execute needs a script, cdp steps, or both');
  await chrome.tabs.get(tabId);

  return withDebugger(tabId, async () => {
    const answer = {};
    if (script) answer.script = await evaluate(tabId, script, timeoutMs, maxChars, signal);
    if (steps.length) {
      answer.cdp = [];
      let timedOut = answer.script?.timed_out ?? false;
      for (const { method, params: stepParams } of steps) {
        if (timedOut) {
          answer.cdp.push({ method, skipped: 'an earlier step timed out' });
          continue;
        }
        const outcome = await bounded(send(tabId, method, stepParams ?? {}, signal), timeoutMs);
        timedOut = outcome.timed_out ?? false;
        answer.cdp.push({ method, ...outcome });
      }
    }
    return answer;
  }, { detach: 'now' });
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
