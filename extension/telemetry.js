// Telemetry for every tab, sent to the host as `telemetry` events: what the
// pages report (telemetry-relay.js) and, from chrome.webRequest, requests
// that failed or were answered 4xx/5xx (method, URL, status, type, timing;
// no headers, no bodies). The host keeps it in bounded buffers whether or
// not an MCP client is connected.

import { sendEvent } from './native.js';

const MAX_TRACKED_REQUESTS = 5000;
// A request cancelled by a navigation or by the page is not a failure.
const NOT_A_FAILURE = new Set(['net::ERR_ABORTED']);

// requestId -> start time, for the duration of the ones reported
const started = new Map();

export function startTelemetry() {
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== chrome.runtime.id || !sender.tab || message?.kind !== 'telemetry') return;
    if (!Array.isArray(message.events) || message.events.length === 0) return;
    sendEvent('telemetry', { tab_id: sender.tab.id, frame_id: sender.frameId, events: message.events.slice(0, 200) });
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
    sendEvent('telemetry', { tab_id: tabId, events: [{ type: 'tab_closed' }] });
  });
}

function ownRequest(details) {
  return details.initiator?.startsWith('chrome-extension://') ?? false;
}

function report(details, outcome, start) {
  sendEvent('telemetry', {
    tab_id: details.tabId,
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
