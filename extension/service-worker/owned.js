// The `capture.url` method: open a URL in a window tabsight owns, capture it
// and close the window again, whatever happens.
//
// The window is an unfocused popup, so the user's focus, tabs and "last
// focused window" never change. Viewport size, user agent and cookies are
// set through the debugger on that tab alone, so they apply to this capture
// only.

import { debuggerShot, captureArea, captureOptions } from './capture.js';
import { onEvent, send, withDebugger } from './cdp.js';
import { refuseNavigation } from './cdp-policy.js';
import { applyCookies } from './cookies.js';
import { Code, TabsightError, badRequest } from './errors.js';
import { boolParam, intParam, optionalStringParam, urlParam } from './params.js';
import { MAX_COOKIES, MAX_VIEWPORT, MIN_VIEWPORT } from './limits.js';
import { tabUrl } from './restricted.js';

// BrowserLoop's network idle: the load event has fired, and then no request has been in flight for this long.
const NETWORK_IDLE_MS = 500;
// timeout_ms bounds the load; the capture after it may take this much more,
// and the window is closed within the same bound.
const CAPTURE_GRACE_MS = 1000;
// how long closing the capture's window may wait for a busy page to unload
const CLOSE_WAIT_MS = 2000;

// Windows opened for a capture: not the user's, so not listed or reported.
export const ownedWindowIds = new Set();

export async function captureUrl(params, signal) {
  const url = urlParam(params, 'url');
  refuseNavigation(url);
  if (!/^(https?|data):$/.test(new URL(url).protocol)) {
    throw badRequest(`Invalid url: ${url.slice(0, 200)} (allowed: http, https or data)`);
  }
  const width = intParam(params, 'width', MIN_VIEWPORT, MAX_VIEWPORT, 1280);
  const height = intParam(params, 'height', MIN_VIEWPORT, MAX_VIEWPORT, 720);
  const load = {
    waitForNetworkIdle: boolParam(params, 'wait_for_network_idle', true),
    timeoutMs: intParam(params, 'timeout_ms', 1000, 120_000, 30_000),
  };
  const userAgent = optionalStringParam(params, 'user_agent');
  const cookies = cookiesParam(params, new URL(url).hostname);
  const options = captureOptions(params);

  // One bound for the whole capture: a page busy after its load must not hold it up past the timeout.
  const bound = new AbortController();
  const expire = setTimeout(() => bound.abort(new TabsightError(Code.TIMEOUT,
    `The capture of ${url} did not finish within its timeout of ${load.timeoutMs} ms (the page may be busy)`)),
  load.timeoutMs + CAPTURE_GRACE_MS);
  const forward = () => bound.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  try {
    return await openCaptureClose(url, { width, height, load, userAgent, cookies, options }, bound.signal);
  } finally {
    clearTimeout(expire);
    signal.removeEventListener('abort', forward);
  }
}

