// What an action changed: DOM mutations until the page is quiet, or the
// new page if it navigated.

import { runInPage } from '../page-library-calls.js';
import { tabUrl } from '../restricted.js';
import { POLL_MS, sleep } from './waits.js';

// After an action, changes are collected until the DOM has been quiet this
// long, or SETTLE_MAX_MS has passed. 100 ms is the stable-DOM window Chrome
// DevTools MCP waits for after its actions too (WaitForHelper's stableDomFor).
const QUIET_MS = 100;
const SETTLE_MAX_MS = 1500;
const NAVIGATION_WAIT_MS = 10_000;

export async function settle(tabId, documentBefore, signal) {
  const deadline = performance.now() + SETTLE_MAX_MS;
  let wait = POLL_MS;
  for (;;) {
    await sleep(wait, signal);
    let state = null;
    try {
      // null when this document has no library: a new page
      state = await runInPage(tabId, { func: () => globalThis.__tabsight?.changed() ?? null });
    } catch {
      // mid-navigation: the document is being replaced
    }
    if (state === null || state.document !== documentBefore) return { ...(await loadedTab(tabId, signal)), navigated: true };
    if (performance.now() > deadline) return { url: state.url, title: state.title, navigated: false, dom: state.dom };
    // quiet, unless the tab is loading: a form's submit leaves its page quiet until the next page commits, which
    // a slow server or a loaded machine can keep past QUIET_MS (a CI run answered navigated: false so)
    if (state.quiet_ms >= QUIET_MS && (await chrome.tabs.get(tabId)).status !== 'loading') {
      return { url: state.url, title: state.title, navigated: false, dom: state.dom };
    }
    // look again when the quiet would be long enough, if nothing changes meanwhile (not a poll later)
    wait = Math.min(POLL_MS, Math.max(10, QUIET_MS - state.quiet_ms));
  }
}

async function loadedTab(tabId, signal) {
  const deadline = performance.now() + NAVIGATION_WAIT_MS;
  let tab = await chrome.tabs.get(tabId);
  while (tab.status === 'loading' && performance.now() < deadline) {
    await sleep(POLL_MS, signal);
    tab = await chrome.tabs.get(tabId);
  }
  return { url: tabUrl(tab), title: tab.title ?? '' };
}
