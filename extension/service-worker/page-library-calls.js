// Calls into the page-side library (page-library/api.js and its parts), injecting it
// first into a document that does not have it yet.

import { Code, TabsightError } from './errors.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

// In order: each part uses the ones before it; page-library/api.js makes the calls.
const LIBRARY = ['dom', 'names', 'selectors', 'labels', 'discovery', 'act', 'input', 'outline', 'picker', 'api']
  .map((part) => `page-library/${part}.js`);

// Runs globalThis.__tabsight[method](...args) in the tab's top frame, in the
// extension's isolated world, and resolves to what it returned (awaited: a
// user's pick resolves when the user has chosen).
export async function inPage(tabId, method, ...args) {
  const call = () => runInPage(tabId, {
    func: async (name, params) => (globalThis.__tabsight ? { value: await globalThis.__tabsight[name](...params) } : null),
    args: [method, args],
  });
  let result = await call();
  if (result === null) {
    await runInPage(tabId, { files: LIBRARY });
    result = await call();
  }
  // (a document that drops or breaks the library as it loads: say so, not what reading nothing threw)
  if (result === null) throw new TabsightError(Code.INTERNAL, 'The page-side library did not load in this page; call again');
  return result.value;
}

// As inPage, but only in a document that has the library already (null
// otherwise, or when the document is going away): for calls that end
// something begun there, never worth injecting the library for.
export async function inPageIfLoaded(tabId, method, ...args) {
  try {
    return await runInPage(tabId, {
      func: (name, params) => globalThis.__tabsight?.[name](...params) ?? null,
      args: [method, args],
    });
  } catch {
    return null;
  }
}

// The id of the document the tab shows now, or null if the library has never
// run in it (so it is not the document any earlier answer was about).
export async function currentDocument(tabId) {
  return runInPage(tabId, { func: () => globalThis.__tabsight?.documentId ?? null });
}

// chrome.scripting.executeScript in the top frame's isolated world, with
// Chrome's refusals turned into one clear restricted_page error.
export async function runInPage(tabId, injection) {
  let results;
  try {
    results = await chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', ...injection });
  } catch (err) {
    if (!/Cannot access|showing error page|cannot be scripted/i.test(err.message)) throw err;
    throw restrictedPage(await chrome.tabs.get(tabId));
  }
  return results?.[0]?.result ?? null;
}

// Browser-internal pages (chrome://, the Web Store) and the pages Chrome
// will not let extensions script though they are not internal (a top-level
// about:blank, error pages, file: without access).
export function restrictedPage(tab) {
  if (isRestrictedUrl(tabUrl(tab))) {
    return new TabsightError(Code.RESTRICTED_PAGE, 'Cannot capture screenshots of browser internal pages');
  }
  return new TabsightError(Code.RESTRICTED_PAGE,
    `Cannot read the page at ${tabUrl(tab) || 'this tab'}: the browser does not let extensions script it; ` +
    'navigate the tab to a web page first');
}
