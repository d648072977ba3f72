// Page dialogs, from inside the page (main world, document_start, every
// frame): alert, confirm and prompt are wrapped, so that a dialog is answered
// by the tab's dialog policy without ever blocking the page, or, when the tab
// has none (a tab no agent acts on) or its policy is `report`, is announced
// before the browser shows it: the page cannot answer anything while a
// dialog is up, so afterwards would be too late.
//
// The announcements go to isolated-world/dialogs.js synchronously, as
// events on a node only the two scripts hold: the relay hands it over at
// document_start, before any page script runs, as the relatedTarget of one
// FocusEvent on `document` (nodes are shared between worlds; the node is
// never in the document). Everything used later is taken now, before page
// code can replace it. A page that replaces alert/confirm/prompt itself
// opts out of this, for its own dialogs only.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_dialogs_bridge__';
  const MAX_TEXT = 1000;
  const POLICIES = ['accept', 'dismiss', 'report'];

  // ---- private references, taken before any page script runs ----
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const getter = (proto, name) => uncurry(Object.getOwnPropertyDescriptor(proto, name).get);
  const apply = Reflect.apply;
  const listen = uncurry(EventTarget.prototype.addEventListener);
  const unlisten = uncurry(EventTarget.prototype.removeEventListener);
  const dispatch = uncurry(EventTarget.prototype.dispatchEvent);
  const stopImmediately = uncurry(Event.prototype.stopImmediatePropagation);
  const relatedTargetOf = getter(FocusEvent.prototype, 'relatedTarget');
  const detailOf = getter(CustomEvent.prototype, 'detail');
  const includes = uncurry(Array.prototype.includes);
  const NativeCustomEvent = CustomEvent;
  const stringify = JSON.stringify;
  const toString = String;
  const slice = uncurry(String.prototype.slice);
  const theDocument = document;
  const theWindow = window;

  let bridge = null;
  let policy = null;

  function onHandshake(event) {
    let node;
    try {
      node = relatedTargetOf(event);
    } catch {
      return;
    }
    if (bridge !== null || !node) return;
    bridge = node;
    unlisten(theDocument, HANDSHAKE, onHandshake, true);
    stopImmediately(event);
    listen(bridge, 'policy', onPolicy);
  }
  listen(theDocument, HANDSHAKE, onHandshake, true);

  function onPolicy(event) {
    try {
      const value = detailOf(event);
      policy = includes(POLICIES, value) ? value : null;
    } catch {
      policy = null;
    }
  }

  // Synchronous: the relay passes it on before a native dialog stops this thread.
  function announce(report) {
    if (bridge === null) return;
    try {
      dispatch(bridge, new NativeCustomEvent('dialog', { detail: stringify(report) }));
    } catch {
      // an announcement must never break the page
    }
  }

  function text(value) {
    try {
      return value === undefined ? '' : slice(toString(value), 0, MAX_TEXT);
    } catch {
      return '';
    }
  }

  function wrap(kind) {
    const original = theWindow[kind];
    const replacement = {
      [kind](message, defaultText) {
        // null-prototype objects: JSON.stringify finds no toJSON of the page's on them
        const dialog = {
          __proto__: null, kind, message: text(message), default_prompt: kind === 'prompt' ? text(defaultText) : '',
        };
        if (policy === 'accept' || policy === 'dismiss') {
          const accepted = policy === 'accept';
          dialog.answer = accepted ? 'accepted' : 'dismissed';
          announce(dialog);
          if (kind === 'confirm') return accepted;
          if (kind === 'prompt') return accepted ? dialog.default_prompt : null;
          return undefined;
        }
        dialog.answer = null;
        announce(dialog);
        try {
          return apply(original, theWindow, kind === 'prompt' ? [message, defaultText] : [message]);
        } finally {
          announce({ __proto__: null, kind, closed: true });
        }
      },
    }[kind];
    theWindow[kind] = replacement;
  }
  wrap('alert');
  wrap('confirm');
  wrap('prompt');
})();
