// The `page.info` method: a structural summary of the page in a tab.

import { TabsightError } from './errors.js';
import { tabIdParam } from './params.js';
import { isRestrictedUrl, tabUrl } from './restricted.js';

export async function pageInfo(params, signal) {
  const tabId = tabIdParam(params);
  const tab = await chrome.tabs.get(tabId);
  if (isRestrictedUrl(tabUrl(tab))) {
    throw new TabsightError('restricted_page', 'Cannot access browser internal pages');
  }
  signal.throwIfAborted();
  // The isolated world sees the same DOM but not the page's globals, so a
  // page that redefines querySelectorAll & co. cannot skew the answer.
  let injection;
  try {
    [injection] = await chrome.scripting.executeScript({
      target: { tabId },
      world: 'ISOLATED',
      func: summarizePage,
    });
  } catch (err) {
    // Pages Chrome will not let extensions script though they are not
    // internal: a top-level about:blank, error pages, file: without access.
    if (!/Cannot access contents of|showing error page/i.test(err.message)) throw err;
    throw new TabsightError('restricted_page',
      `Cannot read the page at ${tabUrl(tab) || 'this tab'}: the browser does not let extensions script it; ` +
      'navigate the tab to a web page first');
  }
  if (!injection?.result) throw new Error(`page.info got no result from tab ${tabId}`);
  return injection.result;
}

// Runs in the page: Chrome serialises this function's source, so it must be
// self-contained.
function summarizePage() {
  const MAX_HEADINGS = 50;
  const MAX_FORMS = 20;
  const MAX_HEADING_TEXT = 100;
  const INTERACTIVE = [
    'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary',
    '[role=button]', '[role=link]', '[role=checkbox]', '[role=radio]', '[role=tab]',
    '[role=menuitem]', '[role=switch]', '[role=option]', '[role=combobox]', '[role=textbox]',
    '[onclick]', '[tabindex]:not([tabindex="-1"])', '[contenteditable=""]', '[contenteditable=true]',
  ].join(',');

  const collapse = (text) => text.replace(/\s+/g, ' ').trim();

  const isVisible = (element) => {
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 &&
      element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  };

  // "#id" when the form has one, else form:nth-of-type(n), prefixed with
  // ancestors until it matches this form alone (nth-of-type counts among
  // siblings, so forms in different containers would share it).
  const formSelector = (form) => {
    if (form.id) return `#${CSS.escape(form.id)}`;
    const step = (element) => {
      let n = 1;
      for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === element.localName) n++;
      }
      return `${element.localName}:nth-of-type(${n})`;
    };
    let selector = step(form);
    for (let ancestor = form.parentElement; ancestor; ancestor = ancestor.parentElement) {
      if (document.querySelectorAll(selector).length === 1) break;
      selector = `${ancestor.id ? `#${CSS.escape(ancestor.id)}` : step(ancestor)} > ${selector}`;
      if (ancestor.id) break;
    }
    return selector;
  };

  // Attributes, not the form's properties: a field named "action" or
  // "method" shadows those.
  const formAction = (form) => new URL(form.getAttribute('action') ?? '', document.baseURI).href;
  const formMethod = (form) => {
    const method = (form.getAttribute('method') ?? '').toLowerCase();
    return ['post', 'dialog'].includes(method) ? method : 'get';
  };

  let interactiveCount = 0;
  for (const element of document.querySelectorAll(INTERACTIVE)) {
    if (isVisible(element)) interactiveCount++;
  }

  return {
    url: location.href,
    title: document.title,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    device_pixel_ratio: window.devicePixelRatio,
    ready_state: document.readyState,
    headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .slice(0, MAX_HEADINGS)
      .map((heading) => ({
        level: Number(heading.localName[1]),
        text: collapse(heading.textContent).slice(0, MAX_HEADING_TEXT),
      })),
    forms: [...document.forms].slice(0, MAX_FORMS).map((form) => ({
      selector: formSelector(form),
      action: formAction(form),
      method: formMethod(form),
      fields: form.querySelectorAll('input, select, textarea').length,
    })),
    interactive_count: interactiveCount,
  };
}
