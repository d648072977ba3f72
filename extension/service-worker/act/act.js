// The `element.act` method: acting on a page the way a user does, and saying
// what changed. One table below maps each action to its handler; the
// handlers live by family (pointer.js: click, hover, scroll, drag;
// fields.js: type, select, set, press; upload.js), on shared machinery:
// targets.js (what to act on), input-events.js (the debugger's mouse and
// keys), waits.js (turns, cancellable waits) and settle.js (what changed).
//
// Pointer and keyboard input go through the debugger (Input.dispatch*), so
// the page gets trusted events at real coordinates, as from a user; the
// target is located in the page first (page-library/api.js `locate`: scrolled into
// view, a point on it that nothing covers).
//
// A label (annotation id and number) names the element the annotation
// marked, kept in the page (page-library/api.js `resolveLabel`), never a selector
// match: if that element is gone, replaced or changed, stale_label. What
// the action itself made of its target (a new name, a new state), as the
// page shows it once settled, its labels follow (`followed` in the answer).

import { Code, TabsightError } from '../errors.js';
import { currentDocument, inPage, inPageIfLoaded } from '../page-library-calls.js';
import { enumParam, optionalStringParam, tabIdParam } from '../params.js';
import { tabUrl } from '../restricted.js';
import { FIELD_ACTIONS } from './fields.js';
import { POINTER_ACTIONS } from './pointer.js';
import { settle } from './settle.js';
import { destinationParam, pointParam, targetParam } from './targets.js';
import { UPLOAD_ACTIONS } from './upload.js';

// Action -> its handler: the families' rows (a new action is a row and a
// handler in its family's file).
const ACTIONS = { ...POINTER_ACTIONS, ...UPLOAD_ACTIONS, ...FIELD_ACTIONS };
const ACTION_NAMES = Object.keys(ACTIONS);

export async function act(params, signal) {
  const tabId = tabIdParam(params);
  const action = enumParam(params, 'action', ACTION_NAMES);
  const { handler, destination } = ACTIONS[action];
  const expected = optionalStringParam(params, 'document');
  const stale = expected !== null && (await currentDocument(tabId)) !== expected;
  const selector = targetParam(params, stale);
  const point = pointParam(params);
  const to = destination ? destinationParam(params, stale) : null;
  if (stale && !params.annotation && !params.to?.annotation) {
    throw new TabsightError(Code.STALE_LABEL, 'the page has changed since the annotation');
  }
  const before = await chrome.tabs.get(tabId);
  const documentBefore = await inPage(tabId, 'watch', selector ?? null);
  signal.throwIfAborted();

  const did = await handler(tabId, { selector, point, to }, params, signal);
  const after = await settle(tabId, documentBefore, signal);
  // what the action made of its target, which its labels follow (page-library/labels.js)
  const followed = selector && !after.navigated ? await inPageIfLoaded(tabId, 'followed') : null;
  return {
    ...did,
    url: after.url,
    title: after.title,
    navigated: after.navigated || after.url !== tabUrl(before),
    ...(after.dom ? { dom: after.dom } : {}),
    ...(followed ? { followed } : {}),
  };
}
