// Page-side library, discovery: the elements an annotated screenshot marks,
// in reading order, and the page in brief (observe page).

(() => {
  if (globalThis.__tabsight) return;
  const { MAX_TITLE, MAX_URL, INTERACTIVE, documentId, collapse, clip, scopes, deepElementFromPoint, hits, inert, roundBox, describe, scopedSelector, selectorFor, keepAnnotation } = globalThis.__tabsightParts;

  // ---- discovery ----

  function candidates(root, target, custom) {
    if (target === 'custom') return root.querySelectorAll(custom);
    if (target === 'interactive') return root.querySelectorAll(INTERACTIVE);
    // all_visible: elements with text of their own, a role, or interactivity
    return [...root.querySelectorAll('*')].filter((element) =>
      element.matches(INTERACTIVE) || element.hasAttribute('role') ||
      (element.localName === 'img' && element.alt) ||
      [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.data.trim()));
  }

  // The element's box in top-viewport pixels if it is visible, enabled,
  // in the viewport and not fully covered; else null.
  function visibleBox(element, offset) {
    const rect = element.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) return null;
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return null;
    if (element.matches(':disabled') || inert(element)) return null;
    const box = { x: rect.left + offset.x, y: rect.top + offset.y, width: rect.width, height: rect.height };
    const left = Math.max(box.x, 0);
    const top = Math.max(box.y, 0);
    const right = Math.min(box.x + box.width, innerWidth);
    const bottom = Math.min(box.y + box.height, innerHeight);
    if (right - left < 1 || bottom - top < 1) return null; // outside the viewport
    // Hit-test the centre and four inner points of the visible part: the
    // element counts as covered only if something else is on top at all five.
    const points = [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];
    const seen = points.some(([fx, fy]) => hits(element, deepElementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy)));
    return seen ? box : null;
  }

  // Top-to-bottom rows, left-to-right within a row: an element joins the
  // row if its top is above the middle of the row's first element.
  function readingOrder(found) {
    found.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
    const rows = [];
    for (const item of found) {
      const row = rows.at(-1);
      if (row && item.box.y < row[0].box.y + row[0].box.height / 2) row.push(item);
      else rows.push([item]);
    }
    return rows.flatMap((row) => row.sort((a, b) => a.box.x - b.box.x));
  }

  function find({ target = 'interactive', selector = null, max = 50 }) {
    if (target === 'custom') {
      try {
        document.createDocumentFragment().querySelector(selector);
      } catch (err) {
        return { error: 'invalid_selector', message: err.message };
      }
    }
    const found = [];
    for (const scope of scopes()) {
      for (const element of candidates(scope.root, target, selector)) {
        const box = visibleBox(element, scope.offset);
        if (box) found.push({ element, box, scope });
      }
    }
    const ordered = readingOrder(found);
    const shown = ordered.slice(0, max);
    return {
      page: pageSummary(),
      annotation: keepAnnotation(shown.map(({ element }) => element)),
      total_found: ordered.length,
      elements: shown.map(({ element, box, scope }) => ({
        selector: scopedSelector(element, scope),
        ...describe(element),
        bounds: roundBox(box),
      })),
    };
  }

  function pageSummary() {
    return {
      url: clip(location.href, MAX_URL),
      title: clip(document.title, MAX_TITLE),
      viewport: { width: innerWidth, height: innerHeight },
      device_pixel_ratio: devicePixelRatio,
      ready_state: document.readyState,
      document: documentId,
    };
  }

  // ---- the page in brief (observe page) ----

  const MAX_HEADINGS = 50;
  const MAX_FORMS = 20;

  function summary() {
    let interactiveCount = 0;
    for (const element of document.querySelectorAll(INTERACTIVE)) {
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0 &&
        element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) interactiveCount++;
    }
    const page = pageSummary();
    delete page.document; // the document id is for labels, not for this summary
    return {
      ...page,
      headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].slice(0, MAX_HEADINGS).map((heading) => ({
        level: Number(heading.localName[1]),
        text: clip(collapse(heading.textContent)),
      })),
      forms: [...document.forms].slice(0, MAX_FORMS).map((form) => ({
        selector: selectorFor(form, document),
        action: formAction(form),
        method: formMethod(form),
        fields: form.querySelectorAll('input, select, textarea').length,
      })),
      interactive_count: interactiveCount,
    };
  }

  // Attributes, not the form's properties: a field named "action" or
  // "method" shadows those.
  const formAction = (form) => new URL(form.getAttribute('action') ?? '', document.baseURI).href;
  const formMethod = (form) => {
    const method = (form.getAttribute('method') ?? '').toLowerCase();
    return ['post', 'dialog'].includes(method) ? method : 'get';
  };

  Object.assign(globalThis.__tabsightParts ??= {}, { find, summary });
})();
