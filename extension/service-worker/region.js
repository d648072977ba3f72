// Which part of a page to capture: the whole document or one element, and
// how to split it into tiles that a vision model accepts.

import { send } from './cdp.js';
import { Code, TabsightError } from './errors.js';
import { MAX_TILE_SIDE } from './limits.js';

// The whole document, in CSS pixels from its top-left corner, at least as
// wide as the viewport: the content size excludes a vertical scrollbar, and
// a capture beyond the viewport has none.
export async function documentRegion(tabId, viewportWidth, signal) {
  const { cssContentSize } = await send(tabId, 'Page.getLayoutMetrics', {}, signal);
  return {
    x: 0,
    y: 0,
    width: Math.max(Math.ceil(cssContentSize.width), viewportWidth),
    height: Math.ceil(cssContentSize.height),
  };
}

// The box of the first element matching `selector`, in document CSS pixels,
// after scrolling it into view if it was not (lazy content and sticky
// headers then look as a reader would see them).
export async function elementRegion(tabId, selector) {
  let injection;
  try {
    [injection] = await chrome.scripting.executeScript({
      target: { tabId },
      world: 'ISOLATED', // the page's own globals cannot skew the lookup
      func: locateElement,
      args: [selector],
    });
  } catch (err) {
    throw new TabsightError(Code.ELEMENT_NOT_FOUND,
      `Element not found: ${selector} (the page cannot be scripted: ${err.message})`);
  }
  const found = injection?.result;
  if (found?.invalid) throw new TabsightError(Code.BAD_REQUEST, `Invalid selector: ${selector} (${found.invalid})`);
  if (!found) throw new TabsightError(Code.ELEMENT_NOT_FOUND, `Element not found: ${selector}`);
  if (found.width < 1 || found.height < 1) {
    throw new TabsightError(Code.ELEMENT_NOT_FOUND,
      `Element not visible: ${selector} (its box is ${found.width}x${found.height})`);
  }
  return found;
}

// Runs in the page: self-contained.
function locateElement(selector) {
  let element;
  try {
    element = document.querySelector(selector);
  } catch (err) {
    return { invalid: err.message };
  }
  if (!element) return null;
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' }); // no-op when already in view
  const rect = element.getBoundingClientRect();
  // Whole pixels, outward, so the crop holds all of the element.
  const left = Math.floor(rect.left + window.scrollX);
  const top = Math.floor(rect.top + window.scrollY);
  return {
    x: left,
    y: top,
    width: Math.ceil(rect.right + window.scrollX) - left,
    height: Math.ceil(rect.bottom + window.scrollY) - top,
  };
}

// Splits a region into a grid of clips, row by row, none larger than
// MAX_TILE_SIDE device pixels on a side at `scale` device pixels per CSS pixel.
export function tiles(region, scale) {
  const step = Math.max(1, Math.floor(MAX_TILE_SIDE / scale));
  const clips = [];
  for (let y = region.y; y < region.y + region.height; y += step) {
    for (let x = region.x; x < region.x + region.width; x += step) {
      clips.push({
        x,
        y,
        width: Math.min(step, region.x + region.width - x),
        height: Math.min(step, region.y + region.height - y),
      });
    }
  }
  return clips;
}
