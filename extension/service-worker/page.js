// The `page.info` method: a structural summary of the page in a tab; and
// `page.outline`: the text it shows, as an outline (page-library/outline.js).

import { verifiedOpenDialog } from './dialogs.js';
import { emulationOf } from './emulation.js';
import { inPage, restrictedPage } from './page-library-calls.js';
import { intParam, tabIdParam } from './params.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

export async function pageInfo(params, signal) {
  const tabId = tabIdParam(params);
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) throw restrictedPage(tab);
  const dialog = await verifiedOpenDialog(tabId);
  if (dialog) {
    // the page cannot be read behind it: what the tab knows, and the dialog
    return { url: tabUrl(tab), title: tab.title ?? '', ready_state: null, dialog, ...emulated(tabId) };
  }
  signal.throwIfAborted();
  const summary = await inPage(tabId, 'summary');
  if (!summary) throw new Error(`page.info got no result from tab ${tabId}`);
  return { ...summary, ...emulated(tabId) };
}

// The tab's emulation (emulation.js), when it has one.
function emulated(tabId) {
  const emulation = emulationOf(tabId);
  return emulation ? { emulation } : {};
}

// The most an outline may carry, in characters (the front asks for less).
const MAX_OUTLINE = 100000;

export async function pageOutline(params, signal) {
  const tabId = tabIdParam(params);
  const maxChars = intParam(params, 'max_chars', 1, MAX_OUTLINE, 2000);
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) throw restrictedPage(tab);
  signal.throwIfAborted();
  const outline = await inPage(tabId, 'outline', { max_chars: maxChars });
  if (!outline) throw new Error(`page.outline got no result from tab ${tabId}`);
  return outline;
}
