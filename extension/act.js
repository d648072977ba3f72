// The `element.act` and `page.wait_for` methods: acting on a page the way a
// user does, and saying what changed.
//
// Pointer and keyboard input go through the debugger (Input.dispatch*), so
// the page gets trusted events at real coordinates, as from a user; the
// target is located in the page first (inpage.js `locate`: scrolled into
// view, a point on it that nothing covers).
//
// A click or hover acts on the element it names, or on nothing: the page
// side guards the target from aiming to the end (inpage.js `aim`: events
// that would reach another element are stopped before the page sees them),
// the point is hit-tested again between the move and the press, and a
// target the page moved meanwhile is located again and tried once more;
// then the action is refused, naming what is at the point instead.
//
// A label (annotation id and number) names the element the annotation
// marked, kept in the page (inpage.js `resolveLabel`), never a selector
// match: if that element is gone, replaced or changed, stale_label.

import { send, withDebugger } from './cdp.js';
import { Code, TabsightError, badRequest } from './errors.js';
import { currentDocument, inPage, inPageIfLoaded, runInPage } from './inpage-call.js';
import { enumParam, intParam, optionalStringParam, tabIdParam } from './params.js';
import { tabUrl } from './restricted.js';

const ACTIONS = ['click', 'type', 'select', 'hover', 'press', 'scroll'];
// After an action, changes are collected until the DOM has been quiet this
// long, or SETTLE_MAX_MS has passed.
const QUIET_MS = 150;
const SETTLE_MAX_MS = 1500;
const POLL_MS = 50;
const NAVIGATION_WAIT_MS = 10_000;

// Modifier bits of Input.dispatchKeyEvent.
const MODIFIERS = { Alt: 1, Control: 2, Ctrl: 2, Meta: 4, Command: 4, Shift: 8 };
// key -> [code, windowsVirtualKeyCode, text]
const NAMED_KEYS = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9, ''], Escape: ['Escape', 27, ''], Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''], Space: ['Space', 32, ' '], ArrowUp: ['ArrowUp', 38, ''], ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''], ArrowRight: ['ArrowRight', 39, ''], Home: ['Home', 36, ''], End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''], PageDown: ['PageDown', 34, ''],
};

export async function act(params, signal) {
  const tabId = tabIdParam(params);
  const action = enumParam(params, 'action', ACTIONS);
  const selector = targetParam(params);
  const point = pointParam(params);
  const expected = optionalStringParam(params, 'document');
  if (expected && (await currentDocument(tabId)) !== expected) {
    throw new TabsightError(Code.STALE_LABEL, typeof selector === 'object'
      ? `label ${selector.label} is stale: observe again (the tab shows another document now)`
      : 'the page has changed since the annotation');
  }
  const before = await chrome.tabs.get(tabId);
  const documentBefore = await inPage(tabId, 'watch');
  signal.throwIfAborted();

  const did = await perform(tabId, action, selector, point, params, signal);
  const after = await settle(tabId, documentBefore, signal);
  return {
    ...did,
    url: after.url,
    title: after.title,
    navigated: after.navigated || after.url !== tabUrl(before),
    ...(after.dom ? { dom: after.dom } : {}),
  };
}

// What to act on: a selector, or a label ({annotation, label, selector?})
// when the request names an annotation.
function targetParam(params) {
  const selector = optionalStringParam(params, 'selector');
  const annotation = optionalStringParam(params, 'annotation');
  if (!annotation) return selector;
  return { annotation, label: intParam(params, 'label', 1, 1000), ...(selector ? { selector } : {}) };
}

const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

function pointParam(params) {
  if (params.x === undefined && params.y === undefined) return null;
  const x = params.x;
  const y = params.y;
  if (typeof x !== 'number' || typeof y !== 'number' || x < 0 || y < 0) {
    throw badRequest(`Invalid x/y: ${JSON.stringify([x, y])} (allowed: both, numbers >= 0, CSS px of the viewport)`);
  }
  return { x, y };
}

// Where the action lands: the located element's point, or the given one.
async function locateTarget(tabId, selector, point, { focusOnly = false } = {}) {
  if (!selector) return { ...point, target: null };
  const located = await inPage(tabId, focusOnly ? 'focus' : 'locate', selector);
  if (located.error) throw new TabsightError(located.error, located.message);
  return located;
}