async function openCaptureClose(url, { width, height, load, userAgent, cookies, options }, signal) {
  // A data: URL is opened by the window itself: Chrome lets neither the debugger's Page.navigate nor
  // tabs.update go to one, but it lets windows.create (navigate() reloads it once the tab is set up).
  const first = isDataUrl(url) ? url : 'about:blank';
  const window = await chrome.windows.create({ url: first, type: 'popup', focused: false, width, height });
  ownedWindowIds.add(window.id);
  const tabId = window.tabs[0].id;
  try {
    return await withDebugger(tabId, async () => {
      // One round trip for the whole set-up: CDP runs a tab's commands in order.
      const setup = [
        send(tabId, 'Emulation.setDeviceMetricsOverride',
          { width, height, deviceScaleFactor: 1, mobile: false }, signal),
        send(tabId, 'Page.enable', {}, signal),
        send(tabId, 'Page.setLifecycleEventsEnabled', { enabled: true }, signal),
        send(tabId, 'Network.enable', {}, signal),
        // As in BrowserLoop's fresh browser context: what the server serves
        // now, not what a dev server served before an edit.
        send(tabId, 'Network.setCacheDisabled', { cacheDisabled: true }, signal),
      ];
      if (userAgent) setup.push(send(tabId, 'Emulation.setUserAgentOverride', { userAgent }, signal));
      const cookiesApplied = cookies.length ? applyCookies(tabId, cookies, signal) : null;
      await Promise.all([...setup, cookiesApplied]);
      const applied = await cookiesApplied;
      try {
        const status = await navigate(tabId, url, load, signal);
        const area = options.fullPage || options.selector
          ? await captureArea(tabId, options, { viewportWidth: width, scale: 1 }, signal)
          : { tiles: [{ data: await debuggerShot(tabId, options, null, signal), x: 0, y: 0, width, height }],
            region: 'viewport' };
        const tab = await chrome.tabs.get(tabId);
        return {
          ...area,
          mime_type: `image/${options.format}`,
          url: tabUrl(tab),
          title: tab.title ?? '',
          status,
          viewport: { width, height },
          device_pixel_ratio: 1,
          method: 'cdp',
          ...(applied && { cookies_via: applied.via, cookies_refused: applied.refused }),
        };
      } catch (err) {
        // A page still running script (a busy loop) would keep its renderer,
        // which other tabs of its site may share, stuck after its window
        // closes: stop the script first (V8 takes this even mid-loop).
        chrome.debugger.sendCommand({ tabId }, 'Runtime.terminateExecution').catch(() => {});
        throw err;
      } finally {
        await applied?.undo();
      }
    });
  } finally {
    await closeWindow(window.id, tabId);
    ownedWindowIds.delete(window.id);
  }
}

function isDataUrl(url) {
  return new URL(url).protocol === 'data:';
}

// Resolves once the window's tab is really gone (Chrome resolves
// windows.remove before a busy page has unloaded), or after CLOSE_WAIT_MS.
async function closeWindow(windowId, tabId) {
  let onRemoved;
  const removed = new Promise((resolve) => {
    onRemoved = (removedTabId) => {
      if (removedTabId === tabId) resolve();
    };
    chrome.tabs.onRemoved.addListener(onRemoved);
  });
  let timer;
  try {
    await chrome.windows.remove(windowId).catch(() => {}); // closed by the user meanwhile
    const gone = await chrome.tabs.get(tabId).then(() => false, () => true);
    if (!gone) await Promise.race([removed, new Promise((resolve) => { timer = setTimeout(resolve, CLOSE_WAIT_MS); })]);
  } finally {
    clearTimeout(timer);
    chrome.tabs.onRemoved.removeListener(onRemoved);
  }
}

// The host validated the cookies in detail; this checks their shape and
// fills in the host-only domain. The message never quotes a value.
function cookiesParam(params, hostname) {
  const cookies = params.cookies ?? [];
  if (!Array.isArray(cookies) || cookies.length > MAX_COOKIES) {
    throw badRequest(`Invalid cookies (allowed: a list of at most ${MAX_COOKIES} cookies)`);
  }
  return cookies.map((cookie, index) => {
    if (typeof cookie?.name !== 'string' || typeof cookie.value !== 'string') {
      throw badRequest(`Invalid cookies[${index}] (allowed: an object with string name and value)`);
    }
    return cookie.domain ? cookie : { ...cookie, domain: hostname, host_only: true };
  });
}

