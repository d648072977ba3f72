// The `elements.find` method: the elements an annotated screenshot labels, or
// what changed among them since the agent's latest annotation (discovery runs
// in the page: page-library/api.js `find`).

import { Code, badRequest } from './errors.js';
import { inPage, restrictedPage } from './page-library-calls.js';
import { enumParam, intParam, optionalStringParam, tabIdParam } from './params.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

const TARGETS = ['interactive', 'all_visible', 'custom'];

export async function findElements(params, signal) {
  const tabId = tabIdParam(params);
  const target = enumParam(params, 'target', TARGETS, 'interactive');
  const selector = optionalStringParam(params, 'selector');
  const max = intParam(params, 'max', 1, 100, 50);
  // the agent's latest annotation of this page, and with `changes` (a budget in characters) what changed in
  // its map since, instead of a new one
  const since = optionalStringParam(params, 'since');
  const changes = params.changes == null ? null : intParam(params, 'changes', 0, 100_000, 0);
  if (target === 'custom' && !selector) {
    throw badRequest('annotation_target "custom" needs annotation_selector, a CSS selector');
  }
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) throw restrictedPage(tab);
  signal.throwIfAborted();
  const found = await inPage(tabId, 'find', { target, selector, max, since, changes });
  if (found.error === Code.INVALID_SELECTOR) {
    throw badRequest(`Invalid annotation_selector ${JSON.stringify(selector)}: ${found.message}; check the CSS selector syntax`);
  }
  return found;
}
