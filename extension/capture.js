// The `capture` method: a screenshot of a tab's viewport.
//
// chrome.tabs.captureVisibleTab is the fast path (about 11 ms for a 1280x720
// JPEG) but only sees the active tab of a window, only encodes JPEG/PNG, and
// Chrome refuses more than 2 calls per second. Everything else goes through
// the debugger's Page.captureScreenshot, which has none of those limits.

import { withDebugger, send } from './cdp.js';
import { TabsightError } from './errors.js';
import { enumParam, intParam, tabIdParam } from './params.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

const FORMATS = ['jpeg', 'png', 'webp'];
const VISIBLE_TAB_FORMATS = new Set(['jpeg', 'png']);
const VISIBLE_TAB_CALLS_PER_SECOND = 2;

// Start times of recent captureVisibleTab calls, oldest first.
const visibleTabCalls = [];

export async function captureTab(params, signal) {
  const tabId = tabIdParam(params);
  const format = enumParam(params, 'format', FORMATS, 'jpeg');
  const quality = intParam(params, 'quality', 1, 100, 80);
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) {
    throw new TabsightError('restricted_page', 'Cannot capture screenshots of browser internal pages');
  }
  signal.throwIfAborted();

  // Measured in the page, in parallel with the capture, so a resize is always
  // reflected and the hot path pays no extra round trip.
  const metrics = readViewportMetrics(tabId);
  let data = null;
  let method = 'visible_tab';
  if (tab.active && VISIBLE_TAB_FORMATS.has(format) && takeVisibleTabSlot()) {
    data = await captureVisibleTab(tab.windowId, format, quality);
  }
  if (data === null) {
    signal.throwIfAborted();
    method = 'cdp';
    data = await captureWithDebugger(tabId, format, quality, signal);
  }
  const { viewport, devicePixelRatio } = await metrics;
  return {
    data,
    mime_type: `image/${format}`,
    url: tabUrl(tab),
    title: tab.title ?? '',
    viewport,
    device_pixel_ratio: devicePixelRatio,
    method,
  };
}

// Rolling one-second window: room while fewer than 2 calls started in it.
function takeVisibleTabSlot() {
  const now = performance.now();
  while (visibleTabCalls.length && now - visibleTabCalls[0] >= 1000) visibleTabCalls.shift();
  if (visibleTabCalls.length >= VISIBLE_TAB_CALLS_PER_SECOND) return false;
  visibleTabCalls.push(now);
  return true;
}

// Returns the base64 image, or null when the debugger path should be used
// instead. Chrome's quota window does not line up exactly with ours, so a
// MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND error can still happen; any
// other failure (hidden window, page mid-navigation) is also worth the
// debugger's attempt, whose error is the one reported if it fails too.
async function captureVisibleTab(windowId, format, quality) {
  try {
    const options = format === 'jpeg' ? { format, quality } : { format };
    const dataUrl = await chrome.tabs.captureVisibleTab(windowId, options);
    return dataUrl.slice(dataUrl.indexOf(',') + 1);
  } catch (err) {
    if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(err.message)) {
      console.warn('tabsight: captureVisibleTab failed, using the debugger', err);
    }
    return null;
  }
}

async function captureWithDebugger(tabId, format, quality, signal) {
  return withDebugger(tabId, async () => {
    signal.throwIfAborted();
    const options = { format, captureBeyondViewport: false };
    if (format !== 'png') options.quality = quality;
    try {
      const { data } = await send(tabId, 'Page.captureScreenshot', options);
      return data;
    } catch (err) {
      throw new TabsightError('capture_failed', `Page.captureScreenshot failed: ${err.message}`);
    }
  });
}

async function readViewportMetrics(tabId) {
  const [{ result }] = await chrome.scripting.executeScript({
    target: { tabId },
    world: 'ISOLATED',
    func: () => ({
      viewport: { width: window.innerWidth, height: window.innerHeight },
      devicePixelRatio: window.devicePixelRatio,
    }),
  });
  return result;
}
