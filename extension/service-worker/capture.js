// The `capture` method: a screenshot of a tab's viewport, of its whole
// document, or of one element.
//
// chrome.tabs.captureVisibleTab is the fast path (about 11 ms for a 1280x720
// JPEG) but only sees the active tab of a window, only encodes JPEG/PNG, and
// Chrome refuses more than 2 calls per second. Everything else goes through
// the debugger's Page.captureScreenshot, which has none of those limits.
//
// A viewport asked for as WebP is taken as a JPEG and the host encodes the
// WebP (takenAs): so captureVisibleTab and the frame source can serve it too.
//
// Where the debugger costs nothing, a tab captured again and again is served
// from a screencast's latest frame instead (frames.js).
//
// The answer is a list of tiles, each with its place on the page in CSS
// pixels: one for a viewport or an element, several for a document taller
// than a vision model accepts (region.js).

import { barCosts, debuggingBarShown, withDebugger, send } from './cdp.js';
import { metricsOverride } from './emulation.js';
import { Code, TabsightError } from './errors.js';
import { keepFramesComing, latestFrame } from './frames.js';
import { boolParam, enumParam, intParam, optionalStringParam, tabIdParam } from './params.js';
import { documentRegion, elementRegion, tiles } from './region.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

const FORMATS = ['jpeg', 'png', 'webp'];
// The quality of the JPEG a WebP is taken as: high enough that the host's
// second lossy step is not seen. At 1280x720 a capture as Chrome's WebP took
// 100-175 ms, as its JPEG 44-80 ms, to which the host's decoding and WebP
// encoding add 20-33 (bench/webp_bench.py).
const WEBP_SOURCE_QUALITY = 90;
const VISIBLE_TAB_CALLS_PER_SECOND = 2;
const VISIBLE_TAB_WINDOW_MS = 1050;
// Calls refused by Chrome's quota before the debugger takes the capture.
const VISIBLE_TAB_ATTEMPTS = 3;
// A visible tab's frame takes about 20 ms; one that takes this long is not coming.
const VISIBLE_TAB_TIMEOUT_MS = 1000;

// Start times of recent captureVisibleTab calls, oldest first.
const visibleTabCalls = [];

// A capture racing a navigation either fails ("Not attached to an active
// page": the renderer was swapped) or never gets a frame. So a loading tab is
// given time to settle, each debugger attempt is bounded, and one that fails
// that way is tried again on the settled tab.
const SETTLE_TIMEOUT_MS = 10_000;
const CDP_ATTEMPT_TIMEOUT_MS = 5_000;
const CDP_ATTEMPTS = 3;
// A full-page capture stops adding tiles past this much base64: the host
// takes at most 64 MiB in one message.
const MAX_TILES_CHARS = 48 * 1024 * 1024;

// The page's own innerWidth/innerHeight/devicePixelRatio are read in parallel
// with the capture (about 2 ms, so right after a resize and at any zoom). A
// page that cannot be scripted (error page, data: URL) or whose main thread
// is busy gets this long after the capture, then the tab's size instead.
const METRICS_GRACE_MS = 50;
// The ratio last reported by a page: the fallback's best guess.
let lastDevicePixelRatio = 1;

export async function captureTab(params, signal) {
  const tabId = tabIdParam(params);
  const options = captureOptions(params);
  // whose capture it is (the host says): Chrome's quota is shared out between sessions (takeVisibleTabSlot)
  const session = optionalStringParam(params, 'session') ?? '';
  const tab = await settledTab(tabId, signal);
  if (isRestrictedUrl(tabUrl(tab))) {
    throw new TabsightError(Code.RESTRICTED_PAGE, 'Cannot capture screenshots of browser internal pages');
  }

  const metrics = readViewportMetrics(tabId);
  if (options.fullPage || options.selector) {
    const { viewport, devicePixelRatio } = (await metrics) ??
      { viewport: { width: tab.width }, devicePixelRatio: lastDevicePixelRatio };
    const page = { viewportWidth: viewport.width, scale: devicePixelRatio, restoreScrollbars: true };
    const area = await withDebugger(tabId, () => captureArea(tabId, options, page, signal));
    return { ...area, mime_type: `image/${options.format}`, ...(await describeTab(tabId, metrics)), method: 'cdp' };
  }

  let data = null;
  let method = 'visible_tab';
  let frameId;
  const taken = takenAs(options);
  const frame = await frameInHand(tabId, taken, boolParam(params, 'frame_source', true), metrics);
  if (frame) {
    ({ data, frame_id: frameId } = frame);
    method = 'frame';
  } else if (tab.active && !metricsOverride(tabId) && !(await isMinimized(tab.windowId))) {
    // (a tab with an emulated viewport is not the size the window shows: the debugger captures it)
    data = await captureVisibleTab(tab.windowId, taken.format, taken.quality, session, signal);
  }
  if (data === null) {
    method = 'cdp';
    for (let attempt = 1; data === null; attempt++) {
      signal.throwIfAborted();
      try {
        data = await withDebugger(tabId, () => debuggerShot(tabId, taken, null, signal));
      } catch (err) {
        if (attempt >= CDP_ATTEMPTS || err.code === Code.CANCELLED) throw err;
        await settledTab(tabId, signal); // the next try is on the settled tab
      }
    }
  }
  const described = await describeTab(tabId, metrics);
  const { width, height } = described.viewport;
  return {
    tiles: [{ data, x: 0, y: 0, width, height }],
    region: 'viewport',
    mime_type: `image/${taken.format}`,
    ...described,
    method,
    ...(frameId && { frame_id: frameId }),
  };
}

