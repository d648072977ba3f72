// The `page.info` method: a structural summary of the page in a tab.

import { verifiedOpenDialog } from './dialogs.js';
import { inPage, restrictedPage } from './inpage-call.js';
import { tabIdParam } from './params.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

export async function pageInfo(params, signal) {
  const tabId = tabIdParam(params);
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) throw restrictedPage(tab);
  const dialog = await verifiedOpenDialog(tabId);
  if (dialog) {
    // the page cannot be read behind it: what the tab knows, and the dialog
    return { url: tabUrl(tab), title: tab.title ?? '', ready_state: null, dialog };
  }
  signal.throwIfAborted();
  const summary = await inPage(tabId, 'summary');
  if (!summary) throw new Error(`page.info got no result from tab ${tabId}`);
  return summary;
}
