// The isolated world's side of main-world/semantics.js (document_start, every
// frame): hands it a private node, and gives the page-side library one call,
// globalThis.__tabsightSemantics(): a Map from each element main-world/semantics.js
// knows to what it knows of it ({role, label, checked, ..., click}), read at
// that moment. The question goes over the private node, with an event type
// made afresh for it; the answers are events of that type on the elements
// themselves, composed, heard here on the document (composedPath()[0] is the
// element itself, inside an open shadow root too).
//
// A document this script did not run in (one loaded before the extension
// was) answers an empty Map: discovery then goes by the DOM alone.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_semantics_bridge__';
  const KEYS = ['role', 'label', 'checked', 'selected', 'pressed', 'expanded', 'disabled', 'hidden', 'valuenow', 'valuetext'];
  const MAX_VALUE = 200;

  const bridge = document.createElement('tabsight-semantics');
  document.dispatchEvent(new FocusEvent(HANDSHAKE, { relatedTarget: bridge }));

  globalThis.__tabsightSemantics = () => {
    const found = new Map();
    const type = `tabsight-${crypto.randomUUID()}`;
    const heard = (event) => {
      const element = event.composedPath()[0];
      if (!(element instanceof Element) || found.has(element)) return;
      let said;
      try {
        said = JSON.parse(event.detail);
      } catch {
        return;
      }
      if (said === null || typeof said !== 'object') return;
      const semantics = {};
      for (const key of KEYS) if (typeof said[key] === 'string') semantics[key] = said[key].slice(0, MAX_VALUE);
      if (said.click === true) semantics.click = true;
      found.set(element, semantics);
    };
    document.addEventListener(type, heard, true);
    try {
      bridge.dispatchEvent(new CustomEvent('ask', { detail: type }));
    } finally {
      document.removeEventListener(type, heard, true);
    }
    return found;
  };
})();
