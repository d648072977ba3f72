// The user's windows stay as the user left them. A trusted mouse press makes
// Chromium focus the page's web contents, and so activate its window: raise
// it over the application the user works in, and un-minimize it (the browser
// does this for any press it forwards, whatever the page does with it). The
// press itself needs none of that: the debugger's focus emulation (cdp.js)
// keeps a covered or minimized page rendering and answering input. So a
// press is wrapped in keepingUserFocus: which window had the focus, and
// whether the page's window was minimized, are read before, and put back as
// soon as Chromium has activated the window (it does so asynchronously).
//
// Put back as far as an extension can: a minimized window is minimized
// again, another browser window gets the focus again, and when another
// application had it the window is sent behind it again (chrome.windows
// cannot give the focus to another application; the window manager decides
// where it goes).

import { HEADLESS } from './identity.js';

// How long Chromium may take to activate the window after a press.
const ACTIVATION_WAIT_MS = 500;
const POLL_MS = 25;

export async function keepingUserFocus(tabId, action) {
  if (HEADLESS) return action(); // its windows are on no screen, and it activates none
  const before = await focusState(tabId);
  try {
    return await action();
  } finally {
    if (before.away) await restore(before).catch(() => {}); // a window closed meanwhile: nothing to put back
  }
}

async function focusState(tabId) {
  const { windowId } = await chrome.tabs.get(tabId);
  const windows = await chrome.windows.getAll();
  const own = windows.find((w) => w.id === windowId);
  const focused = windows.find((w) => w.focused)?.id ?? null;
  return {
    windowId,
    minimized: own?.state === 'minimized',
    // the browser window the user works in (null: another application)
    focused,
    // the user is not looking at this window: a press would take it away from them
    away: focused !== windowId,
  };
}

async function restore({ windowId, minimized, focused }) {
  const activated = (w) => (minimized ? w.state !== 'minimized' : w.focused);
  const deadline = performance.now() + ACTIVATION_WAIT_MS;
  let now = await chrome.windows.get(windowId);
  while (!activated(now) && performance.now() < deadline) {
    await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    now = await chrome.windows.get(windowId);
  }
  if (minimized && now.state !== 'minimized') await chrome.windows.update(windowId, { state: 'minimized' });
  if (focused !== null) {
    if (focused !== windowId) await chrome.windows.update(focused, { focused: true });
  } else if (!minimized && now.focused) {
    await chrome.windows.update(windowId, { focused: false });
  }
}
