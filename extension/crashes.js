// Tabs whose page's process crashed (out of memory, killed, Page.crash): a
// call on one is answered at once with "the tab crashed" rather than time
// out or read a stale title, until a navigation loads a page again.
//
// Chrome reports a crashed tab as status "unloaded" without `discarded`;
// an attached debugger also gets Inspector.targetCrashed, at the moment of
// the crash, which ends a call in flight.

import { Code, TabsightError } from './errors.js';

// tabId -> callbacks waiting for that tab to crash
const crashWaiters = new Map();

chrome.debugger.onEvent.addListener((source, method) => {
  if (method === 'Inspector.targetCrashed' && source.tabId !== undefined) wake(source.tabId);
});
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status === 'unloaded' && !tab.discarded) wake(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => crashWaiters.delete(tabId));

function wake(tabId) {
  for (const callback of crashWaiters.get(tabId) ?? []) callback();
  crashWaiters.delete(tabId);
}

export async function hasCrashed(tabId) {
  try {
    const tab = await chrome.tabs.get(tabId);
    return tab.status === 'unloaded' && !tab.discarded;
  } catch {
    return false; // no such tab: the method itself says so
  }
}

export function crashedError(tabId) {
  return new TabsightError(Code.TAB_CRASHED, `Tab ${tabId} crashed: its page's process ended.`);
}

// Resolves when the tab crashes; the returned function stops waiting.
export function whenCrashed(tabId) {
  let stop;
  const crashed = new Promise((resolve) => {
    const waiters = crashWaiters.get(tabId) ?? [];
    waiters.push(resolve);
    crashWaiters.set(tabId, waiters);
    stop = () => {
      const left = (crashWaiters.get(tabId) ?? []).filter((callback) => callback !== resolve);
      if (left.length) crashWaiters.set(tabId, left);
      else crashWaiters.delete(tabId);
    };
  });
  return { crashed, stop };
}
