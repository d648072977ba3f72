// The frame source: a screencast of a tab whose viewport is captured again
// and again, so that a screenshot is the frame already in hand (a few ms)
// instead of a fresh Page.captureScreenshot (about 40 ms at 1280x720).
//
// Chrome sends a screencast frame when it starts one, and then only when the
// page's picture changes, 23 to 33 ms after the change; so the latest frame
// is the page as it is now, with three exceptions handled here:
// - after tabsight's own action (a click, a navigation, execute) the next
//   capture is taken afresh, and a new cast started: a frame that arrives
//   just after the action may have been drawn before it, while a new cast's
//   frames are all drawn after it (waiting for its first frame, 50-70 ms,
//   would cost more than the fresh capture's 40);
// - a page that animates sends frames all the time, each one encoded: the
//   cast stops there (it would cost half a core or more) and the tab is
//   captured afresh for a while;
// - a change of viewport size or of the quality asked for starts a new cast.
//
// A cast runs only where the debugger costs the user nothing (headless, or
// tabsight's own headed browser), and only while the tab stays attached: it
// ends with the attachment's idle detach. Every tab capture through the
// debugger also needs a screencast running, a tiny one, because a hidden
// page draws no frames otherwise (keepFramesComing, for the capture's
// time only); one tab has one cast.

import { onEvent, send } from './cdp.js';

// Frames in the last second past which a page counts as animating, and how
// long such a page is then captured afresh before a cast is tried again.
const ANIMATED_FRAMES_PER_SECOND = 12;
const ANIMATED_PAUSE_MS = 30_000;

// tabId -> { quality, width, height, startedAt, startedWall, live, latest, frames, stop }
const casts = new Map();
// tabId -> when the last action of tabsight's on it ended (performance.now())
const actionEnds = new Map();
// tabId -> until when it is captured afresh (it animates)
const animating = new Map();
// tabId -> { captures, ours, started }: the tiny screencast of the captures in progress (keepFramesComing)
const drawing = new Map();
let castsStarted = 0;

// Called as each acting method ends: the next frame served must be newer.
export function noteAction(tabId) {
  actionEnds.set(tabId, performance.now());
}

// The latest frame of the tab's cast, as { data, frame_id, quality } for a
// viewport of `viewport` (CSS px) at `scale` device px per CSS px, or null
// when the caller should capture afresh. The caller holds the debugger
// attachment.
export async function latestFrame(tabId, { quality, viewport, scale }) {
  const until = animating.get(tabId);
  if (until !== undefined && performance.now() < until) return null;
  const width = Math.round(viewport.width * scale);
  const height = Math.round(viewport.height * scale);
  const cast = casts.get(tabId);
  if (!cast || cast.quality !== quality || cast.width !== width || cast.height !== height ||
      (actionEnds.get(tabId) ?? -Infinity) > cast.startedAt) {
    // A cast's first frame takes 50-70 ms, a fresh capture about 40: this one is captured afresh
    // while the cast starts, for the next.
    startCast(tabId, { quality, width, height }).catch(() => {}); // the tab went away: nothing to serve
    return null;
  }
  const frame = cast.latest;
  if (!frame || frame.width !== width || frame.height !== height) return null;
  return { data: frame.data, frame_id: frame.id, quality };
}

// A tiny screencast for a capture of a tab that may be hidden, unless a
// cast of the frame source runs there already; resolves to the function
// that ends it, for when the capture is taken. It must not outlive the
// capture: on a page that animates, Chrome captures every frame for a
// screencast whatever its size and everyNthFrame (measured: a third of a
// core, for as long as the attachment lasted). Captures of a tab at once
// share one.
export async function keepFramesComing(tabId, signal) {
  if (casts.has(tabId)) return () => {};
  let tiny = drawing.get(tabId);
  if (!tiny) {
    const fresh = { captures: 0, ours: false };
    fresh.started = send(tabId, 'Page.startScreencast',
      { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1_000_000 }, signal).then(() => {
      fresh.ours = true;
    }, (err) => {
      if (/already active/i.test(err.message)) return; // someone else's: it keeps frames coming, and is not ours to end
      if (drawing.get(tabId) === fresh) drawing.delete(tabId); // the next capture tries again
      throw err;
    });
    drawing.set(tabId, fresh);
    tiny = fresh;
  }
  tiny.captures++;
  const end = () => {
    if (--tiny.captures > 0 || drawing.get(tabId) !== tiny) return;
    drawing.delete(tabId);
    if (tiny.ours && !casts.has(tabId)) send(tabId, 'Page.stopScreencast').catch(() => {}); // detached: it ended with it
  };
  try {
    await tiny.started;
  } catch (err) {
    end();
    throw err;
  }
  return end;
}

// A new cast, whose first frame Chrome draws as the page is now: frames of
// an earlier cast still on their way are not its own.
async function startCast(tabId, { quality, width, height }) {
  stopCast(tabId);
  const cast = {
    quality, width, height, startedAt: performance.now(), startedWall: Date.now(), live: false, latest: null,
    frames: [], stop: null,
  };
  const id = ++castsStarted;
  let seq = 0;
  cast.stop = onEvent(tabId, (method, event) => {
    if (method !== 'Page.screencastFrame') return;
    send(tabId, 'Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {});
    // A frame of the cast before (stopped for this one) may still be on its way: it was swapped before
    // this cast started.
    const swapped = event.metadata.timestamp;
    if (swapped !== undefined ? swapped * 1000 < cast.startedWall : !cast.live) return;
    const now = performance.now();
    cast.latest = { data: event.data, id: `${id}.${++seq}`, at: now, ...jpegSize(event.data) };
    cast.frames.push(now);
    while (cast.frames.length && now - cast.frames[0] > 1000) cast.frames.shift();
    if (cast.frames.length > ANIMATED_FRAMES_PER_SECOND) {
      animating.set(tabId, now + ANIMATED_PAUSE_MS);
      stopCast(tabId);
    }
  });
  casts.set(tabId, cast);
  try {
    await send(tabId, 'Page.startScreencast', { format: 'jpeg', quality, maxWidth: width, maxHeight: height });
    cast.live = true;
  } catch (err) {
    stopCast(tabId);
    throw err;
  }
  return cast;
}

function stopCast(tabId) {
  if (forgetCast(tabId)) send(tabId, 'Page.stopScreencast').catch(() => {}); // detached meanwhile: it stopped with it
}

// Stops listening to the tab's cast; whether there was one.
function forgetCast(tabId) {
  const cast = casts.get(tabId);
  if (!cast) return false;
  casts.delete(tabId);
  cast.stop();
  return true;
}

// A JPEG's size in pixels, from the start-of-frame segment near its start
// ({} if there is none: then it is served to no one).
function jpegSize(base64) {
  const bytes = Uint8Array.from(atob(base64.slice(0, 8192)), (c) => c.charCodeAt(0));
  for (let at = 2; at + 9 < bytes.length;) {
    if (bytes[at] !== 0xff) return {};
    const marker = bytes[at + 1];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] };
    }
    at += 2 + ((bytes[at + 2] << 8) | bytes[at + 3]);
  }
  return {};
}

// Screencasts end with the attachment: forget them.
chrome.debugger.onDetach.addListener(({ tabId }) => {
  drawing.delete(tabId);
  forgetCast(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  actionEnds.delete(tabId);
  animating.delete(tabId);
});
