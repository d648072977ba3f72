// The `tabs.list` and `tab.navigate` methods.

import { withDebuggerIfAllowed } from './cdp.js';
import { leavingPage } from './dialogs.js';
import { Code, TabsightError } from './errors.js';
import { ownedWindowIds } from './owned.js';
import { intParam, tabIdParam, urlParam } from './params.js';
import { tabUrl } from './restricted.js';

const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
const MAX_NAVIGATION_TIMEOUT_MS = 600_000;
// webRequest does not see other schemes (file:, about:); they have no HTTP status.
const HAS_HTTP_STATUS = /^https?:/;

export async function listTabs() {
  const [tabs, focusedTabId, debugged] = await Promise.all([
    chrome.tabs.query({}),
    getFocusedTabId(),
    debuggedTabIds(),
  ]);
  return {
    tabs: tabs.map((tab) => ({
      id: tab.id,
      window_id: tab.windowId,
      active: tab.active,
      url: tabUrl(tab),
      title: tab.title ?? '',
      status: tab.status ?? null,
      debugger_attached: debugged.has(tab.id),
      // opened by screenshot({url}) for one capture: not the user's
      ...(ownedWindowIds.has(tab.windowId) ? { owned: true } : {}),
    })),
    focused_tab_id: focusedTabId,
  };
}

// Tabs some debugger (ours, DevTools, another extension) is attached to: shows
// attachments that outlived their request, and why a capture may be refused.
async function debuggedTabIds() {
  const targets = await chrome.debugger.getTargets();
  return new Set(targets.filter((t) => t.attached && t.tabId !== undefined).map((t) => t.tabId));
}

// The active tab of the normal window the user used last: popups and
// DevTools windows are not where they are looking at a page.
async function getFocusedTabId() {
  try {
    const window = await chrome.windows.getLastFocused({ populate: true, windowTypes: ['normal'] });
    return window.tabs?.find((tab) => tab.active)?.id ?? null;
  } catch {
    return null; // no normal window open
  }
}

export async function navigateTab(params, signal) {
  const tabId = tabIdParam(params);
  const url = urlParam(params, 'url');
  const timeoutMs = intParam(params, 'timeout_ms', 1, MAX_NAVIGATION_TIMEOUT_MS, DEFAULT_NAVIGATION_TIMEOUT_MS);
  if (new URL(url).protocol === 'data:') {
    // chrome.tabs.update accepts it, then Chrome drops the navigation without
    // any event: say so now rather than time out.
    throw new TabsightError(Code.NAVIGATION_FAILED,
      `Navigation to ${url} failed: Chrome does not let extensions open data: URLs in a tab`);
  }
  await chrome.tabs.get(tabId); // fail with no_tab before touching anything
  signal.throwIfAborted();

  // Attached for the load: a dialog the new page opens meanwhile is answered
  // by the tab's policy (dialogs.js), and leaving the old page is never
  // held up by its beforeunload: the agent asked to go.
  const httpStatus = await withDebuggerIfAllowed(tabId,
    () => leavingPage(tabId, () => navigateAndWait(tabId, url, timeoutMs, signal)));
  const tab = await chrome.tabs.get(tabId);
  const finalUrl = tabUrl(tab);
  return {
    url: finalUrl,
    title: tab.title ?? '',
    status: HAS_HTTP_STATUS.test(finalUrl) ? httpStatus : null,
  };
}

async function startNavigation(tabId, url) {
  // A load of this very URL is already under way (e.g. started by a request
  // that timed out): that is the load asked for, so wait for it. Asking again
  // would fail: Chrome rejects a duplicate of a pending navigation.
  if ((await chrome.tabs.get(tabId)).pendingUrl === new URL(url).href) return;
  try {
    await chrome.tabs.update(tabId, { url });
  } catch (err) {
    if (/No tab with id/.test(err.message)) throw err;
    throw new TabsightError(Code.NAVIGATION_FAILED, `Navigation to ${url} failed: ${err.message}`);
  }
}

// Navigates and resolves, once the tab has finished loading, with the HTTP
// status of the last main-frame response (null if none was seen).
async function navigateAndWait(tabId, url, timeoutMs, signal) {
  let succeed;
  let fail;
  const finished = new Promise((resolve, reject) => {
    succeed = resolve;
    fail = reject;
  });
  // Settled by listeners even when tabs.update throws first: not unhandled.
  finished.catch(() => {});

  let httpStatus = null;
  // net::ERR_ABORTED is also what a main-frame request superseded by a
  // redirect reports, so it fails the navigation only if nothing follows it.
  let abortedError = null;

  const onCompleted = (details) => {
    httpStatus = details.statusCode;
    abortedError = null;
  };
  const onErrorOccurred = (details) => {
    if (details.error === 'net::ERR_ABORTED') {
      abortedError = details.error;
    } else {
      fail(new TabsightError(Code.NAVIGATION_FAILED, `Navigation to ${url} failed: ${details.error}`));
    }
  };
  const onUpdated = (updatedTabId, change, tab) => {
    if (updatedTabId !== tabId) return;
    // A same-document (#fragment) navigation changes the url without ever
    // going through "loading", so a url change on a complete tab also counts.
    if (change.status !== 'complete' && !(change.url && tab.status === 'complete')) return;
    if (abortedError) {
      fail(new TabsightError(Code.NAVIGATION_FAILED, `Navigation to ${url} failed: ${abortedError}`));
    } else {
      succeed(httpStatus);
    }
  };
  const onRemoved = (removedTabId) => {
    if (removedTabId === tabId) fail(new TabsightError(Code.NO_TAB, `No tab with id ${tabId}`));
  };
  const onAbort = () => fail(signal.reason);
  const timer = setTimeout(
    () => fail(new TabsightError(Code.NAVIGATION_TIMEOUT, `Navigation timeout of ${timeoutMs}ms exceeded`)),
    timeoutMs,
  );

  const mainFrameOfTab = { urls: ['<all_urls>'], tabId, types: ['main_frame'] };
  chrome.webRequest.onCompleted.addListener(onCompleted, mainFrameOfTab);
  chrome.webRequest.onErrorOccurred.addListener(onErrorOccurred, mainFrameOfTab);
  chrome.tabs.onUpdated.addListener(onUpdated);
  chrome.tabs.onRemoved.addListener(onRemoved);
  signal.addEventListener('abort', onAbort);
  try {
    await startNavigation(tabId, url);
    return await finished;
  } finally {
    clearTimeout(timer);
    chrome.webRequest.onCompleted.removeListener(onCompleted);
    chrome.webRequest.onErrorOccurred.removeListener(onErrorOccurred);
    chrome.tabs.onUpdated.removeListener(onUpdated);
    chrome.tabs.onRemoved.removeListener(onRemoved);
    signal.removeEventListener('abort', onAbort);
  }
}
