// chrome.debugger (CDP) access shared between concurrent users of a tab.
//
// One extension can hold only one attachment per tab, and in a headed
// browser every attachment shows the "started debugging this browser" bar,
// so users of a tab share one attachment, counted, and the last one out
// detaches.

import { Code, TabsightError } from './errors.js';
import { HEADLESS } from './identity.js';

const CDP_VERSION = '1.3';

// tabId -> { users, attached: Promise<void>, detached: Promise<void> | null, idleTimer }
const attachments = new Map();

// Chrome detaches on its own when the tab closes or the user dismisses the
// debugging bar; forget the attachment so the next user attaches afresh.
chrome.debugger.onDetach.addListener(({ tabId }) => {
  if (tabId !== undefined) attachments.delete(tabId);
});

// { detach: 'now' } releases the attachment as soon as its last user is
// done, instead of after IDLE_DETACH_MS.
export async function withDebugger(tabId, fn, { detach = 'idle' } = {}) {
  const entry = await acquire(tabId);
  return runAttached(tabId, entry, fn, detach === 'now' ? 0 : IDLE_DETACH_MS);
}

// As withDebugger, but runs `fn` unattached where Chrome refuses to attach
// (browser pages such as chrome://newtab, or another debugger's tab).
export async function withDebuggerIfAllowed(tabId, fn) {
  let entry;
  try {
    entry = await acquire(tabId);
  } catch {
    return fn();
  }
  return runAttached(tabId, entry, fn, IDLE_DETACH_MS);
}

async function runAttached(tabId, entry, fn, detachDelayMs) {
  try {
    return await fn();
  } finally {
    release(tabId, entry, detachDelayMs);
  }
}

// Whether the tab is attached now (or attaching): then CDP reports its dialogs.
export function isAttached(tabId) {
  const entry = attachments.get(tabId);
  return entry !== undefined && !entry.detached;
}

// Keeps the tab attached until the returned function is called (an open
// dialog must stay answerable: only this attachment knows it).
export async function hold(tabId) {
  const entry = await acquire(tabId);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release(tabId, entry, IDLE_DETACH_MS);
  };
}

// Rejects with the signal's reason as soon as it aborts, so the caller's
// withDebugger finally runs and detaches, which also ends the command.
export function send(tabId, method, params = {}, signal = undefined) {
  signal?.throwIfAborted();
  const command = chrome.debugger.sendCommand({ tabId }, method, params);
  if (!signal) return command;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    command.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function acquire(tabId) {
  for (;;) {
    const entry = attachments.get(tabId);
    if (!entry) break;
    if (entry.detached) {
      // The last user is detaching: wait, then attach anew.
      await entry.detached;
      continue;
    }
    entry.users++;
    clearTimeout(entry.idleTimer);
    await entry.attached; // on failure the entry is already gone from the map
    return entry;
  }
  const entry = { users: 1, attached: null, detached: null };
  entry.attached = attach(tabId).catch((err) => {
    if (attachments.get(tabId) === entry) attachments.delete(tabId);
    throw err;
  });
  attachments.set(tabId, entry);
  await entry.attached;
  return entry;
}

// Attaching and detaching cost about 20 ms together, more than a capture, so
// the last user out leaves the attachment for IDLE_DETACH_MS: a burst of
// captures pays for one attach. It is still released soon after the last
// use, and at once when the tab closes.
const IDLE_DETACH_MS = 3000;

function release(tabId, entry, delayMs) {
  entry.users--;
  if (entry.users > 0 || attachments.get(tabId) !== entry) return;
  entry.idleTimer = setTimeout(() => detachIdle(tabId, entry), delayMs);
}

function detachIdle(tabId, entry) {
  if (entry.users > 0 || attachments.get(tabId) !== entry) return;
  entry.detached = chrome.debugger.detach({ tabId })
    .catch(() => {}) // already detached (tab closed, bar dismissed): nothing to free
    .finally(() => {
      if (attachments.get(tabId) === entry) attachments.delete(tabId);
    });
}

async function attach(tabId) {
  await attachOnce(tabId);
  // Dialogs that open while attached are reported (and answerable) only with
  // the Page domain on. Not awaited: behind an open dialog it never answers.
  chrome.debugger.sendCommand({ tabId }, 'Page.enable').catch(() => {});
  // A page behind another window, minimized, or in a background tab is
  // hidden to Chromium: it draws no frames, and holds trusted mouse input
  // until the window is activated (about 5 s per event). Focus emulation
  // keeps such a page drawing and answering while we are attached, without
  // raising anything (a page in front needs none, and keeps its own focus
  // events). Sent before any input, so applied before it; not awaited for
  // the same reason as Page.enable.
  if (await notInFront(tabId)) {
    chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
  }
}

async function notInFront(tabId) {
  try {
    const tab = await chrome.tabs.get(tabId);
    const window = await chrome.windows.get(tab.windowId);
    // (a headless browser's windows are on no screen: none has the focus)
    return !tab.active || window.state === 'minimized' || (!HEADLESS && !window.focused);
  } catch {
    return false; // the tab is going away: the command itself will say so
  }
}

async function attachOnce(tabId) {
  try {
    await chrome.debugger.attach({ tabId }, CDP_VERSION);
  } catch (err) {
    if (!/already attached/i.test(err.message)) throw err;
    // Either DevTools (or another extension) holds the tab, or an attachment
    // of ours outlived a previous service-worker instance. Detaching succeeds
    // only in the second case, and then the tab is ours to attach.
    try {
      await chrome.debugger.detach({ tabId });
    } catch {
      throw new TabsightError(Code.CAPTURE_FAILED,
        `Cannot attach the debugger to tab ${tabId}: another debugger is attached (DevTools open?)`);
    }
    await chrome.debugger.attach({ tabId }, CDP_VERSION);
  }
}

// Calls handler(method, params) for every CDP event of the tab until the
// returned function is called.
export function onEvent(tabId, handler) {
  const listener = (source, method, params) => {
    if (source.tabId === tabId) handler(method, params);
  };
  chrome.debugger.onEvent.addListener(listener);
  return () => chrome.debugger.onEvent.removeListener(listener);
}
