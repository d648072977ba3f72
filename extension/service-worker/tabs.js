// The `tabs.list`, `tab.navigate`, `tab.history`, `tab.open` and `tab.close` methods.

import { send, withDebuggerIfAllowed } from './cdp.js';
import { refuseNavigation } from './cdp-policy.js';
import { guardTab } from './navigation-guard.js';
import { leavingPage } from './dialogs.js';
import { Code, TabsightError } from './errors.js';
import { ownedWindowIds } from './owned.js';
import {
  boolParam, enumParam, fileRootsParam, intParam, optionalStringParam, tabIdParam, urlParam,
} from './params.js';
import { tabUrl } from './restricted.js';

const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
const MAX_NAVIGATION_TIMEOUT_MS = 600_000;
// webRequest does not see other schemes (file:, about:); they have no HTTP status.
const HAS_HTTP_STATUS = /^https?:/;

export async function listTabs() {
  const [tabs, focusedTabId, debugged, groups] = await Promise.all([
    chrome.tabs.query({}),
    getFocusedTabId(),
    debuggedTabIds(),
    chrome.tabGroups.query({}),
  ]);
  const groupTitles = new Map(groups.map((group) => [group.id, group.title ?? '']));
  return {
    tabs: tabs.map((tab) => ({
      id: tab.id,
      window_id: tab.windowId,
      active: tab.active,
      url: tabUrl(tab),
      title: tab.title ?? '',
      status: tab.status ?? null,
      debugger_attached: debugged.has(tab.id),
      // the tab group it is in, by its title (tabsight groups an MCP client's tabs under its name)
      ...(groupTitles.has(tab.groupId) ? { group: groupTitles.get(tab.groupId) } : {}),
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

// The normal window the user used last (with its tabs, `populate`), or null
// when none is open: popups and DevTools windows are not where they are
// looking at a page, and a popup takes no tabs.
async function lastNormalWindow(populate = false) {
  try {
    return await chrome.windows.getLastFocused({ populate, windowTypes: ['normal'] });
  } catch {
    return null;
  }
}

// The active tab of the normal window the user used last.
async function getFocusedTabId() {
  return (await lastNormalWindow(true))?.tabs?.find((tab) => tab.active)?.id ?? null;
}

// The `url` param, once the navigation rule (cdp-policy.js) allows it.
function allowedUrlParam(params) {
  const url = urlParam(params, 'url');
  refuseNavigation(url, fileRootsParam(params));
  return url;
}

export async function navigateTab(params, signal) {
  const tabId = tabIdParam(params);
  const url = allowedUrlParam(params);
  guardTab(tabId, fileRootsParam(params));
  const timeoutMs = intParam(params, 'timeout_ms', 1, MAX_NAVIGATION_TIMEOUT_MS, DEFAULT_NAVIGATION_TIMEOUT_MS);
  if (new URL(url).protocol === 'data:') {
    // chrome.tabs.update accepts it, then Chrome drops the navigation without
    // any event: say so now rather than time out.
    throw new TabsightError(Code.NAVIGATION_FAILED,
      `Navigation to ${url} failed: Chrome does not let extensions open data: URLs in a tab`);
  }
  await chrome.tabs.get(tabId); // fail with no_tab before touching anything
  signal.throwIfAborted();

  return loadInTab(tabId, `Navigation to ${url}`, () => startNavigation(tabId, url), timeoutMs, signal);
}

// back, forward and reload, each waited for as a navigation is. A page the
// browser restores from its back/forward cache comes with no HTTP status.
//
// back and forward go to the neighbouring entry of the tab's history through
// the debugger (Page.navigateToHistoryEntry, as Playwright does):
// chrome.tabs.goBack skips, as the back button does, every entry whose page
// was left without a user's gesture, which is every page an agent navigated
// away from ("Cannot find a next page in history"). Unattached (the user
// cancelled the debugging bar, a browser page) it is the back button's way.
const HISTORY = {
  back: { what: 'Going back', step: -1, unattached: (tabId) => chrome.tabs.goBack(tabId), none: 'no page to go back to' },
  forward: {
    what: 'Going forward', step: 1, unattached: (tabId) => chrome.tabs.goForward(tabId), none: 'no page to go forward to',
  },
  reload: { what: 'Reloading', unattached: (tabId) => chrome.tabs.reload(tabId) },
};

export async function historyTab(params, signal) {
  const tabId = tabIdParam(params);
  const direction = enumParam(params, 'direction', Object.keys(HISTORY));
  const timeoutMs = intParam(params, 'timeout_ms', 1, MAX_NAVIGATION_TIMEOUT_MS, DEFAULT_NAVIGATION_TIMEOUT_MS);
  await chrome.tabs.get(tabId);
  signal.throwIfAborted();
  const { what, step, unattached, none } = HISTORY[direction];
  const noEntry = () => new TabsightError(Code.NAVIGATION_FAILED, `${what} failed: tab ${tabId} has ${none}`);
  const begin = async (attached) => {
    if (attached && step) {
      const { currentIndex, entries } = await send(tabId, 'Page.getNavigationHistory', {}, signal);
      const entry = entries[currentIndex + step];
      if (!entry) throw noEntry();
      await send(tabId, 'Page.navigateToHistoryEntry', { entryId: entry.id }, signal);
      return;
    }
    try {
      await unattached(tabId);
    } catch (err) {
      if (/Cannot find a next page in history/.test(err.message)) throw noEntry();
      throw err;
    }
  };
  return loadInTab(tabId, what, begin, timeoutMs, signal);
}

// A new tab in the background: in the window of `opener_tab_id` (the tab the
// agent works on), right after it, not made active (unless `active`, where no
// user's tab is taken from them), so the user's focus and tabs stay as they
// were; with `window`, the tab of a new unfocused window. With a url, it is
// loaded as `tab.navigate` loads one.
export async function openTab(params, signal) {
  const openerId = params.opener_tab_id === undefined ? null : tabIdParam(params, 'opener_tab_id');
  const url = params.url === undefined ? null : allowedUrlParam(params);
  const timeoutMs = intParam(params, 'timeout_ms', 1, MAX_NAVIGATION_TIMEOUT_MS, DEFAULT_NAVIGATION_TIMEOUT_MS);
  const group = optionalStringParam(params, 'group');
  // shown at once only where nobody's focus is taken: a session's own tab in tabsight's headed browser
  const active = boolParam(params, 'active', false);
  const opener = openerId === null ? null : await chrome.tabs.get(openerId);
  // beside its opener, or else in the normal window the user used last (a capture's own window excepted)
  const besideOpener = opener && !ownedWindowIds.has(opener.windowId);
  const last = besideOpener ? null : await lastNormalWindow();
  const place = besideOpener ? { windowId: opener.windowId, index: opener.index + 1 }
    : last && !ownedWindowIds.has(last.id) ? { windowId: last.id } : {};
  let tab = null;
  if (!boolParam(params, 'window', false)) {
    tab = await chrome.tabs.create({ url: 'about:blank', active, ...place }).catch(() => null);
    if (tab && group) await intoGroup(tab, group);
  }
  if (tab === null) {
    // asked for (tabsight's headless browser: a session's tab is the front tab of a window of its own, which
    // is drawn, as a background tab is not), or no normal window to put it in (the user closed them all)
    const window = await chrome.windows.create({ url: 'about:blank', focused: false, type: 'normal' });
    tab = window.tabs[0];
  }
  await rememberOpened(tab.id);
  guardTab(tab.id, fileRootsParam(params));
  // Its about:blank is still loading as tabs.create answers; a navigation started meanwhile is at times
  // replaced by that commit, or replaces it and never completes (seen in a headed browser, and once in a
  // loaded CI run where the blank took longer than the 2 s this wait once allowed): it waits first, out of the
  // navigation's own time, so the answer still comes within timeout_ms.
  const deadline = performance.now() + timeoutMs;
  while ((await chrome.tabs.get(tab.id)).status === 'loading' && performance.now() < deadline) {
    await new Promise((resolve) => { setTimeout(resolve, 10); });
  }
  if (url === null) return { tab_id: tab.id, url: 'about:blank', title: '', status: null };
  try {
    const left = Math.max(1, Math.round(deadline - performance.now()));
    return { tab_id: tab.id, ...await navigateTab({ tab_id: tab.id, url, timeout_ms: left, file_roots: params.file_roots }, signal) };
  } catch (err) {
    if (err instanceof TabsightError && err.code === Code.NAVIGATION_TIMEOUT) {
      // what the agent asked for, the blank's wait included
      err.message = err.message.replace(/^Navigation timeout of \d+ms/, `Navigation timeout of ${timeoutMs}ms`);
    }
    // a tab nobody knows the id of would be left behind: it goes again, and the error says so
    await chrome.tabs.remove(tab.id).catch(() => {});
    if (err instanceof TabsightError) {
      const closed = 'the new tab was closed again';
      err.message = err.message.endsWith(')') ? `${err.message.slice(0, -1)}; ${closed})` : `${err.message} (${closed})`;
    }
    throw err;
  }
}

// The tab goes into the tab group titled `title` in its window (made, and
// given that title, if there is none): the tabs of one MCP client together,
// named after it, so the user sees whose they are.
async function intoGroup(tab, title) {
  const [existing] = await chrome.tabGroups.query({ windowId: tab.windowId, title });
  const groupId = await chrome.tabs.group({ tabIds: [tab.id], ...(existing ? { groupId: existing.id } : {}) });
  if (!existing) await chrome.tabGroups.update(groupId, { title, collapsed: false });
}

// Tabs a session opened that the user has not used since, kept in session
// storage (the worker may restart meanwhile): when the session ends (the
// host's tabs_ended), these are closed; a tab the user switched to is theirs.
const UNUSED_KEY = 'tabsightUnusedTabs';

// Each change reads the list and writes it back: one at a time, or two at once (a tab opened while another
// closes) would each write their own copy and one change would be lost.
let unusedUpdates = Promise.resolve();

function updateUnused(change) {
  const update = unusedUpdates.then(async () => {
    const { [UNUSED_KEY]: unused = [] } = await chrome.storage.session.get(UNUSED_KEY);
    await chrome.storage.session.set({ [UNUSED_KEY]: change(unused) });
  });
  unusedUpdates = update.catch(() => {});
  return update;
}

function rememberOpened(tabId) {
  return updateUnused((unused) => [...unused, tabId]);
}

function forgetOpened(tabIds) {
  const gone = new Set(tabIds);
  return updateUnused((unused) => unused.filter((id) => !gone.has(id)));
}

// A tab the user switches to is used: tabsight opens its tabs in the background.
chrome.tabs.onActivated.addListener(({ tabId }) => { forgetOpened([tabId]).catch(() => {}); });
chrome.tabs.onRemoved.addListener((tabId) => { forgetOpened([tabId]).catch(() => {}); });

// The host's `tabs_ended`: a session ended, and these tabs were its own.
// `close`: "unused" closes each the user has not used since (never the
// browser's last tab; the rest stay, the user's now), "all" every one
// (tabsight's own browser, which has no user), "none" none.
export async function endedSessionTabs({ tab_ids: tabIds, close }) {
  if (!Array.isArray(tabIds)) return;
  await unusedUpdates; // a tab opened a moment ago is on the list
  const { [UNUSED_KEY]: unused = [] } = await chrome.storage.session.get(UNUSED_KEY);
  const closing = { all: tabIds, unused: tabIds.filter((id) => unused.includes(id)) }[close] ?? [];
  await forgetOpened(tabIds);
  for (const tabId of closing) {
    await closeTab({ tab_id: tabId }).catch(() => {}); // gone already, or the last tab
  }
}

// Closes a tab and resolves once it is gone.
export async function closeTab(params) {
  const tabId = tabIdParam(params);
  const tab = await chrome.tabs.get(tabId);
  const others = await chrome.tabs.query({ windowType: 'normal' });
  if (!others.some((other) => other.id !== tabId && !ownedWindowIds.has(other.windowId))) {
    throw new TabsightError(Code.BAD_REQUEST,
      `Tab ${tabId} is the browser's last tab: closing it would end the browser; open another tab first`);
  }
  // the agent asked to close it: a beforeunload ("Leave site?") must not keep it open, waiting for nobody
  await withDebuggerIfAllowed(tabId, () => leavingPage(tabId, () => chrome.tabs.remove(tabId)));
  return { closed: tabId, url: tabUrl(tab), title: tab.title ?? '' };
}

// Starts a load (`start(attached)`) and waits for it, attached where allowed: a dialog the new page
// opens meanwhile is answered by the tab's policy (dialogs.js), and leaving
// the old page is never held up by its beforeunload: the agent asked to go.
async function loadInTab(tabId, what, start, timeoutMs, signal) {
  const httpStatus = await withDebuggerIfAllowed(tabId,
    (attached) => leavingPage(tabId, () => waitForLoad(tabId, what, () => start(attached), timeoutMs, signal)));
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

// Where a load that timed out got to, for the error: waiting for an answer,
// answered but still loading what the page loads (its load event), or not
// loading at all, and then which site the tab shows (its origin only: a
// URL may carry what a redirect put in it).
function loadState(tab, httpStatus) {
  if (tab.status === 'loading') {
    return httpStatus === null ? 'no answer from the server yet' : `the server answered ${httpStatus}; the page is still loading`;
  }
  if (tab.status === 'unloaded') return 'the tab is unloaded: Chrome has not loaded it in the background';
  if (tab.pendingUrl) return 'the navigation is still pending';
  const url = new URL(tab.url || 'about:blank');
  const shown = HAS_HTTP_STATUS.test(url.href) ? url.origin : `${url.protocol}${url.protocol === 'about:' ? url.pathname : ''}`;
  return `the tab is not loading; it shows ${shown}`;
}

// Starts a load and resolves, once the tab has finished loading, with the
// HTTP status of the last main-frame response (null if none was seen). `what`
// names the load in errors ("Navigation to URL", "Going back").
async function waitForLoad(tabId, what, start, timeoutMs, signal) {
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
      fail(new TabsightError(Code.NAVIGATION_FAILED, `${what} failed: ${details.error}`));
    }
  };
  const onUpdated = (updatedTabId, change, tab) => {
    if (updatedTabId !== tabId) return;
    // A same-document (#fragment) navigation changes the url without ever
    // going through "loading", so a url change on a complete tab also counts.
    if (change.status !== 'complete' && !(change.url && tab.status === 'complete')) return;
    if (abortedError) {
      fail(new TabsightError(Code.NAVIGATION_FAILED, `${what} failed: ${abortedError}`));
    } else {
      succeed(httpStatus);
    }
  };
  const onRemoved = (removedTabId) => {
    if (removedTabId === tabId) fail(new TabsightError(Code.NO_TAB, `No tab with id ${tabId}`));
  };
  const onAbort = () => fail(signal.reason);
  const timer = setTimeout(async () => {
    const shown = await chrome.tabs.get(tabId).catch(() => null);
    const state = shown ? ` (${loadState(shown, httpStatus)})` : '';
    fail(new TabsightError(Code.NAVIGATION_TIMEOUT, `Navigation timeout of ${timeoutMs}ms exceeded${state}`));
  }, timeoutMs);

  const mainFrameOfTab = { urls: ['<all_urls>'], tabId, types: ['main_frame'] };
  chrome.webRequest.onCompleted.addListener(onCompleted, mainFrameOfTab);
  chrome.webRequest.onErrorOccurred.addListener(onErrorOccurred, mainFrameOfTab);
  chrome.tabs.onUpdated.addListener(onUpdated);
  chrome.tabs.onRemoved.addListener(onRemoved);
  signal.addEventListener('abort', onAbort);
  try {
    await start();
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
