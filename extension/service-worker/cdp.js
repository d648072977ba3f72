// chrome.debugger (CDP) access shared between concurrent users of a tab.
//
// One extension can hold only one attachment per tab, so users of a tab
// share one attachment, counted, and the last one out detaches after an
// idle time.
//
// In a headed browser every attachment shows the "started debugging this
// browser" bar, in every window, and the bar resizes every page's viewport
// (by about 56 px) when it comes and again when it goes. So there:
// - an attachment is kept for the agent's whole active stretch (until
//   STRETCH_IDLE_MS pass without a use), not dropped and made again per
//   action: one arrival of the bar per stretch, not two resizes per action;
// - the first attachment of a stretch waits for the bar's resize to land
//   before anyone measures or acts on the page (settleBar), so coordinates
//   are never taken on one side of the resize and used on the other;
// - when the user clicks Cancel on the bar, Chrome detaches every tab, and
//   tabsight attaches again only once the agent has asked the user and
//   called configure({action:'debugger'}) (allowAgain): the user's no is
//   an answer, not a glitch to retry.

import { noteOwnInput } from './own-input.js';
import { Code, TabsightError } from './errors.js';
import { HEADLESS } from './identity.js';

const CDP_VERSION = '1.3';

// Attaching and detaching cost about 20 ms together, more than a capture, so
// the last user out leaves the attachment for a while: a burst of calls pays
// for one attach. Headless, nobody sees an attachment, and it goes soon after
// the last use (a page's dialogs are answered by the policy, unattached);
// headed, the bar is what costs, and the attachment lasts the agent's stretch.
const IDLE_DETACH_MS = 3000;
const STRETCH_IDLE_MS = 30_000;
const idleDetachMs = () => (barCosts() ? STRETCH_IDLE_MS : IDLE_DETACH_MS);
// Chrome keeps the bar this long after the last detach (a new attachment
// meanwhile finds it still up: no resize), then removes it.
const BAR_LINGER_MS = 5000;
// How long the bar may take to show (and resize the page) after an attach,
// and how long the page's size must then hold still to count as settled.
const BAR_ARRIVAL_MS = 1500;
const BAR_STEADY_MS = 100;
const POLL_MS = 20;
// What Chrome may hold of response bodies while attached, per tab and per response (bytes).
const NETWORK_BUFFERS = { maxTotalBufferSize: 20_000_000, maxResourceBufferSize: 5_000_000 };
// How long a detach may wait for the work that must end before it (afterAttached: a response body being
// read, which Chrome drops with the attachment), at most.
const DRAIN_MS = 2000;

// tabId -> { users, attached: Promise<void>, detached: Promise<void> | null, idleTimer, focusEmulation,
//   pending: Set<Promise> (work the detach waits for), gone (the detach command is sent) }
const attachments = new Map();
// when the last attachment went (the bar lingers after it)
let lastDetachAt = -Infinity;
// the user clicked Cancel on the debugging bar, and the agent has not yet been allowed to go on
let canceledByUser = false;
// called with the tab of each new attachment before its first user runs (onAttach)
const attachHooks = [];

// Chrome detaches on its own when the tab closes or the user cancels the
// debugging bar; forget the attachment so the next user attaches afresh.
chrome.debugger.onDetach.addListener(({ tabId }, reason) => {
  if (tabId !== undefined) attachments.delete(tabId);
  if (attachments.size === 0) lastDetachAt = performance.now();
  if (reason === 'canceled_by_user') canceledByUser = true;
});

// tabsight's own headed browser runs with --silent-debugger-extension-api:
// its host says so in its hello (setBarSilent), and there is no bar to spare.
let barSilent = false;

export function setBarSilent(silent) {
  barSilent = silent;
}

// Whether an attachment shows the debugging bar to the user.
export const barCosts = () => !HEADLESS && !barSilent;

// Whether the debugging bar shows now: attached, or detached so recently
// that Chrome has not removed the bar yet.
export function debuggingBarShown() {
  return barCosts() && (attachments.size > 0 || performance.now() - lastDetachAt < BAR_LINGER_MS);
}

