// Service-worker entry: serves the extension's methods to the native host.

// First: native.js opens the port to the host as it is evaluated, so Chrome starts the host (a Python
// interpreter, the slowest part of a cold start) before the other modules below are evaluated.
import { ensureConnected, sendEvent, serve } from './native.js';
import { act } from './act/act.js';
import { waitFor } from './act/wait-for.js';
import { captureTab } from './capture.js';
import { allowAgain, releaseIdle, setBarSilent } from './cdp.js';
import { ownCookieStore } from './cookies.js';
import { crashedError, hasCrashed, whenCrashed } from './crashes.js';
import {
  answerDialog, dialogOpenError, setDialogPolicy, takeAnswered, verifiedOpenDialog, whenDialogOpens,
} from './dialogs.js';
import { findElements } from './discovery.js';
import { noteAction } from './frames.js';
import { endAll as endEmulations, setEmulation } from './emulation.js';
import { execute } from './execute.js';
import { guardWholeBrowser } from './navigation-guard.js';
import { networkDetail } from './network.js';
import { noteActivity } from './identity.js';
import { pageInfo, pageOutline } from './page.js';
import { captureUrl } from './owned.js';
import { startPicker } from './picker.js';
import { closeTab, endedSessionTabs, historyTab, listTabs, navigateTab, openTab } from './tabs.js';
import { reviveStartupTabs } from './startup-tabs.js';
import { startTelemetry } from './telemetry.js';
import { setViewport } from './viewport.js';

const RECONNECT_ALARM = 'tabsight-reconnect';

// Method name -> async (params, signal) => result object.
const methods = {
  ping: async () => ({}),
  'tabs.list': listTabs,
  'tab.navigate': acting(guarded(navigateTab, { refuse: false })),
  'tab.history': acting(guarded(historyTab, { refuse: false })),
  'tab.open': openTab,
  'tab.close': closeTab,
  'page.info': guarded(pageInfo, { refuse: 'crashed' }),
  'page.outline': guarded(pageOutline),
  capture: guarded(captureTab),
  'capture.url': captureUrl,
  'window.set_viewport': acting(setViewport),
  'emulation.set': acting(setEmulation),
  'elements.find': guarded(findElements),
  'element.act': acting(guarded(act)),
  'page.wait_for': guarded(waitFor),
  'page.execute': acting(guarded(execute)),
  'dialog.answer': acting(answerDialog),
  'dialog.policy': setDialogPolicy,
  'debugger.allow': async () => allowAgain(),
  'network.detail': networkDetail,
};

// A method that changes the page: a screenshot after it must show the page
// as it left it, not a frame from before (frames.js).
function acting(handler) {
  return async (params, signal) => {
    try {
      return await handler(params, signal);
    } finally {
      if (Number.isInteger(params.tab_id)) noteAction(params.tab_id);
    }
  };
}

// A method on a tab that crashed, or that has an open dialog, is refused at
// once, saying which (the page cannot answer); one during which either
// happens ends when it does; and a result says which dialogs a policy
// answered meanwhile. `refuse`: true (both), 'crashed' (page.info describes
// an open dialog itself), false (a navigation is the way out of both).
function guarded(handler, { refuse = true } = {}) {
  return async (params, signal) => {
    const tabId = params.tab_id;
    if (!Number.isInteger(tabId)) return handler(params, signal);
    if (refuse && await hasCrashed(tabId)) throw crashedError(tabId);
    if (refuse === true && await verifiedOpenDialog(tabId)) throw dialogOpenError(tabId);
    const inner = new AbortController();
    const forward = () => inner.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    const dialog = whenDialogOpens(tabId);
    const crash = whenCrashed(tabId);
    const fail = (error) => {
      inner.abort(error);
      throw error;
    };
    try {
      const result = await Promise.race([
        handler(params, inner.signal),
        dialog.happened.then(() => fail(dialogOpenError(tabId, 'opened during this call'))),
        crash.happened.then(() => fail(crashedError(tabId))),
      ]);
      const dialogs = takeAnswered(tabId);
      return dialogs.length && result && typeof result === 'object' ? { ...result, dialogs } : result;
    } finally {
      dialog.stop();
      crash.stop();
      signal.removeEventListener('abort', forward);
    }
  };
}

// At top level so it runs whenever the worker starts: install, browser
// start, and every wake (native.js has opened the port already). An open
// native port then keeps the worker alive.
serve(methods, {
  // tabsight's own browser runs with --silent-debugger-extension-api (no bar)
  onHello: (hello) => {
    const embedded = typeof hello.embedded === 'string';
    setBarSilent(embedded);
    ownCookieStore(embedded);
    guardWholeBrowser(embedded);
  },
  // no MCP session is left: what they emulated ends (before the idle attachments go, and it with them)
  events: {
    fronts: ({ count }) => {
      if (count !== 0) return;
      endEmulations();
      releaseIdle();
    },
    // an MCP session ended: the tabs it opened are closed, unless the user has used them since
    tabs_ended: endedSessionTabs,
  },
});
// Listeners registered at top level too: they are what wakes the worker.
startTelemetry();
// The user's "Look at this": the keyboard shortcut and the context menu item.
startPicker();
// The tab given on the command line, if Chrome dropped its load as it loaded the extension.
reviveStartupTabs();

// Chrome only starts the worker at browser start or install if one of these
// events has a listener; the connect itself is the top-level call above.
chrome.runtime.onStartup.addListener(ensureConnected);
chrome.runtime.onInstalled.addListener(ensureConnected);

// A new version (a new `tabsight install`: the browser finds it at its start) waits for this worker to be
// idle, which its native port never is: reloading installs it now.
chrome.runtime.onUpdateAvailable.addListener(() => chrome.runtime.reload());

// Backstop for a port that dropped while the worker was idle: its backoff
// timer died with the worker, but alarms wake it.
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) ensureConnected();
});
chrome.alarms.get(RECONNECT_ALARM).then((alarm) => {
  // Re-creating would restart the period on every wake.
  if (!alarm) chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
});

// The user looking at a tab tells the host which browser is in use, and is
// remembered for the next hello (after a worker or browser restart: see
// getLastActive). Popups (among them the windows tabsight opens for a capture)
// are not where the user looks at pages.
chrome.tabs.onActivated.addListener(async ({ tabId, windowId }) => {
  try {
    if ((await chrome.windows.get(windowId)).type !== 'normal') return;
  } catch {
    return; // the window closed meanwhile: nobody is looking at it
  }
  noteActivity();
  sendEvent('activity', { tab_id: tabId });
});
chrome.windows.onFocusChanged.addListener(async (windowId) => {
  if (windowId === chrome.windows.WINDOW_ID_NONE) return; // focus left the browser
  noteActivity();
  try {
    const [tab] = await chrome.tabs.query({ active: true, windowId });
    if (tab) sendEvent('activity', { tab_id: tab.id });
  } catch (err) {
    console.warn('tabsight: could not report window focus', err);
  }
}, { windowTypes: ['normal'] });
