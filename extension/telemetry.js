// Telemetry for every tab, sent to the host as `telemetry` events: what the
// pages report (telemetry-relay.js) and, from chrome.webRequest, requests
// that failed or were answered 4xx/5xx (method, URL, status, type, timing;
// no headers, no bodies). The host keeps it in bounded buffers whether or
// not an MCP client is connected.
//
// Each event says where it comes from, `origin`: "page" for what a frame's
// content scripts report (console, exceptions, rejections, Web Vitals, the
// relay's drop counts: only these types pass), "browser" for what only this
// worker sees (failed and 4xx/5xx requests from chrome.webRequest, a tab's
// closing from chrome.tabs.onRemoved). A page cannot make the second kind:
// the host too accepts network reports and a tab's closing only from it.

import { sendEvent } from './native.js';

const MAX_TRACKED_REQUESTS = 5000;
// A request cancelled by a navigation or by the page is not a failure.
const NOT_A_FAILURE = new Set(['net::ERR_ABORTED']);
// What a frame may report about itself.
const PAGE_REPORTS = new Set(['console', 'exception', 'rejection', 'vitals', 'dropped']);

// requestId -> start time, for the duration of the ones reported
const started = new Map();

export function startTelemetry() {
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== chrome.runtime.id || !sender.tab || message?.kind !== 'telemetry') return;
    if (!Array.isArray(message.events)) return;
    const events = message.events.slice(0, 200).filter((report) => PAGE_REPORTS.has(report?.type));
    if (events.length === 0) return;
    sendEvent('telemetry', { tab_id: sender.tab.id, frame_id: sender.frameId, origin: 'page', events });
  });

  const pages = { urls: ['<all_urls>'] };
  chrome.webRequest.onBeforeRequest.addListener(({ requestId, tabId, timeStamp }) => {
    if (tabId < 0) return;
    if (started.size >= MAX_TRACKED_REQUESTS) started.delete(started.keys().next().value);
    started.set(requestId, timeStamp);
  }, pages);
  chrome.webRequest.onCompleted.addListener((details) => {
    const start = started.get(details.requestId);
    started.delete(details.requestId);
    if (details.tabId < 0 || details.statusCode < 400 || ownRequest(details)) return;
    report(details, { status: details.statusCode }, start);
  }, pages);
  chrome.webRequest.onErrorOccurred.addListener((details) => {
    const start = started.get(details.requestId);
    started.delete(details.requestId);
    if (details.tabId < 0 || NOT_A_FAILURE.has(details.error) || ownRequest(details)) return;
    report(details, { error: details.error }, start);
  }, pages);

  chrome.tabs.onRemoved.addListener((tabId) => {
    sendEvent('telemetry', { tab_id: tabId, origin: 'browser', events: [{ type: 'tab_closed' }] });
  });
}

function ownRequest(details) {
  return details.initiator?.startsWith('chrome-extension://') ?? false;
}

function report(details, outcome, start) {
  sendEvent('telemetry', {
    tab_id: details.tabId,
    origin: 'browser',
    events: [{
      type: 'network',
      method: details.method,
      url: details.url,
      resource_type: details.type,
      duration_ms: start === undefined ? null : details.timeStamp - start,
      ...outcome,
    }],
  });
}
