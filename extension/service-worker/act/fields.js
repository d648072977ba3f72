// The actions on fields and keys: type, select, set and press.
//
// type and select take effect or fail: each control is edited by a means
// that works for it (page-library/input.js) and read back afterwards; the answer
// carries the value it holds now, or the call fails saying it did not change.

import { send, withDebugger } from '../cdp.js';
import { Code, TabsightError, badRequest } from '../errors.js';
import { inPage } from '../page-library-calls.js';
import { optionalStringParam } from '../params.js';
import { IS_MAC, MODIFIERS, key, pressCombo } from './input-events.js';
import { pointerAction } from './pointer.js';
import { locateTarget, targetName } from './targets.js';
import { POLL_MS, abortable, exclusive, sleep } from './waits.js';

// This family's rows of act.js's table (see POINTER_ACTIONS in pointer.js).
export const FIELD_ACTIONS = {
  type: { handler: typeAction },
  select: { handler: selectAction },
  set: { handler: setAction },
  press: { handler: pressAction },
};

// How long typing or selecting may take to show in the page (an editor
// renders a frame later), and a combobox's list to open.
const RESULT_WAIT_MS = 1000;
const OPEN_WAIT_MS = 1500;
// A typed control that changed, but not into the text, and stayed so this long: the page reformatted it.
const STEADY_MS = 300;

async function typeAction(tabId, { selector }, params, signal) {
  const text = typeof params.text === 'string' ? params.text : null;
  if (text === null) throw badRequest('type needs text, a string');
  return exclusive(tabId, () => typeText(tabId, selector, text, params, signal));
}

async function selectAction(tabId, { selector }, params, signal) {
  if (!selector) throw badRequest('select needs a target: label or selector of a <select>, a listbox or a combobox');
  const value = optionalStringParam(params, 'value');
  if (value === null) throw badRequest('select needs value: an option\'s value or its visible text');
  return exclusive(tabId, () => selectOption(tabId, selector, value, signal));
}

async function setAction(tabId, { selector }, params, signal) {
  if (!selector) throw badRequest('set needs a target: label or selector of a form control');
  const { value } = params;
  if (typeof value !== 'string' && typeof value !== 'boolean') {
    throw badRequest(`Invalid value: ${JSON.stringify(value)} (allowed: a string, or true or false)`);
  }
  return exclusive(tabId, () => setControl(tabId, selector, value, signal));
}

async function pressAction(tabId, { selector }, params, signal) {
  const combo = optionalStringParam(params, 'key');
  if (!combo) throw badRequest('press needs key, e.g. "Enter", "Escape", "Control+A"');
  const { target } = selector ? await locateTarget(tabId, selector, null, { focusOnly: true }) : { target: null };
  await withDebugger(tabId, () => pressCombo(tabId, combo, signal));
  return { did: `pressed ${combo}`, target };
}

// type: into what the target edits (or the focused element), by the means
// that works for it (page-library/input.js): a value-taking input (date, color,
// range, number...) is set in the page; text fields, contenteditable and
// code editors get trusted keyboard input here. Then it is read back: the
// answer carries what the control holds now, or the call fails saying the
// control did not change. Enter (submit) comes after the check.
async function typeText(tabId, selector, text, params, signal) {
  const clear = params.clear === true;
  const plan = await abortable(inPage(tabId, 'beginTyping', selector ?? null, text, clear), signal);
  if (plan.error) throw new TabsightError(plan.error, plan.message);
  let outcome = plan; // 'set': done in the page
  if (plan.via !== 'set' || params.submit) {
    await withDebugger(tabId, async () => {
      if (plan.via !== 'set') {
        // an editor's caret stays where it was: to its end, to append as after a click past the text
        if (plan.toEnd) await pressCombo(tabId, IS_MAC ? 'Meta+ArrowDown' : 'Control+End', signal);
        if (clear) {
          await key(tabId, 'a', { modifiers: MODIFIERS[IS_MAC ? 'Meta' : 'Control'], commands: ['selectAll'] }, signal);
          await key(tabId, 'Backspace', {}, signal);
        }
        if (text) await send(tabId, 'Input.insertText', { text }, signal);
        if (plan.via === 'keys' && (text || clear)) outcome = await typingOutcome(tabId, selector, plan, signal);
      }
      if (params.submit) await key(tabId, 'Enter', {}, signal);
    });
  }
  const what = typedWhat(plan, text, clear);
  return {
    did: params.submit ? `${what}, then Enter` : what,
    target: plan.target,
    ...(outcome.value !== undefined ? { value: outcome.value } : {}),
  };
}

function typedWhat(plan, text, clear) {
  const count = `${[...text].length} characters`;
  if (plan.via === 'set') return 'set its value (input and change events)';
  if (plan.via === 'blind') return `sent ${count} into a cross-origin frame (what it holds cannot be read from this page)`;
  if (!text) return clear ? 'cleared it' : 'nothing to type (text is empty)';
  return `typed ${count}${plan.editor ? ` into the ${plan.editor} editor` : ''}${clear ? ' after clearing' : ''}`;
}