// The format and quality the browser encodes a viewport capture in: a WebP
// as a JPEG (the host encodes the WebP from it), the others as asked.
function takenAs({ format, quality }) {
  return format === 'webp' ? { format: 'jpeg', quality: WEBP_SOURCE_QUALITY } : { format, quality };
}

// The frame source's latest frame of the tab (frames.js), where a cast can
// serve the format (a screencast's frames are JPEG) and costs the user
// nothing; null to capture afresh.
async function frameInHand(tabId, { format, quality }, allowed, metrics) {
  if (!allowed || format !== 'jpeg' || barCosts()) return null;
  const measured = await withinGrace(metrics);
  if (!measured) return null;
  const { viewport, devicePixelRatio: scale } = measured;
  return withDebugger(tabId, () => latestFrame(tabId, { quality, viewport, scale }));
}

// The format, quality and region asked for: shared by `capture` and `capture.url`.
export function captureOptions(params) {
  return {
    format: enumParam(params, 'format', FORMATS, 'jpeg'),
    quality: intParam(params, 'quality', 1, 100, 80),
    fullPage: boolParam(params, 'full_page', false),
    selector: optionalStringParam(params, 'selector'),
  };
}

// The element's box or the whole document, in tiles, through the debugger
// (the caller holds the attachment). `scale` is device pixels per CSS pixel.
// A tile inside the viewport is taken as it is shown; only one outside it is
// drawn beyond the viewport, which leaves the page without its scrollbars:
// with `restoreScrollbars` they are brought back afterwards, also when a
// capture fails (a window tabsight opened for one capture needs no care).
export async function captureArea(tabId, options, { viewportWidth, scale, restoreScrollbars = false }, signal) {
  const region = options.selector
    ? await elementRegion(tabId, options.selector)
    : await documentRegion(tabId, viewportWidth, signal);
  const { cssVisualViewport: viewport } = await send(tabId, 'Page.getLayoutMetrics', {}, signal);
  const shots = [];
  let chars = 0;
  let truncated = false;
  let drewBeyond = false;
  try {
    for (const clip of tiles(region, scale)) {
      if (chars > MAX_TILES_CHARS) {
        truncated = true;
        break;
      }
      const beyondViewport = !isInside(clip, viewport);
      drewBeyond ||= beyondViewport;
      const data = await debuggerShot(tabId, options, clip, signal, { beyondViewport });
      chars += data.length;
      shots.push({ data, ...clip });
    }
  } finally {
    if (drewBeyond && restoreScrollbars) await bringScrollbarsBack(tabId);
  }
  return { tiles: shots, region: options.selector ? 'element' : 'page', truncated };
}

// Whether a clip (document CSS pixels) lies within the visible part of the page.
function isInside(clip, { pageX, pageY, clientWidth, clientHeight }) {
  return clip.x >= pageX && clip.y >= pageY &&
    clip.x + clip.width <= pageX + clientWidth && clip.y + clip.height <= pageY + clientHeight;
}