async function perform(tabId, action, selector, point, params, signal) {
  switch (action) {
    case 'click':
    case 'hover': {
      if (!selector && !point) throw badRequest(`${action} needs a target: label, selector, or x and y`);
      return exclusive(tabId, () => pointerAction(tabId, action, selector, point, signal));
    }
    case 'type': {
      const text = typeof params.text === 'string' ? params.text : null;
      if (text === null) throw badRequest('type needs text, a string');
      const { target } = selector ? await locateTarget(tabId, selector, null, { focusOnly: true }) : { target: null };
      await withDebugger(tabId, async () => {
        if (params.clear) {
          await key(tabId, 'a', { commands: ['selectAll'] }, signal);
          await key(tabId, 'Backspace', {}, signal);
        }
        if (text) await send(tabId, 'Input.insertText', { text }, signal);
        if (params.submit) await key(tabId, 'Enter', {}, signal);
      });
      const what = `typed ${text.length} characters${params.clear ? ' after clearing' : ''}`;
      return { did: params.submit ? `${what}, then Enter` : what, target };
    }
    case 'select': {
      if (!selector) throw badRequest('select needs a target: label or selector of a <select>');
      const value = optionalStringParam(params, 'value');
      if (value === null) throw badRequest('select needs value: an option\'s value or its visible text');
      const chosen = await inPage(tabId, 'selectOption', selector, value);
      if (chosen.error) throw new TabsightError(chosen.error, chosen.message);
      return { did: `selected ${JSON.stringify(chosen.text)} (value ${JSON.stringify(chosen.value)})`, target: chosen.target };
    }
    case 'press': {
      const combo = optionalStringParam(params, 'key');
      if (!combo) throw badRequest('press needs key, e.g. "Enter", "Escape", "Control+A"');
      const { target } = selector ? await locateTarget(tabId, selector, null, { focusOnly: true }) : { target: null };
      await withDebugger(tabId, () => pressCombo(tabId, combo, signal));
      return { did: `pressed ${combo}`, target };
    }
    case 'scroll': {
      if (selector) {
        const { target } = await locateTarget(tabId, selector, null);
        return { did: 'scrolled the element into view', target };
      }
      const deltaX = intParam(params, 'delta_x', -100_000, 100_000, 0);
      const deltaY = intParam(params, 'delta_y', -100_000, 100_000, 0);
      const tab = await chrome.tabs.get(tabId);
      const at = point ?? { x: tab.width / 2, y: tab.height / 2 };
      await withDebugger(tabId, () => send(tabId, 'Input.dispatchMouseEvent',
        { type: 'mouseWheel', x: at.x, y: at.y, deltaX, deltaY }, signal));
      return { did: `scrolled by (${deltaX}, ${deltaY})`, target: null };
    }
    default:
      throw badRequest(`Unknown action ${action}`);
  }
}

// click / hover: aim (locate and guard), move, check the point still hits
// the target, press and release (click), and read what the guard saw. A
// miss on the first try (the page moved the target, or covered it, as the
// pointer came or as it pressed) is tried once more from a fresh locate.
async function pointerAction(tabId, action, selector, point, signal) {
  signal?.throwIfAborted(); // cancelled while it waited its turn
  let moved = null; // the first try's miss: what was at the point instead
  for (let attempt = 1; ; attempt++) {
    const aimed = await abortable(inPage(tabId, 'aim', selector, point, action), signal);
    if (aimed.error) {
      throw new TabsightError(aimed.error, moved ? `${aimed.message} (${movedNote(moved)})` : aimed.message);
    }
    const { x, y, guard, target } = aimed;
    const where = `(${Math.round(x)}, ${Math.round(y)})`;
    let outcome;
    let report = null;
    try {
      outcome = await withDebugger(tabId, async () => {
        await mouse(tabId, 'mouseMoved', x, y, signal);
        if (selector) {
          const check = await abortable(inPage(tabId, 'checkHit', guard), signal);
          if (!check.ok) return { missed: { when: 'move', ...check } };
        }
        if (action === 'click') {
          await mouse(tabId, 'mousePressed', x, y, signal);
          await mouse(tabId, 'mouseReleased', x, y, signal);
        }
        return {};
      });
    } finally {
      report = await abortable(inPageIfLoaded(tabId, 'disarm', guard), signal).catch(() => null);
    }
    // a miss after the check: the press made the page move it (the guard held the events back)
    const missed = outcome.missed ?? (report?.blocked ? { ...report.blocked, when: 'press' } : null);
    if (!missed) {
      const did = `${action} at ${where}${moved ? ` (${movedNote(moved)})` : ''}`;
      return selector ? { did, target } : { did, target, received: report?.received ?? null };
    }
    if (attempt === 1) {
      moved = { ...missed, where };
      continue;
    }
    throw new TabsightError(Code.ELEMENT_COVERED, missedMessage(action, selector, target, missed, where));
  }
}

function movedNote(moved) {
  return `located it again: at ${moved.where} the page had put ${moved.now ?? moved.hit}`;
}

function missedMessage(action, selector, target, missed, where) {
  const named = `${targetName(selector)}${target ? ` (<${target.tag}>${target.name ? ` ${JSON.stringify(target.name)}` : ''})` : ''}`;
  if (missed.when === 'move' && missed.gone) {
    return `Did not ${action} ${named}: the page removed it as the pointer came, twice; ${missed.hit} is at ${where} now.`;
  }
  if (missed.when === 'press') {
    return `Did not ${action} ${named}: the page ${missed.gone ? 'replaced' : 'moved'} it as it was pressed, twice; ` +
      `at ${where} there is ${missed.now} now (its ${missed.types.join(', ')} were kept from the page).`;
  }
  return `Did not ${action} ${named}: at ${where} there is ${missed.hit} now, not it; ` +
    'the page moved or covered it as the pointer came, also after it was located a second time.';
}

// Pointer actions on one tab take turns: the page keeps one guard at a time.
const pointerTurns = new Map();

