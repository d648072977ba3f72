// The navigation rule (cdp-policy.js navigationRefusal) kept after the call
// that asked for a page, too: a local page under an allowed folder may send
// its own tab to another local file later, by a timer of its script, when no
// call of tabsight's is there to check. Such a tab goes to about:blank before
// anything of tabsight's reads it.
//
// Which tabs: every tab of tabsight's own browser; in the user's browser,
// the tabs tabsight navigated, opened or ran `execute` in (the user's own
// tabs, and their own file pages, are theirs). Which folders: every
// `file_roots` a front has sent since the worker started (the union: the
// guard cannot know which session a page's navigation is for).
//
// Only file: URLs need it: a page cannot open chrome:, chrome-extension: or
// devtools: pages, and http(s) and data: pages are allowed.

import { navigationRefusal } from './cdp-policy.js';

const fileRoots = new Set();
const guardedTabs = new Set();
let wholeBrowser = false;

// tabsight's own browser: every tab is guarded (the host's hello says which browser this is).
export function guardWholeBrowser(own) {
  wholeBrowser = own;
}

// A tab tabsight acts on, with the folders its request allowed local files from.
export function guardTab(tabId, roots) {
  guardedTabs.add(tabId);
  for (const root of roots) fileRoots.add(root);
}

chrome.tabs.onUpdated.addListener((tabId, { url }) => {
  if (!url?.startsWith('file:') || !(wholeBrowser || guardedTabs.has(tabId))) return;
  const why = navigationRefusal(url, [...fileRoots]);
  if (!why) return;
  console.warn(`tabsight: tab ${tabId} went to a page tabsight does not open (${why}); sent to about:blank`);
  chrome.tabs.update(tabId, { url: 'about:blank' }).catch(() => {});
});
chrome.tabs.onRemoved.addListener((tabId) => { guardedTabs.delete(tabId); });
