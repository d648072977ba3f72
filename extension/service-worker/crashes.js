// Tabs whose page's process crashed (out of memory, killed, Page.crash): a
// call on one is answered at once with "the tab crashed" rather than time
// out or read a stale title, until a navigation loads a page again.
//
// Chrome reports a crashed tab as status "unloaded" without `discarded`;
// an attached debugger also gets Inspector.targetCrashed, at the moment of
// the crash, which ends a call in flight.

import { Code, TabsightError } from './errors.js';
import { TabEvent } from './tab-events.js';

const crash = new TabEvent();

chrome.debugger.onEvent.addListener((source, method) => {
  if (method === 'Inspector.targetCrashed' && source.tabId !== undefined) crash.fire(source.tabId);
});
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status === 'unloaded' && !tab.discarded) crash.fire(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => crash.forget(tabId));

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

// { happened: resolves when the tab crashes, stop: stops waiting }
export function whenCrashed(tabId) {
  return crash.wait(tabId);
}