function exclusive(tabId, fn) {
  const previous = pointerTurns.get(tabId) ?? Promise.resolve();
  const run = previous.then(fn);
  const done = run.catch(() => {});
  pointerTurns.set(tabId, done);
  done.then(() => {
    if (pointerTurns.get(tabId) === done) pointerTurns.delete(tabId);
  });
  return run;
}

// A page call that stops waiting when the request is cancelled (a page
// behind an open dialog answers no script until the dialog is closed).
function abortable(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function mouse(tabId, type, x, y, signal) {
  const pressed = type === 'mouseMoved' ? {} : { button: 'left', clickCount: 1 };
  return send(tabId, 'Input.dispatchMouseEvent', { type, x, y, ...pressed }, signal);
}

// "Control+Shift+K", "Enter", "a": modifiers held around the key.
async function pressCombo(tabId, combo, signal) {
  const parts = combo.split('+');
  const name = parts.pop() || '+';
  let modifiers = 0;
  for (const part of parts) {
    if (!(part in MODIFIERS)) {
      throw badRequest(`Invalid key ${JSON.stringify(combo)}: unknown modifier ${part} (allowed: ${Object.keys(MODIFIERS).join(', ')})`);
    }
    modifiers |= MODIFIERS[part];
  }
  await key(tabId, name, { modifiers }, signal);
}

async function key(tabId, name, { modifiers = 0, commands = undefined }, signal) {
  let definition;
  if (name in NAMED_KEYS) {
    const [code, keyCode, text] = NAMED_KEYS[name];
    definition = { key: name === 'Space' ? ' ' : name, code, windowsVirtualKeyCode: keyCode, text };
  } else if ([...name].length === 1) {
    const upper = name.toUpperCase();
    const code = /[A-Z]/.test(upper) ? `Key${upper}` : /[0-9]/.test(name) ? `Digit${name}` : '';
    definition = { key: name, code, windowsVirtualKeyCode: upper.charCodeAt(0), text: name };
  } else {
    throw badRequest(`Invalid key ${JSON.stringify(name)} (allowed: one character or ${Object.keys(NAMED_KEYS).join(', ')})`);
  }
  // With Control, Alt or Meta held the key produces no text: it is a shortcut.
  const text = modifiers & (MODIFIERS.Alt | MODIFIERS.Control | MODIFIERS.Meta) ? '' : definition.text;
  await send(tabId, 'Input.dispatchKeyEvent', {
    type: text ? 'keyDown' : 'rawKeyDown', ...definition, text, unmodifiedText: text, modifiers,
    ...(commands ? { commands } : {}),
  }, signal);
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...definition, text: undefined, modifiers }, signal);
}

// What the action changed: DOM mutations until the page is quiet, or the
// new page if it navigated.
async function settle(tabId, documentBefore, signal) {
  const deadline = performance.now() + SETTLE_MAX_MS;
  for (;;) {
    await sleep(POLL_MS, signal);
    let state = null;
    try {
      // null when this document has no library: a new page
      state = await runInPage(tabId, { func: () => globalThis.__tabsight?.changed() ?? null });
    } catch {
      // mid-navigation: the document is being replaced
    }
    if (state === null || state.document !== documentBefore) return { ...(await loadedTab(tabId, signal)), navigated: true };
    if (state.quiet_ms >= QUIET_MS || performance.now() > deadline) {
      return { url: state.url, title: state.title, navigated: false, dom: state.dom };
    }
  }
}


async function loadedTab(tabId, signal) {
  const deadline = performance.now() + NAVIGATION_WAIT_MS;
  let tab = await chrome.tabs.get(tabId);
  while (tab.status === 'loading' && performance.now() < deadline) {
    await sleep(POLL_MS, signal);
    tab = await chrome.tabs.get(tabId);
  }
  return { url: tabUrl(tab), title: tab.title ?? '' };
}

// Polls sleep many times on one request's signal: each sleep takes its
// abort listener away again.
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function waitFor(params, signal) {
  const tabId = tabIdParam(params);
  const selector = optionalStringParam(params, 'selector');
  const text = optionalStringParam(params, 'text');
  const timeoutMs = intParam(params, 'timeout_ms', 0, 120_000, 5000);
  if (!selector === !text) throw badRequest('wait_for needs exactly one of selector or text');
  const started = performance.now();
  for (;;) {
    let state = { present: false };
    try {
      state = await inPage(tabId, 'present', { selector, text });
    } catch (err) {
      if (err.code === Code.RESTRICTED_PAGE) throw err; // anything else: a navigation in progress; look again
    }
    if (state.error) throw new TabsightError(Code.BAD_REQUEST, state.message);
    const waited = Math.round(performance.now() - started);
    if (state.present) return { found: selector ? { selector } : { text }, waited_ms: waited };
    if (waited >= timeoutMs) {
      throw new TabsightError(Code.TIMEOUT, `wait_for timed out after ${timeoutMs} ms: ` +
        (selector ? `no visible element matches ${selector}` : `the text ${JSON.stringify(text)} is not on the page`));
    }
    await sleep(100, signal);
  }
}
