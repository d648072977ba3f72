// Relays the page's telemetry (telemetry-page.js, main world) to the
// service worker, in batches of what arrived in one task, at most
// MAX_PER_SECOND reports a second per frame: a page logging in a loop
// cannot flood the browser or the host; what is left out is counted.

(() => {
  const EVENT = '__tabsight_telemetry__';
  const MAX_REPORT_CHARS = 20_000;
  const MAX_PER_SECOND = 100;

  let queue = [];
  let flushScheduled = false;
  let windowStart = 0;
  let inWindow = 0;
  let dropped = 0;

  document.addEventListener(EVENT, (event) => {
    if (typeof event.detail !== 'string' || event.detail.length > MAX_REPORT_CHARS) return;
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
    let report;
    try {
      report = JSON.parse(event.detail);
    } catch {
      return;
    }
    enqueue(report);
  }, true);

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