// For a capture beyond the viewport Chromium lays the page out at the clip's
// size, then at its own size again, but a headed Chromium (156) keeps the
// scrollbars of the large size: none, until the page's size or content
// changes. Emulation.setScrollbarsHidden, clearing the device metrics and
// detaching do not bring them back (measured); a moment at another height
// does. The height only shrinks, so the scroll position stays. A tab with an
// emulated viewport (emulation.js) gets it back, not the window's. The tab
// may be gone by now: then there is nothing to restore.
async function bringScrollbarsBack(tabId) {
  try {
    const emulated = metricsOverride(tabId);
    const { height } = emulated ?? await chrome.tabs.get(tabId);
    const shrunk = emulated ?? { width: 0, deviceScaleFactor: 0, mobile: false };
    await send(tabId, 'Emulation.setDeviceMetricsOverride', { ...shrunk, height: Math.max(1, height - 1) });
    await (emulated
      ? send(tabId, 'Emulation.setDeviceMetricsOverride', emulated)
      : send(tabId, 'Emulation.clearDeviceMetricsOverride'));
  } catch (err) {
    console.warn('tabsight: could not restore the scrollbars after a capture', err);
  }
}

async function describeTab(tabId, metrics) {
  const tab = await chrome.tabs.get(tabId);
  const { viewport, devicePixelRatio } = (await withinGrace(metrics)) ??
    { viewport: { width: tab.width, height: tab.height }, devicePixelRatio: lastDevicePixelRatio };
  return {
    url: tabUrl(tab),
    title: tab.title ?? '',
    viewport,
    device_pixel_ratio: devicePixelRatio,
  };
}

// The tab, once it is not loading (or SETTLE_TIMEOUT_MS has passed: a page
// that never finishes loading is captured as it is).
async function settledTab(tabId, signal) {
  const tab = await chrome.tabs.get(tabId);
  if (tab.status !== 'loading') return tab;
  await new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const onUpdated = (id, change) => {
      if (id === tabId && change.status === 'complete') done();
    };
    const timer = setTimeout(done, SETTLE_TIMEOUT_MS);
    chrome.tabs.onUpdated.addListener(onUpdated);
    signal.addEventListener('abort', done);
  });
  signal.throwIfAborted();
  return chrome.tabs.get(tabId);
}

// Rolling one-second window: room while fewer than 2 calls started in it.
// Without room the debugger takes the capture, except in a headed browser
// whose debugging bar is not showing: waiting for room costs less than
// bringing the bar, and the resize it makes, over the user's windows. Chrome
// counts a call when it arrives, a little after we do: each call holds its
// place a little longer than a second.
//
// The quota is the whole browser's, shared by every MCP session: room is
// handed out in turns (serveVisibleTabTurns), to the waiting capture of the
// session served longest ago, so an agent capturing in a burst does not keep
// another's screenshot waiting behind all of its own. `session` is the
// front's, which the host adds to each capture request.
// A capture cancelled while it waits gives its turn up (false).
async function takeVisibleTabSlot(session, signal) {
  if (!visibleTabTurns.length && visibleTabRoomIn() === 0) {
    grantVisibleTabSlot(session);
    return true;
  }
  if (!waitsForVisibleTab() || signal.aborted) return false;
  const granted = new Promise((resolve) => {
    const turn = { session, resolve };
    visibleTabTurns.push(turn);
    signal.addEventListener('abort', () => {
      const waiting = visibleTabTurns.indexOf(turn);
      if (waiting >= 0) visibleTabTurns.splice(waiting, 1);
      resolve(false);
    }, { once: true });
  });
  if (!servingVisibleTabTurns) serveVisibleTabTurns();
  return granted;
}

// Captures waiting for room, in the order they came.
const visibleTabTurns = [];
let servingVisibleTabTurns = false;
// session -> when it was last given room (performance.now()), while it matters
const visibleTabServed = new Map();

async function serveVisibleTabTurns() {
  servingVisibleTabTurns = true;
  try {
    while (visibleTabTurns.length) {
      const wait = visibleTabRoomIn();
      if (wait > 0) {
        await new Promise((resolve) => { setTimeout(resolve, wait); });
        continue;
      }
      const servedAt = (turn) => visibleTabServed.get(turn.session) ?? -Infinity;
      const next = visibleTabTurns.reduce((best, turn, index) => (
        servedAt(turn) < servedAt(visibleTabTurns[best]) ? index : best), 0);
      const [turn] = visibleTabTurns.splice(next, 1);
      grantVisibleTabSlot(turn.session);
      turn.resolve(true);
    }
  } finally {
    servingVisibleTabTurns = false;
  }
}

// Milliseconds until the window has room (0: now).
function visibleTabRoomIn() {
  const now = performance.now();
  while (visibleTabCalls.length && now - visibleTabCalls[0] >= VISIBLE_TAB_WINDOW_MS) visibleTabCalls.shift();
  return visibleTabCalls.length < VISIBLE_TAB_CALLS_PER_SECOND ? 0 : visibleTabCalls[0] + VISIBLE_TAB_WINDOW_MS - now;
}

