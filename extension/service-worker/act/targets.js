// What an action acts on, from the request: a selector or a label, a point,
// a drag's destination, the viewport a point was taken in; and where the
// located target is.

import { Code, TabsightError, badRequest } from '../errors.js';
import { inPage } from '../page-library-calls.js';
import { intParam, optionalStringParam } from '../params.js';

// What to act on: a selector, or a label ({annotation, label, selector?})
// when the request names an annotation. A label of another document than
// the tab shows now (stale) is refused; a selector copied from an
// annotation (annotated_selector) is a plain selector on a new page.
export function targetParam(params, stale) {
  const selector = optionalStringParam(params, 'selector');
  const annotation = optionalStringParam(params, 'annotation');
  if (!annotation) return selector;
  const label = intParam(params, 'label', 1, 1000);
  if (!stale) return { annotation, label, ...(selector ? { selector } : {}) };
  if (params.annotated_selector !== true || !selector) {
    throw new TabsightError(Code.STALE_LABEL, `label ${label} is stale: observe again (the tab shows another document now)`);
  }
  return selector;
}

// Where a drag ends: {selector} (a selector or a label, as targetParam) or
// {point}, from the request's `to`, which names one or the other.
export function destinationParam(params, stale) {
  const { to } = params;
  if (typeof to !== 'object' || to === null || Array.isArray(to)) {
    throw badRequest(`Invalid to: ${JSON.stringify(to)?.slice(0, 200)} (allowed: {selector} or {annotation, label} or {x, y})`);
  }
  const selector = targetParam(to, stale);
  const point = pointParam(to);
  if (!selector === !point) {
    throw badRequest(`Invalid to: ${JSON.stringify(to).slice(0, 200)} (allowed: one of selector, a label, or x and y)`);
  }
  return { selector, point };
}

export const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

export function pointParam(params) {
  if (params.x === undefined && params.y === undefined) return null;
  const x = params.x;
  const y = params.y;
  if (typeof x !== 'number' || typeof y !== 'number' || x < 0 || y < 0) {
    throw badRequest(`Invalid x/y: ${JSON.stringify([x, y])} (allowed: both, numbers >= 0, CSS px of the viewport)`);
  }
  return { x, y };
}

// The viewport ({width, height}) of the screenshot a point was taken from, if the caller knows it.
export function viewportParam(params) {
  const { viewport } = params;
  if (viewport === undefined) return null;
  if (!Number.isInteger(viewport?.width) || !Number.isInteger(viewport?.height)) {
    throw badRequest(`Invalid viewport: ${JSON.stringify(viewport)} (allowed: {width, height}, CSS px integers)`);
  }
  return viewport;
}

// Where the action lands: the located element's point, or the given one.
export async function locateTarget(tabId, selector, point, { focusOnly = false } = {}) {
  if (!selector) return { ...point, target: null };
  const located = await inPage(tabId, focusOnly ? 'focus' : 'locate', selector);
  if (located.error) throw new TabsightError(located.error, located.message);
  return located;
}
