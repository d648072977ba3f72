// JavaScript dialogs (alert, confirm, prompt, beforeunload): which tab has one
// open, the policy that answers them, and the `dialog.answer` and
// `dialog.policy` methods.
//
// Chrome lets an extension answer a dialog only through the debugger, and
// only one that opened while the debugger was attached with the Page domain
// on (Page.handleJavaScriptDialog says "No dialog is showing" otherwise, and
// any command that needs the page waits behind the dialog). So every
// attachment turns the Page domain on (cdp.js), and a dialog that opens
// meanwhile is answered at once by the tab's policy, or, with the policy
// `report`, kept open with the attachment held until the agent answers it.
// A tab's policy is set by the sessions that act on it (default `accept`,
// so an agent is never left stuck); tabs no session has touched have none,
// and their dialogs are the user's to answer.

import { Code, TabsightError } from './errors.js';
import { hold, isAttached } from './cdp.js';
import { boolParam, enumParam, tabIdParam } from './params.js';
import { TabEvent } from './tab-events.js';

export const POLICIES = ['accept', 'dismiss', 'report'];
// answers kept per tab for the requests that caused them
const MAX_ANSWERED = 20;
const MAX_MESSAGE = 1000;
// a page that answers a script within this is not stuck behind a dialog
const STUCK_AFTER_MS = 300;

// tabId -> 'accept' | 'dismiss' | 'report'
const policies = new Map();
// tabId -> { type, message, default_prompt, url, opened_at, release }
const openDialogs = new Map();
// tabId -> [{ type, message, answer, prompt_text?, by, at }], until a call on the tab takes them
const answered = new Map();
const opening = new TabEvent();
// tabs tabsight is navigating: a beforeunload there is left, whatever the policy
const leaving = new Set();
// tabId -> releases the attachment a `report` policy keeps (so its dialogs stay answerable)
const reportHolds = new Map();

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId === undefined) return;
  if (method === 'Page.javascriptDialogOpening') onOpening(source.tabId, params);
  else if (method === 'Page.javascriptDialogClosed') onClosed(source.tabId);
});
chrome.debugger.onDetach.addListener(({ tabId }) => {
  if (tabId !== undefined) openDialogs.delete(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  reportHolds.get(tabId)?.();
  for (const map of [policies, openDialogs, answered, reportHolds]) map.delete(tabId);
  opening.forget(tabId);
  leaving.delete(tabId);
});

// What isolated-world/dialogs.js passes on from the page (main world) of a frame:
// - {kind: 'dialog-policy'}: the tab's policy, for main-world/dialogs.js to apply;
// - a dialog the page answered by that policy, without ever showing it;
// - a dialog about to be shown natively (answer null): no policy, or
//   `report`; then {closed: true} once the page runs again.
// The page cannot reach the node these come over, but they are still the
// page's word: an announced open dialog blocks calls on its tab only while
// the page really is stuck (verifiedOpenDialog), and is answered only through
// the debugger, which knows what Chrome shows.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  const tabId = sender.tab?.id;
  if (tabId === undefined || sender.id !== chrome.runtime.id) return undefined;
  if (message?.kind === 'dialog-policy') {
    sendResponse({ policy: policies.get(tabId) ?? null });
    return undefined;
  }
  if (message?.kind !== 'dialog') return undefined;
  if (message.closed === true) {
    if (openDialogs.get(tabId)?.source === 'page') openDialogs.delete(tabId);
    return undefined;
  }
  const dialog = {
    type: message.type, message: String(message.message ?? '').slice(0, MAX_MESSAGE),
    default_prompt: String(message.default_prompt ?? ''), url: String(message.url ?? ''),
  };
  if (message.answer === 'accepted' || message.answer === 'dismissed') {
    const accepted = message.answer === 'accepted';
    remember(tabId, dialog, accepted, accepted && dialog.type === 'prompt' ? dialog.default_prompt : undefined, 'policy');
  } else if (!openDialogs.has(tabId) && !isAttached(tabId)) {
    // attached, the debugger sees the dialog too, answers it by the policy or keeps it answerable
    openDialogs.set(tabId, { ...dialog, opened_at: Date.now(), release: null, source: 'page' });
    opening.fire(tabId);
  }
  return undefined;
});

async function onOpening(tabId, { type, message = '', defaultPrompt = '', url = '' }) {
  const dialog = { type, message: message.slice(0, MAX_MESSAGE), default_prompt: defaultPrompt, url };
  const navigating = leaving.has(tabId) && type === 'beforeunload';
  const policy = navigating ? 'accept' : policies.get(tabId);
  if (policy === 'accept' || policy === 'dismiss') {
    const accept = policy === 'accept';
    try {
      await chrome.debugger.sendCommand({ tabId }, 'Page.handleJavaScriptDialog',
        { accept, ...(type === 'prompt' && accept ? { promptText: defaultPrompt } : {}) });
      remember(tabId, dialog, accept, accept && type === 'prompt' ? defaultPrompt : undefined,
        navigating ? 'navigate' : 'policy');
      return;
    } catch (err) {
      console.warn('tabsight: could not answer a dialog by policy', err);
    }
  }
  // report (or no policy: the user's tab): keep the attachment, so the dialog stays answerable
  let release = null;
  try {
    release = await hold(tabId);
  } catch {
    // detached meanwhile: the dialog is still reported
  }
  openDialogs.get(tabId)?.release?.();
  openDialogs.set(tabId, { ...dialog, opened_at: Date.now(), release, source: 'cdp' });
  opening.fire(tabId);
}

