// What only the page's own world knows of its elements, for discovery (main
// world, document_start, every frame):
// - the role and ARIA defaults a custom element gives itself through
//   ElementInternals (attachInternals().role = 'radio'): Chrome's
//   accessibility tree uses them, the DOM shows nothing of them;
// - which elements have a click listener of their own (click, mousedown,
//   mouseup, pointerdown, pointerup, or an onclick property): the elements a
//   user clicks that carry no role (a framework's div tab, a pagination item).
//   That is what DevTools' getEventListeners lists; a listener on a document
//   or a window (event delegation) is no element's.
//
// Everything used later is taken now, before page code can replace it.
// isolated-world/semantics.js hands over a private node at
// document_start, the relatedTarget of one FocusEvent (the node is never in
// the document); it asks on that node, with a fresh event type each time, and
// this script answers at once with one event of that type on each element it
// knows, carrying what it knows as JSON. A page never sees the question, and
// cannot guess the type to listen for; what it can do, call attachInternals
// and addEventListener as it likes, is what it could say with role and
// onclick attributes anyway.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_semantics_bridge__';
  const CLICK_TYPES = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup'];
  // ARIA defaults an ElementInternals may carry, by the name the answer gives them.
  const DEFAULTS = [['role', 'role'], ['ariaLabel', 'label'], ['ariaChecked', 'checked'], ['ariaSelected', 'selected'],
    ['ariaPressed', 'pressed'], ['ariaExpanded', 'expanded'], ['ariaDisabled', 'disabled'], ['ariaHidden', 'hidden'],
    ['ariaValueNow', 'valuenow'], ['ariaValueText', 'valuetext']];
  // The most elements one answer describes: a page adding listeners to a
  // million nodes slows nothing down but its own answer, and not past this.
  const MAX_ANSWERED = 20_000;

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
  const isConnected = getter(Node.prototype, 'isConnected');
  const isElement = (value) => value instanceof Element;
  const NativeCustomEvent = CustomEvent;
  const NativeWeakRef = WeakRef;
  const deref = uncurry(WeakRef.prototype.deref);
  const weakHas = uncurry(WeakSet.prototype.has);
  const weakAdd = uncurry(WeakSet.prototype.add);
  const mapGet = uncurry(WeakMap.prototype.get);
  const mapSet = uncurry(WeakMap.prototype.set);
  const push = uncurry(Array.prototype.push);
  const includes = uncurry(Array.prototype.includes);
  const stringify = JSON.stringify;
  const toString = String;
  const theDocument = document;

  // every element known to this script, once, in the order it became known
  const known = [];
  const knownSet = new WeakSet();
  const internalsOf = new WeakMap(); // element -> its ElementInternals
  const listenersOf = new WeakMap(); // element -> [{type, listener, capture}] of CLICK_TYPES
  const handlerProperties = new WeakMap(); // element -> {onclick: fn, ...} set as properties

  // (the list is pruned of collected elements whenever it has doubled since the last pruning: a page that
  // makes and drops nodes all the time does not grow it)
  let pruneAt = 1024;
  function remember(element) {
    if (weakHas(knownSet, element)) return;
    weakAdd(knownSet, element);
    push(known, new NativeWeakRef(element));
    if (known.length < pruneAt) return;
    let kept = 0;
    for (let i = 0; i < known.length; i++) if (deref(known[i])) known[kept++] = known[i];
    known.length = kept;
    pruneAt = Math.max(1024, kept * 2);
  }

  // ---- ElementInternals ----
  const attachInternals = HTMLElement.prototype.attachInternals;
  if (attachInternals) {
    HTMLElement.prototype.attachInternals = function attachInternals_(...args) {
      const internals = apply(attachInternals, this, args);
      try {
        mapSet(internalsOf, this, internals);
        remember(this);
      } catch {
        // bookkeeping must never break the page
      }
      return internals;
    };
  }

  // ---- click listeners ----
  const captureOf = (options) => (typeof options === 'boolean' ? options : !!(options && options.capture));
  const addEventListener = EventTarget.prototype.addEventListener;
  const removeEventListener = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function addEventListener_(type, listener, options) {
    try {
      if (listener && isElement(this) && includes(CLICK_TYPES, type)) {
        const capture = captureOf(options);
        let list = mapGet(listenersOf, this);
        if (!list) mapSet(listenersOf, this, list = []);
        if (!list.some((entry) => entry.type === type && entry.listener === listener && entry.capture === capture)) {
          push(list, { type, listener, capture });
        }
        remember(this);
      }
    } catch {
      // bookkeeping must never break the page
    }
    return apply(addEventListener, this, arguments);
  };
  EventTarget.prototype.removeEventListener = function removeEventListener_(type, listener, options) {
    try {
      const list = isElement(this) ? mapGet(listenersOf, this) : null;
      if (list) {
        const capture = captureOf(options);
        const at = list.findIndex((entry) => entry.type === type && entry.listener === listener && entry.capture === capture);
        if (at >= 0) list.splice(at, 1);
      }
    } catch {
      // bookkeeping must never break the page
    }
    return apply(removeEventListener, this, arguments);
  };
  // onclick = fn (React sets one on every element it gives an onClick)
  for (const proto of [HTMLElement.prototype, SVGElement.prototype]) {
    for (const type of CLICK_TYPES) {
      const property = `on${type}`;
      const descriptor = Object.getOwnPropertyDescriptor(proto, property);
      if (!descriptor?.set) continue;
      const set = descriptor.set;
      Object.defineProperty(proto, property, {
        ...descriptor,
        set(value) {
          try {
            let handlers = mapGet(handlerProperties, this);
            if (!handlers) mapSet(handlerProperties, this, handlers = { __proto__: null });
            handlers[property] = typeof value === 'function';
            remember(this);
          } catch {
            // bookkeeping must never break the page
          }
          apply(set, this, [value]);
        },
      });
    }
  }

  function clickable(element) {
    const list = mapGet(listenersOf, element);
    if (list && list.length) return true;
    const handlers = mapGet(handlerProperties, element);
    if (handlers) for (const type of CLICK_TYPES) if (handlers[`on${type}`]) return true;
    return false;
  }

  function defaultsOf(element) {
    const internals = mapGet(internalsOf, element);
    if (!internals) return null;
    const found = { __proto__: null };
    let any = false;
    for (const [property, name] of DEFAULTS) {
      const value = internals[property];
      if (value !== null && value !== undefined && value !== '') {
        found[name] = toString(value);
        any = true;
      }
    }
    return any ? found : null;
  }

  // ---- the answer: one event of the asked type on each live element known ----
  function answer(type) {
    let answered = 0;
    for (let i = 0; i < known.length && answered < MAX_ANSWERED; i++) {
      const element = deref(known[i]);
      if (!element) continue;
      try {
        if (!isConnected(element)) continue;
        const semantics = defaultsOf(element) ?? { __proto__: null };
        if (clickable(element)) semantics.click = true;
        if (semantics.role === undefined && semantics.click === undefined && semantics.label === undefined) continue;
        answered++;
        dispatch(element, new NativeCustomEvent(type, { detail: stringify(semantics), composed: true }));
      } catch {
        // one element's trouble leaves the others answered
      }
    }
  }

  let bridge = null;
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
    listen(bridge, 'ask', (ask) => {
      let type;
      try {
        type = detailOf(ask);
      } catch {
        return;
      }
      if (typeof type === 'string' && type.startsWith('tabsight-')) answer(type);
    });
  }
  listen(theDocument, HANDSHAKE, onHandshake, true);
})();