// No MCP session is left: nobody's stretch of work goes on, so the
// attachments nobody uses go now (and the bar with them), not after the idle time.
export function releaseIdle() {
  for (const [tabId, entry] of attachments) {
    if (entry.users > 0 || entry.detached) continue;
    clearTimeout(entry.idleTimer);
    detachIdle(tabId, entry);
  }
}

// The agent asked the user, who agreed: attach again when needed.
export function allowAgain() {
  const was = canceledByUser;
  canceledByUser = false;
  return { debugger: 'allowed', was_canceled_by_user: was };
}

function canceledError() {
  return new TabsightError(Code.DEBUGGER_CANCELED,
    'The user clicked Cancel on the browser\'s "tabsight started debugging this browser" bar, so tabsight ' +
    'stopped acting on their tabs and will not attach again on its own.');
}

// { detach: 'now' } drops the attachment as soon as its last user is done
// (renew), instead of after the idle time.
export async function withDebugger(tabId, fn, { detach = 'idle' } = {}) {
  const entry = await acquire(tabId);
  if (detach !== 'now') return runAttached(tabId, entry, fn, idleDetachMs());
  try {
    return await fn();
  } finally {
    renew(tabId, entry);
  }
}

// As withDebugger, but runs `fn` unattached where Chrome refuses to attach
// (browser pages such as chrome://newtab, or another debugger's tab), or
// where the user has cancelled tabsight's debugging; `fn(attached)` is told which.
export async function withDebuggerIfAllowed(tabId, fn) {
  let entry;
  try {
    entry = await acquire(tabId);
  } catch {
    return fn(false);
  }
  return runAttached(tabId, entry, () => fn(true), idleDetachMs());
}

async function runAttached(tabId, entry, fn, detachDelayMs) {
  try {
    return await fn();
  } finally {
    release(tabId, entry, detachDelayMs);
  }
}

// What an attachment switched on ends with it: `hook(tabId)` is called for
// every new attachment, before its first user runs, to switch it on again
// (emulation.js). It must not wait for the page: commands it sends run
// before the users' all the same (CDP runs a tab's commands in order).
export function onAttach(hook) {
  attachHooks.push(hook);
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
    release(tabId, entry, idleDetachMs());
  };
}

// Rejects with the signal's reason as soon as it aborts, so the caller's
// withDebugger finally runs and detaches, which also ends the command. A
// command cut short by the user's Cancel on the bar says so.
export function send(tabId, method, params = {}, signal = undefined) {
  signal?.throwIfAborted();
  const command = chrome.debugger.sendCommand({ tabId }, method, params).catch(async (err) => {
    if (/not attached|detached/i.test(err.message)) {
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); }); // onDetach says why, just after
      if (canceledByUser) throw canceledError();
    }
    throw err;
  });
  if (method.startsWith('Input.')) noteOwnInput(tabId, command);
  if (!signal) return command;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    command.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// Whether an error is the user's Cancel (which callers that report errors
// per step must pass on instead of reporting).
export const isCanceledByUser = (err) => err instanceof TabsightError && err.code === Code.DEBUGGER_CANCELED;

async function acquire(tabId) {
  if (canceledByUser) throw canceledError();
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
    syncFocusEmulation(tabId, entry);
    return entry;
  }
  const entry = { users: 1, attached: null, detached: null, focusEmulation: false, pending: new Set(), gone: false };
  const barUp = !barCosts() || debuggingBarShown();
  entry.attached = attach(tabId, entry, barUp).catch((err) => {
    if (attachments.get(tabId) === entry) attachments.delete(tabId);
    throw err;
  });
  attachments.set(tabId, entry);
  await entry.attached;
  return entry;
}

function release(tabId, entry, delayMs) {
  entry.users--;
  if (entry.users > 0 || attachments.get(tabId) !== entry) return;
  entry.idleTimer = setTimeout(() => detachIdle(tabId, entry), delayMs);
}

