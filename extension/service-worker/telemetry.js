// Telemetry for every tab, sent to the host as `telemetry` events: what the
// pages report (isolated-world/telemetry.js) and, from chrome.webRequest, every
// request (network.js: method, URL, status or error, type, timing, size; no
// headers, no bodies). The host keeps it in bounded buffers whether or not
// an MCP client is connected.
//
// Each event says where it comes from, `origin`: "page" for what a frame's
// content scripts report (console, exceptions, rejections, Web Vitals, the
// relay's drop counts: only these types pass), "browser" for what only this
// worker sees (requests from chrome.webRequest, a tab's
// closing from chrome.tabs.onRemoved). A page cannot make the second kind:
// the host too accepts network reports and a tab's closing only from it.

import { sendEvent } from './native.js';
import { startNetwork } from './network.js';
import { forgetOwnInput, ownInputWithin } from './own-input.js';

// How long before a user-frustration report's first event tabsight's own input
// still disqualifies it (its events may reach the page a little after the command answers).
const OWN_INPUT_MARGIN_MS = 1000;

// What a frame may report about itself.
const PAGE_REPORTS = new Set(['console', 'exception', 'rejection', 'vitals', 'dropped', 'security', 'frustration']);

export function startTelemetry() {
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== chrome.runtime.id || !sender.tab || message?.kind !== 'telemetry') return;
    if (!Array.isArray(message.events)) return;
    const tabId = sender.tab.id;
    const events = message.events.slice(0, 200).filter((report) => PAGE_REPORTS.has(report?.type)
      && !(report.type === 'frustration' && byTabsight(tabId, report)));
    if (events.length === 0) return;
    sendEvent('telemetry', { tab_id: tabId, frame_id: sender.frameId, origin: 'page', events });
  });

  startNetwork();

  chrome.tabs.onRemoved.addListener((tabId) => {
    forgetOwnInput(tabId);
    sendEvent('telemetry', { tab_id: tabId, origin: 'browser', events: [{ type: 'tab_closed' }] });
  });
}

// A frustration report whose clicks or submissions may include tabsight's own
// input (trusted events too): during its span, or just before, tabsight gave the tab input.
function byTabsight(tabId, report) {
  const span = Number.isFinite(report.span_ms) ? Math.min(Math.max(report.span_ms, 0), 600_000) : 600_000;
  return ownInputWithin(tabId, span + OWN_INPUT_MARGIN_MS);
}
