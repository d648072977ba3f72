// "Look at this": the user points the agent at an element of a page.
//
// The user starts a pick with the keyboard shortcut (the manifest's
// `pick-element` command, Alt+Shift+K by default; chrome://extensions/shortcuts
// changes it), or with "Point tabsight at this" in the context menu (the
// element right-clicked is taken, when the top frame saw it: isolated-world/picker-target.js).
// The page-side picker (page-library/picker.js) highlights what is under the
// pointer; a click chooses it, Escape cancels. The element is described there
// (selector, role, name, bounds, computed styles), captured here and cropped
// to its box, then the user may add a note; the whole goes to the host as a
// `picked` event, which makes it an alert for every MCP session and keeps it
// for observe({what:"picked"}).
//
// Only the user's own input through the browser's UI starts a pick (Chrome
// runs commands and context menu items for the user alone), and only trusted
// input in the page chooses the element: no page can make or steer one.

import { captureTab } from './capture.js';
import { inPage } from './page-library-calls.js';
import { sendEvent } from './native.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

const COMMAND = 'pick-element';
const MENU_ITEM = 'tabsight-pick';

export function startPicker() {
  // Chrome keeps an extension's menu items; they are made once, at install or update.
  chrome.runtime.onInstalled.addListener(() => {
    chrome.contextMenus.removeAll(() => {
      chrome.contextMenus.create({ id: MENU_ITEM, title: 'Point tabsight at this', contexts: ['all'] });
    });
  });
  chrome.commands.onCommand.addListener((command, tab) => {
    if (command === COMMAND) pickIn(tab, { fromContextMenu: false });
  });
  chrome.contextMenus.onClicked.addListener((info, tab) => {
    // a right click in a frame was not seen by the top frame: the user clicks the element instead
    if (info.menuItemId === MENU_ITEM) pickIn(tab, { fromContextMenu: info.frameId === 0 });
  });
}

// One pick in the tab, start to end; a cancelled one sends nothing.
async function pickIn(tab, options) {
  if (!Number.isInteger(tab?.id) || isRestrictedUrl(tabUrl(tab))) return;
  try {
    const { pick, cancelled } = await inPage(tab.id, 'pickElement', options);
    if (cancelled) return;
    const image = await cropOf(tab.id, pick).catch((err) => {
      console.warn('tabsight: could not capture the picked element', err);
      return null;
    });
    const note = await inPage(tab.id, 'askNote', pick.bounds);
    const now = await chrome.tabs.get(tab.id);
    sendEvent('picked', {
      ...pick, tab_id: tab.id, url: tabUrl(now), title: now.title ?? '', note, ...(image && { image }),
    });
  } catch (err) {
    // the page went away or cannot be scripted: there is nothing to point at
    console.warn('tabsight: the pick ended', err);
  }
}

// The element as the viewport shows it, cropped to its box (the part inside
// the viewport), as a PNG: {data (base64), mime_type, width, height}; null
// when none of it is in the viewport.
async function cropOf(tabId, { bounds, viewport }) {
  const shot = await captureTab({ tab_id: tabId, format: 'png' }, new AbortController().signal);
  const bitmap = await createImageBitmap(await (await fetch(`data:${shot.mime_type};base64,${shot.tiles[0].data}`)).blob());
  const scale = bitmap.width / viewport.width; // device pixels per CSS pixel, as captured
  const left = Math.max(0, Math.floor(bounds.x * scale));
  const top = Math.max(0, Math.floor(bounds.y * scale));
  const width = Math.min(bitmap.width, Math.ceil((bounds.x + bounds.width) * scale)) - left;
  const height = Math.min(bitmap.height, Math.ceil((bounds.y + bounds.height) * scale)) - top;
  if (width < 1 || height < 1) return null;
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d').drawImage(bitmap, left, top, width, height, 0, 0, width, height);
  const png = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
  let binary = '';
  for (let i = 0; i < png.length; i += 0x8000) binary += String.fromCharCode(...png.subarray(i, i + 0x8000));
  return { data: btoa(binary), mime_type: 'image/png', width, height };
}