function grantVisibleTabSlot(session) {
  const now = performance.now();
  visibleTabCalls.push(now);
  visibleTabServed.set(session, now);
  // who was served more than a few windows ago takes its turn as one never served: forgotten
  for (const [known, at] of visibleTabServed) if (now - at > 10 * VISIBLE_TAB_WINDOW_MS) visibleTabServed.delete(known);
}

const waitsForVisibleTab = () => barCosts() && !debuggingBarShown();

// A minimized window has no frame for captureVisibleTab to take: it never
// answers. The debugger's capture draws one (cdp.js keeps the page rendering).
async function isMinimized(windowId) {
  return (await chrome.windows.get(windowId)).state === 'minimized';
}

// Returns the base64 image, or null when the debugger path should be used
// instead: no room in the quota (takeVisibleTabSlot), a failure (hidden
// window, page mid-navigation), or no frame within VISIBLE_TAB_TIMEOUT_MS (a
// window hidden in a way Chrome does not report: a call that never answers
// must not hold the capture). The debugger's error is the one reported if it
// fails too. Chrome's count can still refuse a call ours let through (the
// call reached it after we read the clock: 1 run in 7 of three screenshots
// back to back): where
// waiting beats the bar, such a call waits for the next room.
async function captureVisibleTab(windowId, format, quality, session, signal) {
  const options = format === 'jpeg' ? { format, quality } : { format };
  for (let attempt = 1; await takeVisibleTabSlot(session, signal); attempt++) {
    try {
      const dataUrl = await frameWithin(chrome.tabs.captureVisibleTab(windowId, options), VISIBLE_TAB_TIMEOUT_MS);
      return dataUrl.slice(dataUrl.indexOf(',') + 1);
    } catch (err) {
      const overQuota = /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(err.message);
      if (!overQuota) console.warn('tabsight: captureVisibleTab failed, using the debugger', err);
      if (!overQuota || attempt >= VISIBLE_TAB_ATTEMPTS || !waitsForVisibleTab()) return null;
    }
  }
  return null;
}

// `capture`'s result, or a rejection once `ms` have passed since `since`
// without it: a capture that never answers still ends.
async function frameWithin(capture, ms, since = performance.now()) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no frame within ${ms} ms`)), since + ms - performance.now());
  });
  try {
    return await Promise.race([capture, late]);
  } finally {
    clearTimeout(timer);
  }
}

// One Page.captureScreenshot, of the viewport or of a clip (document CSS
// pixels; `beyondViewport` for one not all on screen); the caller holds the
// debugger. Bounded in time: a command that never answers still ends, and
// the caller's detach is what frees it. A capture beyond the viewport is not
// given up when the signal aborts: Chromium lays the page out at its own size
// again only as the capture ends, and restoring the scrollbars or detaching
// before that leaves the page at the capture's size (measured: 8000 px high).
export async function debuggerShot(tabId, { format, quality }, clip, signal, { beyondViewport = false } = {}) {
  const options = { format, optimizeForSpeed: true, captureBeyondViewport: beyondViewport };
  if (clip) options.clip = { ...clip, scale: 1 };
  if (format !== 'png') options.quality = quality;
  const started = performance.now(); // the attempt's time includes keeping frames coming
  let framesDrawn = () => {};
  try {
    framesDrawn = await keepFramesComing(tabId, signal);
    const shot = send(tabId, 'Page.captureScreenshot', options, beyondViewport ? undefined : signal);
    const { data } = await frameWithin(shot, CDP_ATTEMPT_TIMEOUT_MS, started);
    return data;
  } catch (err) {
    if (signal.aborted) throw err;
    throw new TabsightError(Code.CAPTURE_FAILED, `Page.captureScreenshot failed: ${err.message}`);
  } finally {
    framesDrawn();
  }
}

// Resolves to the page's metrics, or null when the page cannot be scripted.
async function readViewportMetrics(tabId) {
  try {
    const [{ result }] = await chrome.scripting.executeScript({
      target: { tabId },
      world: 'ISOLATED',
      func: () => ({
        viewport: { width: window.innerWidth, height: window.innerHeight },
        devicePixelRatio: window.devicePixelRatio,
      }),
    });
    lastDevicePixelRatio = result.devicePixelRatio;
    return result;
  } catch {
    return null;
  }
}

function withinGrace(metrics) {
  let timer;
  const grace = new Promise((resolve) => {
    timer = setTimeout(resolve, METRICS_GRACE_MS, null);
  });
  return Promise.race([metrics, grace]).finally(() => clearTimeout(timer));
}
