// The page's telemetry, from the extension's isolated world (document_start,
// every frame), to the service worker: in batches of what arrived in one task,
// at most MAX_PER_SECOND reports a second per frame (a page logging in a loop
// cannot flood the browser or the host; what is left out is counted).
//
// Two sources, both out of a page script's reach:
// - main-world/telemetry.js (console, exceptions, rejections) over a
//   private MessagePort. manifest.json runs that script first; this one then
//   hands it port2 of a fresh MessageChannel in one synchronous MessageEvent on
//   `document`, before any page script has run, and keeps port1 to itself. Of
//   the DOM events it listens to, it acts only on trusted ones (isTrusted). Even so, what arrives there
//   is only taken for what a page may say about itself: console, exception or
//   rejection reports of this frame, their fields retyped and capped, the URL
//   set here; never network, vitals, drops or a tab's closing.
// - Web Vitals, measured here: this world's PerformanceObserver and entry
//   getters are not the page's, so a page can neither replace them nor feed
//   them made-up entries.
// - Security violations the browser reports (this world's ReportingObserver)
//   and the user's frustration (trusted clicks, keys and submissions), below.

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
    if (!admitted()) return;
    const report = pageReport(data);
    if (report) enqueue(report);
  }

  // At most MAX_PER_SECOND reports a second, whatever their source; the rest are counted.
  function admitted() {
    const now = performance.now();
    if (now - windowStart >= 1000) {
      reportDropped();
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > MAX_PER_SECOND) {
      if (dropped++ === 0) setTimeout(reportDropped, 1000 - (now - windowStart));
      return false;
    }
    return true;
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

  // ---- security: what the browser itself reports (Reporting API) ----
  // A ReportingObserver made in this world gets the reports Chrome queues for
  // the document (Content-Security-Policy, Permissions-Policy and
  // Subresource-Integrity violations, blocking or report-only). Report objects
  // have no constructor and no page script can queue one: a page dispatching
  // a SecurityPolicyViolationEvent of its own making (isTrusted false) reaches
  // no observer, and it cannot remove this world's observer. A page can still
  // violate its own policy for real, which is what a violation is.
  const SECURITY_TYPES = ['csp-violation', 'permissions-policy-violation', 'integrity-violation'];
  try {
    new ReportingObserver((reports) => {
      for (const report of reports) {
        const security = securityReport(report);
        if (security && admitted()) enqueue(security);
      }
    }, { types: SECURITY_TYPES, buffered: true }).observe();
  } catch {
    // no Reporting API here (an old browser): no security reports
  }

  function securityReport(report) {
    const body = report.body ?? {};
    const field = (name, max = 500) => string(body[name], max);
    const source = field('sourceFile', MAX_URL);
    // tabsight's own scripts (an isolated world has a policy of its own) are not the page's concern
    if (source.toLowerCase().includes(OWN)) return null;
    const line = count(body.lineNumber);
    const out = {
      type: 'security',
      kind: { 'csp-violation': 'csp', 'permissions-policy-violation': 'permissions_policy' }[report.type] ?? 'integrity',
      url: location.href,
      directive: field('effectiveDirective', 100) || field('featureId', 100) || field('destination', 100),
      blocked: field('blockedURL', MAX_URL),
      disposition: field('disposition', 20) || (body.reportOnly === true ? 'report' : 'enforce'),
      text: field('message', MAX_TEXT) || field('sample', 200),
    };
    if (source) out.source = { url: source, line, column: count(body.columnNumber) };
    return out;
  }

  // ---- user frustration: the user's own clicks and submissions that got nowhere ----
  // Only trusted events count (a page's el.click() or dispatched events are
  // isTrusted false), and this world's listeners are the first on `window`
  // (document_start), so a page cannot stop them. tabsight's own input is
  // trusted too (the debugger's Input domain): the service worker drops a
  // report when tabsight gave the tab input during its span.
  const RAGE_CLICKS = 3; // clicks ...
  const RAGE_WINDOW_MS = 1000; // ... each within this of the one before ...
  const RAGE_RADIUS_PX = 30; // ... this close to the first ...
  const RAGE_QUIET_MS = 500; // ... and the document unchanged until this long after the last
  const SUBMITS = 3; // submissions of one form ...
  const SUBMIT_WINDOW_MS = 10_000; // ... within this, the page staying

  let clicks = []; // {x, y, t, target} of the current run
  let changedAt = -Infinity; // the document's last change of content
  let rageTimer = null;
  let inputTask = false; // a trusted click or key is being handled (its submit is the user's)
  const submits = new WeakMap(); // form -> times of its user submissions

  function describeTarget(element) {
    if (!(element instanceof Element)) return '';
    let name = element.localName;
    if (element.id) name += `#${element.id}`;
    else if (typeof element.className === 'string' && element.className.trim()) {
      name += `.${element.className.trim().split(/\s+/).slice(0, 2).join('.')}`;
    }
    // a form by its own name (its text is every field's and button's)
    const own = element instanceof HTMLFormElement ? element.getAttribute('name') : element.innerText || element.value;
    const label = (element.getAttribute('aria-label') || own || '').trim().replace(/\s+/g, ' ');
    return label ? `${name} "${label.slice(0, 60)}"` : name;
  }

  function onUserInput(event) {
    if (!event.isTrusted) return;
    inputTask = true;
    setTimeout(() => { inputTask = false; }, 0);
    if (event.type === 'click') onClick(event);
  }

  function onClick(event) {
    const now = performance.now();
    const last = clicks.at(-1);
    const first = clicks[0];
    if (!last || now - last.t > RAGE_WINDOW_MS || changedAt > first.t
        || Math.hypot(event.clientX - first.x, event.clientY - first.y) > RAGE_RADIUS_PX) {
      clicks = [];
    }
    clicks.push({ x: event.clientX, y: event.clientY, t: now, target: event.target });
    clearTimeout(rageTimer);
    if (clicks.length >= RAGE_CLICKS) rageTimer = setTimeout(checkRage, RAGE_QUIET_MS);
  }

  function checkRage() {
    const run = clicks;
    clicks = [];
    if (run.length < RAGE_CLICKS || changedAt > run[0].t || document.visibilityState !== 'visible') return;
    const span = performance.now() - run[0].t;
    if (admitted()) {
      enqueue({ type: 'frustration', kind: 'rage_click', times: run.length, span_ms: Math.round(span),
        target: describeTarget(run[0].target), url: location.href });
    }
  }

  function onSubmit(event) {
    if (!inputTask || !(event.target instanceof HTMLFormElement)) return;
    const form = event.target;
    const now = performance.now();
    const times = (submits.get(form) ?? []).filter((t) => now - t <= SUBMIT_WINDOW_MS);
    times.push(now);
    submits.set(form, times);
    if (times.length < SUBMITS) return;
    submits.set(form, []);
    if (admitted()) {
      enqueue({ type: 'frustration', kind: 'repeated_submit', times: times.length,
        span_ms: Math.round(now - times[0]), target: describeTarget(form), url: location.href });
    }
  }

  const listenForInput = () => {
    addEventListener('click', onUserInput, true);
    addEventListener('keydown', onUserInput, true);
    addEventListener('submit', onSubmit, true);
  };
  listenForInput();
  new MutationObserver(listenForInput).observe(document, { childList: true });
  // what the user saw change: content, not the attributes a press or hover restyles
  new MutationObserver(() => { changedAt = performance.now(); })
    .observe(document, { childList: true, characterData: true, subtree: true });
  addEventListener('scroll', (event) => { if (event.isTrusted) changedAt = performance.now(); }, { capture: true, passive: true });

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
