// The `window.set_viewport` method: make a tab's viewport exactly W x H CSS px.
//
// A window's size includes the browser's frame (toolbar, borders; even
// headless Chromium reserves one), and the frame's size differs between
// browsers and platforms. So the window is resized by the difference between
// what the tab has and what is wanted, then checked again.

import { Code, TabsightError } from './errors.js';
import { intParam, tabIdParam } from './params.js';

const MIN_SIZE = 100;
const MAX_SIZE = 10_000;
const ATTEMPTS = 3;

export async function setViewport(params) {
  const tabId = tabIdParam(params);
  const width = intParam(params, 'width', MIN_SIZE, MAX_SIZE);
  const height = intParam(params, 'height', MIN_SIZE, MAX_SIZE);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const tab = await chrome.tabs.get(tabId);
    if (tab.width === width && tab.height === height) return { width, height };
    const window = await chrome.windows.get(tab.windowId);
    if (window.state !== 'normal') await chrome.windows.update(window.id, { state: 'normal' });
    await chrome.windows.update(window.id, {
      width: window.width + (width - tab.width),
      height: window.height + (height - tab.height),
    });
  }
  const tab = await chrome.tabs.get(tabId);
  if (tab.width !== width || tab.height !== height) {
    throw new TabsightError(Code.VIEWPORT_FAILED,
      `Could not size the viewport to ${width}x${height}; it is ${tab.width}x${tab.height} ` +
        '(the screen may be too small for that window)',
    );
  }
  return { width, height };
}
