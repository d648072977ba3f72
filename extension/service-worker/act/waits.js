// How an action waits: for its turn on the tab, for a page call it may stop
// waiting for, for a promise a bounded time, and between polls.

// How often a poll looks at the page again.
export const POLL_MS = 50;

// Pointer actions on one tab take turns (the page keeps one guard at a
// time), and so do typing and selecting (each keeps its control between calls).
const actionTurns = new Map();

export function exclusive(tabId, fn) {
  const previous = actionTurns.get(tabId) ?? Promise.resolve();
  const run = previous.then(fn);
  const done = run.catch(() => {});
  actionTurns.set(tabId, done);
  done.then(() => {
    if (actionTurns.get(tabId) === done) actionTurns.delete(tabId);
  });
  return run;
}

// A page call that stops waiting when the request is cancelled (a page
// behind an open dialog answers no script until the dialog is closed).
export function abortable(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// The promise's value, or null if it takes longer than ms.
export function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Polls sleep many times on one request's signal: each sleep takes its
// abort listener away again. A signal aborted before the sleep (while the
// poll's last look ran) fires no more events: it ends the sleep at once.
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
