// The page's telemetry, from the extension's isolated world (document_start,
// every frame), to the service worker: in batches of what arrived in one task,
// at most MAX_PER_SECOND reports a second per frame (a page logging in a loop
// cannot flood the browser or the host; what is left out is counted).
//
// Two sources, both out of a page script's reach:
// - telemetry-page.js (main world: console, exceptions, rejections) over a
//   private MessagePort. manifest.json runs that script first; this one then
//   hands it port2 of a fresh MessageChannel in one synchronous MessageEvent on
//   `document`, before any page script has run, and keeps port1 to itself. It
//   listens to no DOM event a page could dispatch. Even so, what arrives there
//   is only taken for what a page may say about itself: console, exception or
//   rejection reports of this frame, their fields retyped and capped, the URL
//   set here; never network, vitals, drops or a tab's closing.
// - Web Vitals, measured here: this world's PerformanceObserver and entry
//   getters are not the page's, so a page can neither replace them nor feed
//   them made-up entries.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_telemetry_port__';
  const MAX_TEXT = 2000;
  const MAX_STACK = 4000;
  const MAX_URL = 4096;
  const MAX_PER_SECOND = 100;
  const VITALS_DEBOUNCE_MS = 300;
  // tabsight's page script lets no error of its own out into the page: a
  // report naming this extension (a forged source, a stack frame made up with
  // `//# sourceURL=`) does not come from tabsight
  const OWN = `chrome-extension://${chrome.runtime.id}`.toLowerCase();

  let queue = [];
  let flushScheduled = false;
  let windowStart = 0;
  let inWindow = 0;
  let dropped = 0;

  // ---- the main world's reports ----

  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => fromPage(event.data);
  document.dispatchEvent(new MessageEvent(HANDSHAKE, { ports: [channel.port2] }));

  function fromPage(data) {
    const now = performance.now();
    if (now - windowStart >= 1000) {
      reportDropped();
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > MAX_PER_SECOND) {
      if (dropped++ === 0) setTimeout(reportDropped, 1000 - (now - windowStart));
      return;
    }
    const report = pageReport(data);
    if (report) enqueue(report);
  }

  function pageReport(data) {
    if (data === null || typeof data !== 'object') return null;
    const { type } = data;
    if (type !== 'console' && type !== 'exception' && type !== 'rejection') return null;
    const report = {
      type,
      level: type === 'console' && data.level === 'warn' ? 'warn' : 'error',
      text: string(data.text, MAX_TEXT),
      stack: withoutOwnFrames(string(data.stack, MAX_STACK)),
      url: location.href,
    };
    if (type === 'exception' && data.source !== null && typeof data.source === 'object') {
      const url = string(data.source.url, MAX_URL);
      if (url.toLowerCase().includes(OWN)) return null;
      report.source = { url, line: count(data.source.line), column: count(data.source.column) };
    }
    return report;
  }

  function string(value, max) {
    return typeof value === 'string' ? value.slice(0, max) : '';
  }

  function count(value) {
    return Number.isSafeInteger(value) && value >= 0 ? value : null;
  }

  function withoutOwnFrames(stack) {
    if (!stack.toLowerCase().includes(OWN)) return stack;
    return stack.split('\n').filter((line) => !line.toLowerCase().includes(OWN)).join('\n');
  }

  // ---- Web Vitals of this page load (web-vitals' definitions, simplified) ----

  const navigation = `${performance.timeOrigin}`;
  const values = {};
  let reportTimer = null;
  const reportVitals = () => {
    clearTimeout(reportTimer);
    reportTimer = null;
    if (Object.keys(values).length) enqueue({ type: 'vitals', navigation, values: { ...values }, url: location.href });
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

  // The last values go as the page is hidden or left. A page dispatching these
  // events itself (isTrusted false) changes nothing.
  const onLeaving = (event) => {
    if (event.isTrusted && (event.type === 'pagehide' || document.visibilityState === 'hidden')) reportVitals();
  };
  const listenForLeaving = () => {
    addEventListener('visibilitychange', onLeaving, true);
    addEventListener('pagehide', onLeaving, true);
  };
  listenForLeaving();
  // document.open() erases the window's listeners, this world's too: listen again
  new MutationObserver(listenForLeaving).observe(document, { childList: true });

  // ---- to the service worker ----

  function reportDropped() {
    if (!dropped) return;
    enqueue({ type: 'dropped', count: dropped, url: location.href });
    dropped = 0;
  }

  function enqueue(report) {
    queue.push(report);
    if (!flushScheduled) {
      flushScheduled = true;
      setTimeout(flush, 0);
    }
  }

  function flush() {
    flushScheduled = false;
    const events = queue;
    queue = [];
    chrome.runtime.sendMessage({ kind: 'telemetry', events }).catch(() => {
      // the extension was reloaded: this page's reports have nowhere to go
    });
  }
})();