function onClosed(tabId) {
  const dialog = openDialogs.get(tabId);
  if (!dialog) return;
  openDialogs.delete(tabId);
  dialog.release?.();
}

function remember(tabId, dialog, accepted, promptText, by) {
  const list = answered.get(tabId) ?? [];
  list.push({
    type: dialog.type,
    message: dialog.message,
    answer: accepted ? 'accepted' : 'dismissed',
    ...(promptText !== undefined ? { prompt_text: promptText } : {}),
    by,
    at: Date.now(),
  });
  answered.set(tabId, list.slice(-MAX_ANSWERED));
}

// A new document: a dialog the old one announced is gone with it (its
// closing was never announced).
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === 'loading' && openDialogs.get(tabId)?.source === 'page') openDialogs.delete(tabId);
});

// The dialog open on a tab, or null; one only the page announced counts only
// while the page really is stuck behind it (a quick script must not answer).
export async function verifiedOpenDialog(tabId) {
  const dialog = openDialogs.get(tabId);
  if (dialog?.source !== 'page') return openDialog(tabId);
  const responsive = await Promise.race([
    chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: () => true })
      .then(() => true, () => false),
    new Promise((resolve) => { setTimeout(() => resolve(false), STUCK_AFTER_MS); }),
  ]);
  if (responsive && openDialogs.get(tabId) === dialog) openDialogs.delete(tabId);
  return openDialog(tabId);
}

// The dialog open on a tab, as answers describe it, or null.
export function openDialog(tabId) {
  const dialog = openDialogs.get(tabId);
  if (!dialog) return null;
  const { type, message, default_prompt: defaultPrompt, url } = dialog;
  return { type, message, ...(type === 'prompt' ? { default_prompt: defaultPrompt } : {}), url };
}

export function dialogOpenError(tabId, when = 'is open') {
  const { type, message } = openDialog(tabId);
  const article = type === 'alert' ? 'An' : 'A';
  return new TabsightError(Code.DIALOG_OPEN,
    `${article} ${type} dialog ${when} on tab ${tabId}: ${JSON.stringify(message)}.`);
}

// Dialogs a policy answered on the tab since the last call on it that took
// them: during this call, or between two calls (a timer's).
export function takeAnswered(tabId) {
  const list = (answered.get(tabId) ?? []).filter((entry) => entry.by !== 'agent');
  answered.delete(tabId);
  return list.map(({ at, ...entry }) => entry);
}

// { happened: resolves when a dialog opens on the tab, stop: stops waiting }
export function whenDialogOpens(tabId) {
  return opening.wait(tabId);
}

// While `fn` runs, a beforeunload on the tab is accepted: tabsight asked to leave.
export async function leavingPage(tabId, fn) {
  leaving.add(tabId);
  try {
    return await fn();
  } finally {
    leaving.delete(tabId);
  }
}

// `dialog.policy`: {tab_id, policy} -> {policy}
export async function setDialogPolicy(params) {
  const tabId = tabIdParam(params);
  const policy = enumParam(params, 'policy', POLICIES, 'accept');
  await chrome.tabs.get(tabId); // no_tab for a tab that is gone
  policies.set(tabId, policy);
  // every frame's main-world/dialogs.js applies it from now on
  chrome.tabs.sendMessage(tabId, { kind: 'dialog-policy', policy }).catch(() => {});
  // `report` leaves dialogs open for the agent: only a dialog that opens while
  // attached can be answered, so the tab stays attached meanwhile
  if (policy === 'report' && !reportHolds.has(tabId)) {
    try {
      reportHolds.set(tabId, await hold(tabId));
    } catch {
      // cannot attach (a browser page, DevTools open): its dialogs are announced, not answerable
    }
  } else if (policy !== 'report') {
    reportHolds.get(tabId)?.();
    reportHolds.delete(tabId);
  }
  return { policy };
}

// `dialog.answer`: {tab_id, accept, prompt_text?} -> the dialog and the answer
export async function answerDialog(params) {
  const tabId = tabIdParam(params);
  const accept = boolParam(params, 'accept', true);
  const promptText = params.prompt_text ?? null;
  if (promptText !== null && typeof promptText !== 'string') {
    throw new TabsightError(Code.BAD_REQUEST, 'Invalid prompt_text (allowed: a string)');
  }
  const dialog = openDialogs.get(tabId);
  if (!dialog) {
    await chrome.tabs.get(tabId);
    throw new TabsightError(Code.NO_DIALOG, `No dialog is open on tab ${tabId}.`);
  }
  if (dialog.source === 'page') {
    throw new TabsightError(Code.DIALOG_UNANSWERABLE,
      `The ${dialog.type} ${JSON.stringify(dialog.message)} on tab ${tabId} opened while tabsight was not attached ` +
      'to the tab, and Chrome lets extensions answer only dialogs that open while attached.');
  }
  const text = dialog.type === 'prompt' && accept ? (promptText ?? dialog.default_prompt) : undefined;
  await chrome.debugger.sendCommand({ tabId }, 'Page.handleJavaScriptDialog',
    { accept, ...(text !== undefined ? { promptText: text } : {}) });
  onClosed(tabId);
  remember(tabId, dialog, accept, text, 'agent');
  return { dialog: openDialogSummary(dialog), answer: accept ? 'accepted' : 'dismissed',
    ...(text !== undefined ? { prompt_text: text } : {}) };
}

function openDialogSummary({ type, message }) {
  return { type, message };
}
