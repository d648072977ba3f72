// Mouse and keyboard input through the debugger (Input.dispatchMouseEvent,
// Input.dispatchKeyEvent): what the page gets as a user's trusted events.

import { send } from '../cdp.js';
import { badRequest } from '../errors.js';

// Select-all and the end of a document are Meta+ on macOS, Control+ elsewhere.
export const IS_MAC = /Mac/i.test(navigator.userAgentData?.platform ?? navigator.platform ?? '');

// Modifier bits of Input.dispatchKeyEvent.
export const MODIFIERS = { Alt: 1, Control: 2, Ctrl: 2, Meta: 4, Command: 4, Shift: 8 };
// key -> [code, windowsVirtualKeyCode, text]
const NAMED_KEYS = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9, ''], Escape: ['Escape', 27, ''], Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''], Space: ['Space', 32, ' '], ArrowUp: ['ArrowUp', 38, ''], ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''], ArrowRight: ['ArrowRight', 39, ''], Home: ['Home', 36, ''], End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''], PageDown: ['PageDown', 34, ''],
};

// A plain left click, as `mouse` takes a press (pointer.js pressParam reads any other from a request).
export const LEFT_CLICK = { button: 'left', clickCount: 1, held: [], modifiers: 0 };

// A move carries the held keys too (a page reads them on hover), and a
// drag's the button held (buttons: pages that follow a dragging pointer
// check it); a press or release names its button and how many clicks it makes.
export function mouse(tabId, type, x, y, signal, { button, clickCount, modifiers, buttons }) {
  const pressed = type === 'mouseMoved' ? (buttons ? { button, buttons } : {}) : { button, clickCount };
  return send(tabId, 'Input.dispatchMouseEvent', { type, x, y, modifiers, ...pressed }, signal);
}

// "Control+Shift+K", "Enter", "a": modifiers held around the key.
export async function pressCombo(tabId, combo, signal) {
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

export async function key(tabId, name, { modifiers = 0, commands = undefined }, signal) {
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