// What the control holds after typing: read until it shows the text (an
// editor draws it a frame or two later); a control that changed otherwise
// and keeps that (a page that reformats what is typed) is reported as it
// is; one that did not change fails.
async function typingOutcome(tabId, selector, plan, signal) {
  const deadline = performance.now() + RESULT_WAIT_MS;
  for (;;) {
    const result = await abortable(inPage(tabId, 'typingResult'), signal);
    if (result.error) throw new TabsightError(result.error, result.message);
    if (result.reached || (result.changed && result.steady_ms >= STEADY_MS)) return result;
    if (performance.now() > deadline) {
      if (result.changed) return result;
      const named = `${selector ? targetName(selector) : 'The focused element'} (<${plan.target.tag}>` +
        `${plan.target.name ? ` ${JSON.stringify(plan.target.name)}` : ''})`;
      const still = result.value !== undefined ? `: it still holds ${JSON.stringify(result.value)}` : '';
      throw badRequest(`${named} did not take the text${still}; the page refused or undid it`);
    }
    await sleep(POLL_MS, signal);
  }
}

// select: a native <select> is set in the page; an ARIA combobox or listbox
// is operated as a user does, with trusted clicks: the combobox opened (and
// ArrowDown pressed if a click does not open it), the option clicked, and
// then checked: the page must show it selected.
async function selectOption(tabId, selector, value, signal) {
  const plan = await abortable(inPage(tabId, 'beginSelect', selector, value), signal);
  if (plan.error) throw new TabsightError(plan.error, plan.message);
  if (plan.done) return plan.done;
  if (plan.open) await pointerAction(tabId, 'click', plan.open, null, null, null, signal);
  const found = await optionShown(tabId, selector, signal);
  if (found.done) return found.done;
  await pointerAction(tabId, 'click', found.option, null, null, null, signal);
  const deadline = performance.now() + RESULT_WAIT_MS;
  for (;;) {
    const result = await abortable(inPage(tabId, 'selectResult'), signal);
    if (result.error) throw new TabsightError(result.error, result.message);
    if (result.done) {
      return { did: result.did, target: result.target, ...(result.value !== undefined ? { value: result.value } : {}),
        ...(result.text !== undefined ? { text: result.text } : {}) };
    }
    if (performance.now() > deadline) {
      throw badRequest(`Clicked option ${JSON.stringify(found.name)} of ${targetName(selector)}, ` +
        `but the page does not show it selected (${result.shows})`);
    }
    await sleep(POLL_MS, signal);
  }
}

// set (a field of `fill`): the control is set by the means that works for it
// (page-library/input.js controlKind): an option selected, a checkbox, radio button
// or switch clicked if it is not in the state wanted (and read back), any
// other field typed into, cleared first. The answer's value is what it holds.
async function setControl(tabId, selector, value, signal) {
  const control = await abortable(inPage(tabId, 'controlKind', selector), signal);
  if (control.error) throw new TabsightError(control.error, control.message);
  if (control.kind === 'select') return selectOption(tabId, selector, String(value), signal);
  if (control.kind === 'field') {
    return typeText(tabId, selector, typeof value === 'string' ? value : String(value), { clear: true }, signal);
  }
  const named = `${targetName(selector)} (<${control.target.tag}>${control.target.name ? ` ${JSON.stringify(control.target.name)}` : ''})`;
  if (typeof value !== 'boolean') {
    throw badRequest(`${named} is a ${control.radio ? 'radio button' : 'checkbox'}: its value is true or false, ` +
      `not ${JSON.stringify(value)}`);
  }
  if (control.checked === value) return { did: `${value ? 'checked' : 'unchecked'} already`, target: control.target, value };
  if (control.radio && !value) {
    throw badRequest(`${named} is a radio button: it is unchecked by checking another of its group`);
  }
  await pointerAction(tabId, 'click', selector, null, null, null, signal);
  // read back twice, POLL_MS apart: a page that undoes the click does so in a handler of its own, a moment later
  const deadline = performance.now() + RESULT_WAIT_MS;
  let held = 0;
  for (;;) {
    const now = await abortable(inPage(tabId, 'controlKind', selector), signal);
    if (now.error) throw new TabsightError(now.error, now.message);
    held = now.checked === value ? held + 1 : 0;
    if (held === 2) return { did: value ? 'checked' : 'unchecked', target: now.target, value };
    if (performance.now() > deadline) {
      throw badRequest(`Clicked ${named}, but it is ${now.checked ? 'checked' : 'unchecked'} again: the page refused or undid it`);
    }
    await sleep(POLL_MS, signal);
  }
}

// The option to click, once the listbox is shown: a combobox whose list a
// click did not open gets ArrowDown (what opens it by keyboard) halfway.
async function optionShown(tabId, selector, signal) {
  const started = performance.now();
  let pressed = false;
  for (;;) {
    const found = await abortable(inPage(tabId, 'findOption'), signal);
    if (found.error) throw new TabsightError(found.error, found.message);
    if (!found.waiting) return found;
    const waited = performance.now() - started;
    if (!pressed && found.focused && waited > OPEN_WAIT_MS / 2) {
      await withDebugger(tabId, () => key(tabId, 'ArrowDown', {}, signal));
      pressed = true;
    }
    if (waited > OPEN_WAIT_MS) {
      throw new TabsightError(Code.ELEMENT_NOT_VISIBLE, `The list of ${targetName(selector)} did not open ` +
        `(clicked it${pressed ? ', then pressed ArrowDown' : ''}); open it yourself, then select again`);
    }
    await sleep(POLL_MS, signal);
  }
}