// Loads `url` in the tab and resolves, with the main document's HTTP status,
// at DOMContentLoaded, or with waitForNetworkIdle once the page has loaded
// and no request has been in flight for NETWORK_IDLE_MS since (Playwright's
// "networkidle", after the load event; Chrome's own lifecycle event of that
// name comes about a second late). The timeout bounds all of it.
//
// The quiet time is counted from the later of the load event and the end of
// the last request, whatever other events come meanwhile: it used to start
// again at every lifecycle event (first paints come after the load event),
// which waited some 30-50 ms past the quiet time. The 500 ms themselves cannot
// be shortened: a request a page starts 450 ms after its load event, which
// that wait exists to catch (tests/test_screenshot.py late.html: 100 ms),
// looks like no request at all until it starts.
async function navigate(tabId, url, { waitForNetworkIdle, timeoutMs }, signal) {
  const goal = waitForNetworkIdle ? 'load' : 'DOMContentLoaded';
  // Events can arrive before Page.navigate answers with the loader they
  // belong to: keep them all by loader.
  const lifecycle = new Map(); // loaderId -> Set of lifecycle event names
  const statuses = new Map(); // loaderId -> HTTP status of its document
  const inFlight = new Set(); // requestIds
  let loaderId = null;
  let dataFrameId = null; // for a data: URL: the main frame, whose next loader is the page's
  let quietTimer;
  let quietSince = 0; // when the last request in flight ended (performance.now())
  let loadedAt = null; // when the goal's lifecycle event came for the page's loader
  let reached;
  const goalReached = new Promise((resolve) => {
    reached = resolve;
  });
  const check = () => {
    clearTimeout(quietTimer);
    if (!loaderId || !lifecycle.get(loaderId)?.has(goal)) return;
    if (!waitForNetworkIdle) {
      reached();
      return;
    }
    loadedAt ??= performance.now();
    if (inFlight.size > 0) return;
    const quietFor = performance.now() - Math.max(loadedAt, quietSince);
    quietTimer = setTimeout(reached, Math.max(0, NETWORK_IDLE_MS - quietFor));
  };
  const stopListening = onEvent(tabId, (method, event) => {
    switch (method) {
      case 'Page.lifecycleEvent':
        if (dataFrameId && !loaderId && event.frameId === dataFrameId && event.name === 'init') loaderId = event.loaderId;
        if (!lifecycle.has(event.loaderId)) lifecycle.set(event.loaderId, new Set());
        lifecycle.get(event.loaderId).add(event.name);
        break;
      case 'Network.requestWillBeSent':
        inFlight.add(event.requestId); // a redirect keeps its id: counted once
        break;
      case 'Network.loadingFinished':
      case 'Network.loadingFailed':
        if (inFlight.delete(event.requestId) && inFlight.size === 0) quietSince = performance.now();
        break;
      case 'Network.responseReceived':
        if (event.type === 'Document') statuses.set(event.loaderId, event.response.status);
        return;
      default:
        return;
    }
    check();
  });
  // Where the load got to when the time ran out, in the words `navigate` uses (tabs.js loadState): no
  // answer yet, answered but still loading (to DOMContentLoaded, or to the load event with
  // waitForNetworkIdle), or loaded and waiting for the network to be quiet.
  const loadState = () => {
    const events = loaderId ? lifecycle.get(loaderId) : undefined;
    const status = loaderId ? statuses.get(loaderId) : undefined;
    if (events?.has(goal)) {
      return `the page has loaded; waiting for ${NETWORK_IDLE_MS} ms without a request (${inFlight.size} in flight)`;
    }
    if (status !== undefined) return `the server answered ${status}; the page is still loading`;
    if (dataFrameId || events?.size) return 'the page is still loading';
    return 'no answer from the server yet';
  };
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new TabsightError(Code.NAVIGATION_TIMEOUT,
      `Navigation timeout of ${timeoutMs}ms exceeded (${loadState()})`)), timeoutMs);
  });
  const aborted = new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {}); // only ever raced
  try {
    if (isDataUrl(url)) {
      // The window opened the page before the viewport, user agent and cookies were set: load it again
      // under them. Its loader is the main frame's next one.
      dataFrameId = (await send(tabId, 'Page.getFrameTree', {}, signal)).frameTree.frame.id;
      await Promise.race([send(tabId, 'Page.reload', {}, signal), timedOut]);
      await Promise.race([goalReached, timedOut, aborted]);
      return statuses.get(loaderId) ?? null;
    }
    const navigation = await Promise.race([send(tabId, 'Page.navigate', { url }, signal), timedOut]);
    if (navigation.errorText) {
      throw new TabsightError(Code.NAVIGATION_FAILED, `${navigation.errorText} at ${url}`);
    }
    if (!navigation.loaderId) return null; // same-document: nothing more will load
    loaderId = navigation.loaderId;
    check();
    await Promise.race([goalReached, timedOut, aborted]);
    return statuses.get(loaderId) ?? null;
  } finally {
    clearTimeout(timer);
    clearTimeout(quietTimer);
    stopListening();
  }
}