// The last user out drops the attachment at once, and with it whatever its
// commands switched on (domains, overrides, interception: execute's steps).
// A clean attachment is made again at once for the idle time after, as any
// other use has (the responses that finish then are read: network.js);
// where the bar costs, within the bar's linger, so no resize comes of it.
async function renew(tabId, entry) {
  entry.users--;
  if (entry.users > 0 || attachments.get(tabId) !== entry) return;
  clearTimeout(entry.idleTimer);
  detachIdle(tabId, entry);
  try {
    release(tabId, await acquire(tabId), idleDetachMs());
  } catch {
    // the tab is gone, or the user cancelled: nothing to keep
  }
}

// The work that must end before the tab's attachment goes, the attachment's
// own (network.js: a response body being read, which Chrome drops with the
// attachment): `work` is a promise, and the tab's detach, whatever calls it,
// waits for it (DRAIN_MS at most). False where the tab is not attached (or
// its detach is already sent): then the work's commands fail anyway.
export function afterAttached(tabId, work) {
  const entry = attachments.get(tabId);
  if (!entry || entry.gone) return false;
  entry.pending.add(work);
  const done = () => entry.pending.delete(work);
  work.then(done, done);
  return true;
}

function detachIdle(tabId, entry) {
  if (entry.users > 0 || entry.detached || attachments.get(tabId) !== entry) return;
  // Until the detach command is sent the tab is attached: its events still come, and the work they start
  // (another body read) is waited for too.
  entry.detached = drain(entry)
    .then(() => {
      entry.gone = true;
      return chrome.debugger.detach({ tabId });
    })
    .catch(() => {}) // already detached (tab closed, bar dismissed): nothing to free
    .finally(() => {
      if (attachments.get(tabId) === entry) attachments.delete(tabId);
      if (attachments.size === 0) lastDetachAt = performance.now();
    });
}

async function drain(entry) {
  const deadline = performance.now() + DRAIN_MS;
  while (entry.pending.size > 0 && performance.now() < deadline) {
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(resolve, deadline - performance.now()); });
    await Promise.race([Promise.allSettled([...entry.pending]), late]);
    clearTimeout(timer);
  }
}

async function attach(tabId, entry, barUp) {
  const before = barUp ? null : await viewportHeight(tabId);
  await attachOnce(tabId);
  // Dialogs that open while attached are reported (and answerable) only with
  // the Page domain on. Not awaited: behind an open dialog it never answers.
  chrome.debugger.sendCommand({ tabId }, 'Page.enable').catch(() => {});
  // Chrome keeps response bodies only for requests the Network domain saw, and only while attached:
  // network.js reads the ones an agent may ask about as they finish.
  chrome.debugger.sendCommand({ tabId }, 'Network.enable', NETWORK_BUFFERS).catch(() => {});
  await syncFocusEmulation(tabId, entry);
  for (const hook of attachHooks) hook(tabId);
  if (before !== null) await settleBar(tabId, before);
}

// A page behind another window, minimized, or in a background tab is hidden
// to Chromium: it draws no frames, and holds trusted mouse input until the
// window is activated (about 5 s per event). Focus emulation keeps such a
// page drawing and answering while we are attached (it ends with the
// attachment: a wheel event is scrolled after its command has answered),
// without raising anything; a page in front needs none, and keeps its own
// focus events. The user moves windows during a stretch, so this is checked
// at every use. The
// command is not awaited: behind an open dialog it never answers, and it is
// applied before any later command (input) all the same.
async function syncFocusEmulation(tabId, entry) {
  const wanted = await notInFront(tabId);
  if (wanted === entry.focusEmulation) return;
  entry.focusEmulation = wanted;
  chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: wanted }).catch(() => {});
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

// Waits until the bar that this attachment brought has resized the page and
// the size holds still; returns at BAR_ARRIVAL_MS if it never changes (a
// browser that shows no bar: --silent-debugger-extension-api).
async function settleBar(tabId, before) {
  const deadline = performance.now() + BAR_ARRIVAL_MS;
  let height = before;
  let steadySince = null;
  while (performance.now() < deadline) {
    await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    const now = await viewportHeight(tabId);
    if (now !== height) {
      height = now;
      steadySince = performance.now();
    } else if (steadySince !== null && performance.now() - steadySince >= BAR_STEADY_MS) {
      return;
    }
  }
}

async function viewportHeight(tabId) {
  try {
    return (await chrome.tabs.get(tabId)).height;
  } catch {
    return null;
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
