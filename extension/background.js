// Service-worker entry: serves the extension's methods to the native host.

import { act, waitFor } from './act.js';
import { captureTab } from './capture.js';
import { findElements } from './discovery.js';
import { execute } from './execute.js';
import { ensureConnected, sendEvent, serve } from './native.js';
import { pageInfo } from './page.js';
import { captureUrl } from './owned.js';
import { listTabs, navigateTab } from './tabs.js';
import { startTelemetry } from './telemetry.js';
import { setViewport } from './viewport.js';

const RECONNECT_ALARM = 'tabsight-reconnect';

// Method name -> async (params, signal) => result object.
const methods = {
  ping: async () => ({}),
  'tabs.list': listTabs,
  'tab.navigate': navigateTab,
  'page.info': pageInfo,
  capture: captureTab,
  'capture.url': captureUrl,
  'window.set_viewport': setViewport,
  'elements.find': findElements,
  'element.act': act,
  'page.wait_for': waitFor,
  'page.execute': execute,
};

// At top level so it runs whenever the worker starts: install, browser
// start, and every wake. An open native port then keeps the worker alive.
serve(methods);
// Listeners registered at top level too: they are what wakes the worker.
startTelemetry();

// Chrome only starts the worker at browser start or install if one of these
// events has a listener; the connect itself is the top-level call above.
chrome.runtime.onStartup.addListener(ensureConnected);
chrome.runtime.onInstalled.addListener(ensureConnected);

// Backstop for a port that dropped while the worker was idle: its backoff
// timer died with the worker, but alarms wake it.
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) ensureConnected();
});
chrome.alarms.get(RECONNECT_ALARM).then((alarm) => {
  // Re-creating would restart the period on every wake.
  if (!alarm) chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
});

// The user looking at a tab tells the host which browser is in use.
// Popups (among them the windows tabsight opens for a capture) are not
// where the user looks at pages.
chrome.tabs.onActivated.addListener(async ({ tabId, windowId }) => {
  try {
    if ((await chrome.windows.get(windowId)).type === 'normal') sendEvent('activity', { tab_id: tabId });
  } catch {
    // the window closed meanwhile: nobody is looking at it
  }
});
chrome.windows.onFocusChanged.addListener(async (windowId) => {
  if (windowId === chrome.windows.WINDOW_ID_NONE) return; // focus left the browser
  try {
    const [tab] = await chrome.tabs.query({ active: true, windowId });
    if (tab) sendEvent('activity', { tab_id: tab.id });
  } catch (err) {
    console.warn('tabsight: could not report window focus', err);
  }
}, { windowTypes: ['normal'] });
