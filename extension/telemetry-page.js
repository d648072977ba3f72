// Telemetry from inside the page (main world, before any page script):
// console errors and warnings, uncaught exceptions, unhandled rejections,
// and Web Vitals. Each report goes to telemetry-relay.js (the extension's
// isolated world) as a JSON string in a DOM event. Everything the page
// could later replace (console, JSON, the DOM event API) is taken now.
//
// What a page reports about itself is untrusted: the host bounds and
// redacts it, and it is never read as a command.

(() => {
  const EVENT = '__tabsight_telemetry__';
  const MAX_TEXT = 2000;
  const VITALS_DEBOUNCE_MS = 300;
  const stringify = JSON.stringify;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const TelemetryEvent = CustomEvent;
  const now = () => Date.now();

  function send(report) {
    try {
      dispatch.call(document, new TelemetryEvent(EVENT, { detail: stringify({ ...report, url: location.href, time: now() }) }));
    } catch {
      // a report must never break the page
    }
  }

  function describe(value) {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'string') return value;
    try {
      return stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  }

  // The caller's frame: the stack without this wrapper's own line.
  function callSite() {
    const lines = (new Error().stack ?? '').split('\n').slice(3);
    return lines.join('\n');
  }

  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = function (...args) {
      const error = args.find((arg) => arg instanceof Error);
      send({
        type: 'console',
        level,
        text: args.map(describe).join(' ').slice(0, MAX_TEXT),
        stack: error?.stack ?? callSite(),
      });
      return original.apply(this, args);
    };
  }

  addEventListener('error', (event) => {
    if (!(event instanceof ErrorEvent)) return; // a resource failing to load: the network report covers it
    send({
      type: 'exception',
      text: event.message,
      stack: event.error?.stack ?? '',
      source: { url: event.filename, line: event.lineno, column: event.colno },
    });
  }, true);

  addEventListener('unhandledrejection', (event) => {
    send({ type: 'rejection', text: describe(event.reason).slice(0, MAX_TEXT), stack: event.reason?.stack ?? '' });
  });

  // ---- Web Vitals of this page load (web-vitals' definitions, simplified) ----

  const navigation = `${performance.timeOrigin}`;
  const values = {};
  let reportTimer = null;
  const reportVitals = () => {
    clearTimeout(reportTimer);
    reportTimer = null;
    if (Object.keys(values).length) send({ type: 'vitals', navigation, values: { ...values } });
  };
  const changed = () => {
    if (!reportTimer) reportTimer = setTimeout(reportVitals, VITALS_DEBOUNCE_MS);
  };
  const observe = (type, onEntries, options = {}) => {
    try {
      new PerformanceObserver((list) => {
        onEntries(list.getEntries());
        changed();
      }).observe({ type, buffered: true, ...options });
    } catch {
      // an entry type this browser does not have
    }
  };

  observe('navigation', (entries) => {
    for (const entry of entries) if (entry.responseStart > 0) values.ttfb = entry.responseStart;
  });
  observe('paint', (entries) => {
    for (const entry of entries) if (entry.name === 'first-contentful-paint') values.fcp = entry.startTime;
  });
  observe('largest-contentful-paint', (entries) => {
    const last = entries.at(-1);
    if (last) values.lcp = last.renderTime || last.loadTime || last.startTime;
  });
  // CLS: the largest session window (shifts less than 1 s apart, 5 s at most).
  let session = { value: 0, first: 0, last: 0 };
  observe('layout-shift', (entries) => {
    for (const entry of entries) {
      if (entry.hadRecentInput) continue;
      if (entry.startTime - session.last > 1000 || entry.startTime - session.first > 5000) {
        session = { value: 0, first: entry.startTime, last: entry.startTime };
      }
      session.value += entry.value;
      session.last = entry.startTime;
      values.cls = Math.max(values.cls ?? 0, session.value);
    }
  });
  // INP: the slowest interaction (the 98th percentile only differs past 50 of them).
  observe('event', (entries) => {
    for (const entry of entries) {
      if (entry.interactionId) values.inp = Math.max(values.inp ?? 0, entry.duration);
    }
  }, { durationThreshold: 16 });

  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') reportVitals();
  }, true);
  addEventListener('pagehide', reportVitals, true);
})();
