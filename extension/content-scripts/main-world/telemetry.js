// Telemetry from inside the page (main world, document_start): console errors
// and warnings, uncaught exceptions, unhandled rejections: what only the
// page's own world can see. Web Vitals are measured in the isolated world
// (isolated-world/telemetry.js), out of the page's reach.
//
// The reports go to isolated-world/telemetry.js over a private MessagePort,
// never over a DOM event a page could dispatch too. This script runs first (manifest.json
// lists it before the relay, both at document_start, before any script of the
// document); the relay then hands it the port in one synchronous MessageEvent
// on `document`, and the listener that took it is removed at once. Whatever
// this script uses later (addEventListener, the port's postMessage, the event
// getters, Reflect.apply, Error) is taken now, before page code can replace it,
// and called through private references; strict mode keeps its functions out
// of a page's Error.prepareStackTrace and `caller`.
//
// What comes through the port is still the page's word: the relay accepts from
// it only console, exception and rejection reports, and sets their URL itself;
// the host bounds and redacts them, and never reads them as commands.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_telemetry_port__';
  const MAX_TEXT = 2000;
  const MAX_STACK = 4000;

  // ---- private references, taken before any page script runs ----
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const getter = (proto, name) => uncurry(Object.getOwnPropertyDescriptor(proto, name).get);
  const apply = Reflect.apply;
  const listen = uncurry(EventTarget.prototype.addEventListener);
  const unlisten = uncurry(EventTarget.prototype.removeEventListener);
  const stopImmediately = uncurry(Event.prototype.stopImmediatePropagation);
  const portsOf = getter(MessageEvent.prototype, 'ports');
  const post = uncurry(MessagePort.prototype.postMessage);
  const messageOf = getter(ErrorEvent.prototype, 'message');
  const filenameOf = getter(ErrorEvent.prototype, 'filename');
  const linenoOf = getter(ErrorEvent.prototype, 'lineno');
  const colnoOf = getter(ErrorEvent.prototype, 'colno');
  const errorOf = getter(ErrorEvent.prototype, 'error');
  const reasonOf = getter(PromiseRejectionEvent.prototype, 'reason');
  const observeMutations = uncurry(MutationObserver.prototype.observe);
  const Observer = MutationObserver;
  const NativeError = Error;
  const ErrorPrototype = Error.prototype;
  const isPrototypeOf = uncurry(Object.prototype.isPrototypeOf);
  const stringify = JSON.stringify;
  const toString = String;
  const slice = uncurry(String.prototype.slice);
  const indexOf = uncurry(String.prototype.indexOf);
  const theConsole = console;
  const theDocument = document;
  const theWindow = window;

  let port = null;

  // A report is a null-prototype object of strings and numbers: structured
  // cloning reads its own data properties only (no toJSON, no getters).
  function send(report) {
    if (port === null) return;
    try {
      post(port, report);
    } catch {
      // a report must never break the page
    }
  }

  function text(value, max) {
    try {
      return slice(typeof value === 'string' ? value : toString(value), 0, max);
    } catch {
      return '';
    }
  }

  function describe(value) {
    try {
      if (typeof value === 'string') return value;
      if (value !== null && typeof value === 'object' && isPrototypeOf(ErrorPrototype, value)) {
        return `${value.name}: ${value.message}`;
      }
      const json = stringify(value);
      return typeof json === 'string' ? json : toString(value);
    } catch {
      try {
        return toString(value);
      } catch {
        return '[unprintable]';
      }
    }
  }

  function stackOf(value) {
    try {
      return value !== null && typeof value === 'object' ? text(value.stack ?? '', MAX_STACK) : '';
    } catch {
      return '';
    }
  }

  // The caller's frames: the stack without its first line and this script's two frames.
  function callSite() {
    let stack = text(new NativeError().stack ?? '', MAX_STACK + 1000);
    for (let skip = 0; skip < 3; skip++) {
      const end = indexOf(stack, '\n');
      stack = end < 0 ? '' : slice(stack, end + 1);
    }
    return slice(stack, 0, MAX_STACK);
  }

  // ---- the handshake: the relay's port, once ----
  function onHandshake(event) {
    let ports;
    try {
      ports = portsOf(event);
    } catch {
      return;
    }
    if (port !== null || ports.length !== 1) return;
    port = ports[0];
    unlisten(theDocument, HANDSHAKE, onHandshake, true);
    stopImmediately(event);
  }
  listen(theDocument, HANDSHAKE, onHandshake, true);

  // ---- console ----
  function wrapConsole(level) {
    const original = theConsole[level];
    theConsole[level] = function (...args) {
      let joined = '';
      let error = null;
      for (let i = 0; i < args.length && joined.length < MAX_TEXT; i++) {
        const arg = args[i];
        if (error === null && arg !== null && typeof arg === 'object' && isPrototypeOf(ErrorPrototype, arg)) error = arg;
        joined += (i ? ' ' : '') + describe(arg);
      }
      send({
        __proto__: null,
        type: 'console',
        level,
        text: slice(joined, 0, MAX_TEXT),
        stack: error === null ? callSite() : stackOf(error),
      });
      return apply(original, this, args);
    };
  }
  wrapConsole('error');
  wrapConsole('warn');

  // ---- exceptions and rejections: only the browser's own events count ----
  // isTrusted is an unforgeable own property: an ErrorEvent a page makes and
  // dispatches itself is false.
  function onError(event) {
    if (!event.isTrusted) return;
    let report;
    try {
      report = {
        __proto__: null,
        type: 'exception',
        text: text(messageOf(event), MAX_TEXT),
        stack: stackOf(errorOf(event)),
        source: { __proto__: null, url: text(filenameOf(event), 4096), line: linenoOf(event), column: colnoOf(event) },
      };
    } catch {
      return; // not an ErrorEvent: a resource failing to load, which the network report covers
    }
    send(report);
  }

  function onRejection(event) {
    if (!event.isTrusted) return;
    let reason;
    try {
      reason = reasonOf(event);
    } catch {
      return;
    }
    send({ __proto__: null, type: 'rejection', text: text(describe(reason), MAX_TEXT), stack: stackOf(reason) });
  }

  function listenForErrors() {
    // adding the same listener again is a no-op: this is safe to repeat
    listen(theWindow, 'error', onError, true);
    listen(theWindow, 'unhandledrejection', onRejection, true);
  }
  listenForErrors();
  // document.open() erases every listener of the window: the document's
  // children being replaced is the sign to listen again.
  try {
    observeMutations(new Observer(listenForErrors), theDocument, { childList: true });
  } catch {
    // no MutationObserver: a document.open() ends exception reports
  }
})();
