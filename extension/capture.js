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
// A page whose main thread is stuck (long task, endless loop) never runs
// the metrics script; its screenshot still comes back after this long.
const METRICS_DEADLINE_MS = 1000;
// Fallback for pages that cannot be scripted (error pages, data: URLs).
let lastDevicePixelRatio = 1;

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
    method = 'cdp';
    data = await captureWithDebugger(tabId, format, quality, signal);
  }
  const mimeType = `image/${format}`;
  const { viewport, devicePixelRatio } = (await metrics) ?? (await metricsFromImage(data, mimeType));
  return {
    data,
    mime_type: mimeType,
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
    // A hidden page (background tab, minimized window) draws no frames, and
    // Page.captureScreenshot then often waits for one forever. A running
    // screencast keeps frames coming; this one is sized and throttled to cost
    // nothing, and is left running for concurrent captures sharing the
    // attachment: it ends with the detach.
    const options = { format, captureBeyondViewport: false };
    if (format !== 'png') options.quality = quality;
    try {
      await send(tabId, 'Page.startScreencast',
        { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1_000_000 }, signal);
      const { data } = await send(tabId, 'Page.captureScreenshot', options, signal);
      return data;
    } catch (err) {
      if (signal.aborted) throw err;
      throw new TabsightError('capture_failed', `Page.captureScreenshot failed: ${err.message}`);
    }
  });
}

// Resolves to null when the page cannot be scripted or does not answer in time.
async function readViewportMetrics(tabId) {
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(resolve, METRICS_DEADLINE_MS, null);
  });
  const injection = chrome.scripting.executeScript({
    target: { tabId },
    world: 'ISOLATED',
    func: () => ({
      viewport: { width: window.innerWidth, height: window.innerHeight },
      devicePixelRatio: window.devicePixelRatio,
    }),
  }).then(([{ result }]) => {
    lastDevicePixelRatio = result.devicePixelRatio;
    return result;
  }, () => null);
  try {
    return await Promise.race([injection, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

// The screenshot is the viewport in device pixels; the ratio is the last one
// a page reported, which is right unless the zoom differs between tabs.
async function metricsFromImage(data, mimeType) {
  const blob = await (await fetch(`data:${mimeType};base64,${data}`)).blob();
  const bitmap = await createImageBitmap(blob);
  const devicePixelRatio = lastDevicePixelRatio;
  const viewport = {
    width: Math.round(bitmap.width / devicePixelRatio),
    height: Math.round(bitmap.height / devicePixelRatio),
  };
  bitmap.close();
  return { viewport, devicePixelRatio };
}
