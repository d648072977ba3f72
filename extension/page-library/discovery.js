// Page-side library, discovery: the elements an annotated screenshot marks,
// in reading order, and the page in brief (observe page).

(() => {
  if (globalThis.__tabsight) return;
  const {
    MAX_TITLE, MAX_URL, INTERACTIVE, WIDGET_ROLES, EDITORS, documentId, collapse, clip, scopes, deepElementFromPoint, hits,
    inert, roundBox, knownSemantics, frameDocument, deepActiveElement,
    HIDEABLE, transparentOnly, pointerStandInOf, hitAtCentre, roleOf, idRefs, standInOf, identify, describe, scopedSelector, scopedStructural, selectorFor,
    structuralSelector, selectorFields, keepAnnotation, unchangedSince, changesSince,
  } = globalThis.__tabsightParts;

  // How many of the interactive elements above, and below, the viewport are listed (the nearest).
  const OUTSIDE_LISTED = 5;
  // What may be an open overlay (menu, listbox, dialog, popover), or the control that opened one.
  const OVERLAYS = '[role=menu], [role=listbox], [role=dialog], [role=alertdialog], dialog[open], :popover-open, ' +
    '[aria-expanded=true]';
  // The longest discovery looks for elements; past it, what it did not reach is left out, and said so.
  const DISCOVERY_BUDGET_MS = 3000;
  // A nested element covering this much of its marked ancestor is the same target (a button in a link).
  const SAME_TARGET_AREA = 0.8;
  // Elements INTERACTIVE takes for what they are (a link, a button, a field), whatever their attributes.
  const NATIVE_CONTROLS = new Set(['a', 'area', 'button', 'input', 'select', 'textarea', 'summary', 'option', 'video', 'audio']);

  // ---- the flat tree, across shadow roots (slotted nodes in their slots) ----

  function flatParent(node) {
    if (node.assignedSlot) return node.assignedSlot;
    const parent = node.parentNode;
    return parent?.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? parent.host ?? null : parent;
  }

  // Adds the node's flat-tree ancestors to `set` (stopping where the set has them already).
  function addAncestors(set, node) {
    for (let n = flatParent(node); n && !set.has(n); n = flatParent(n)) set.add(n);
  }

  function flatContains(ancestor, node) {
    for (let n = node; n; n = flatParent(n)) if (n === ancestor) return true;
    return false;
  }

  // The closest ancestor (or the element) matching `selector`, across shadow roots.
  function closestAcross(element, selector) {
    for (let n = element; n;) {
      const found = n.closest(selector);
      if (found) return found;
      n = n.getRootNode().host;
    }
    return null;
  }

  const shown = (element) => {
    const rect = element.getBoundingClientRect();
    return rect.width >= 1 && rect.height >= 1 && element.checkVisibility({ checkVisibilityCSS: true });
  };

  // ---- discovery: what gets a mark ----

  // The elements to mark, each {element, scope, standIn?, transparentOk?}: for
  // `interactive`, the controls, a visually hidden input at its stand-in,
  // each code editor once, without wrappers.
  function candidates(scopeList, target, custom, deadline) {
    if (target === 'custom') {
      return scopeList.flatMap((scope) => [...scope.root.querySelectorAll(custom)].map((element) => ({ element, scope })));
    }
    if (target === 'all_visible') {
      // elements with text of their own, a role, or interactivity
      return scopeList.flatMap((scope) => [...scope.root.querySelectorAll('*')].filter((element) =>
        element.matches(INTERACTIVE) || element.hasAttribute('role') ||
        (element.localName === 'img' && element.alt) ||
        [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.data.trim()))
        .map((element) => ({ element, scope })));
    }
    const byRoot = new Map(scopeList.map((scope) => [scope.root, scope]));
    const marks = new Map(); // marked element -> {element, scope, standIn, transparentOk}
    const withInternalRole = ownRoles(scopeList);
    for (const scope of scopeList) {
      // (the checks a page without editors or editable regions does not need cost a big page much)
      const editors = !!scope.root.querySelector(EDITORS);
      const editable = !!scope.root.querySelector('[contenteditable]');
      const controls = [...scope.root.querySelectorAll(`${INTERACTIVE}, ${EDITORS}`), ...withInternalRole.get(scope.root) ?? []];
      for (const element of controls) {
        if (editors && element.parentElement?.closest(EDITORS)) continue; // an editor's textarea, gutter, fold arrows
        if (editable && element.parentElement?.isContentEditable) continue; // inside an editable region
        const hideable = element.matches(HIDEABLE);
        const standIn = hideable ? standInOf(element) : null;
        const mark = standIn ?? element;
        if (!marks.has(mark)) {
          marks.set(mark, {
            element: mark,
            control: element,
            scope: standIn ? byRoot.get(standIn.getRootNode()) ?? scope : scope,
            standIn: !!standIn,
            // an input made transparent over its own styled look is still what a click reaches; so is a
            // component's inner control, transparent while its host shows the look (a text field's empty
            // input under its resting label, a slider's range input over its drawn track)
            transparentOk: (hideable && !standIn) || (scope.hosts.length > 0 && transparentOnly(element) &&
              seenHost(element)),
          });
        }
      }
    }
    const clickables = clickablesWithoutRole(scopeList, marks, deadline);
    for (const item of clickables) marks.set(item.element, item);
    return Object.assign(withoutWrappers(marks), { clickablesCut: clickables.cut });
  }

  // Beyond the accessibility tree, what a user clicks that has no role: an element with a click listener of its
  // own (main-world/semantics.js; an onclick attribute is in INTERACTIVE already), or the outermost element of an
  // area the page gives a pointer cursor (the browser's sign that a click there does something: what
  // Playwright's snapshot shows as [cursor=pointer]). Not one inside a control or holding one (a card around
  // a button, a list delegating its items' clicks: the controls are the targets), not a label (its control
  // is), not the page itself or a surface over half the viewport (a canvas, an app's root). Only the
  // outermost element of a pointer area counts: its children inherit the cursor, and one control gets one
  // mark; an element inside it with a listener of its own (a tree's caret in its row) is a target too.
  function clickablesWithoutRole(scopeList, marks, deadline) {
    // (the controls: an element focusable or clickable by [tabindex] or [onclick] alone may be a wrapper of them,
    // as a select's menu is of its options)
    const controls = new Set([...marks.values()].filter(({ element, standIn }) => standIn || !roleless(element))
      .map(({ element }) => element));
    const holders = new Set();
    for (const { element, control } of marks.values()) {
      if (!controls.has(element)) continue;
      // (the hidden input a stand-in shows is held too: the styled box around it is that control's look)
      addAncestors(holders, element);
      addAncestors(holders, control);
    }
    const insideMark = (element) => {
      for (let n = flatParent(element); n; n = flatParent(n)) if (controls.has(n)) return true;
      return false;
    };
    const surface = innerWidth * innerHeight / 2;
    const cursors = new Map();
    const pointer = (element) => {
      let cursor = cursors.get(element);
      if (cursor === undefined) cursors.set(element, cursor = getComputedStyle(element).cursor);
      return cursor === 'pointer';
    };
    const pointerArea = (element) => {
      if (!pointer(element)) return false;
      const parent = flatParent(element);
      return !(parent?.nodeType === Node.ELEMENT_NODE && pointer(parent));
    };
    const found = new Map();
    let looked = 0;
    let cut = false;
    for (const scope of scopeList) {
      const known = knownSemantics(scope.root.ownerDocument ?? scope.root);
      for (const element of scope.root.querySelectorAll('*')) {
        if (++looked % 256 === 0 && performance.now() > deadline) {
          cut = true;
          break;
        }
        if (controls.has(element) || holders.has(element) || element.localName === 'label' || SKIPPED.has(element.localName)) {
          continue;
        }
        // (in the viewport only: what is outside it is listed by its controls; and a big page stays cheap)
        const rect = element.getBoundingClientRect();
        const top = rect.top + scope.offset.y;
        const left = rect.left + scope.offset.x;
        if (rect.width < 1 || rect.height < 1 || rect.width * rect.height > surface || top >= innerHeight ||
          top + rect.height <= 0 || left >= innerWidth || left + rect.width <= 0) continue;
        // a listener alone, on what neither looks clickable nor takes the focus, is a framework's plumbing
        const listener = !!known.get(element)?.click && (pointer(element) || element.hasAttribute('tabindex'));
        if ((!listener && !pointerArea(element)) || insideMark(element) || CONTAINER_ROLES.has(roleOf(element))) continue;
        found.set(element, { element, scope, standIn: false, transparentOk: false, listener });
      }
    }
    // a listener holding other clickables delegates their clicks: they are the targets
    const holding = new Set();
    for (const element of found.keys()) {
      addAncestors(holding, element);
    }
    return Object.assign([...found.values()].filter(({ element, listener }) =>
      !(holding.has(element) && listener && !pointerArea(element))), { cut });
  }

  // Roles of what holds other things: a list or a grid with a listener delegates its items' clicks (a sortable
  // list, a table that selects the row clicked); the items are the targets.
  const CONTAINER_ROLES = new Set(['list', 'listbox', 'table', 'grid', 'treegrid', 'tree', 'menu', 'menubar', 'tablist',
    'toolbar', 'radiogroup', 'group', 'region', 'navigation', 'form', 'main', 'banner', 'contentinfo',
    'complementary', 'dialog', 'alertdialog', 'document', 'application', 'feed', 'log', 'rowgroup', 'search',
    'article', 'tabpanel']);

  // Elements that are never a click target of their own.
  const SKIPPED = new Set(['html', 'body', 'head', 'script', 'style', 'template', 'slot', 'br', 'option', 'optgroup']);

  // Is the shadow host the element is in shown, with some opacity?
  const seenHost = (element) => !!element.getRootNode().host?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });

  // The custom elements whose ElementInternals give them a widget role (and no role attribute overrides it),
  // by the root (document or shadow root) they are in.
  function ownRoles(scopeList) {
    const byRoot = new Map();
    const documents = new Set(scopeList.map(({ root }) => root.ownerDocument ?? root));
    for (const doc of documents) {
      for (const [element, semantics] of knownSemantics(doc)) {
        if (!semantics.role || element.hasAttribute('role') || !WIDGET_ROLES.has(roleOf(element))) continue;
        const root = element.getRootNode();
        if (!byRoot.has(root)) byRoot.set(root, []);
        byRoot.get(root).push(element);
      }
    }
    return byRoot;
  }

  // Interactive without a role of its own: only by [onclick] or [tabindex] (or a label's click).
  const roleless = (element) => !WIDGET_ROLES.has(roleOf(element)) && !NATIVE_CONTROLS.has(element.localName) &&
    !element.isContentEditable && !element.matches(EDITORS);

  // An element with no role that is interactive only by [onclick] or
  // [tabindex] is a wrapper when a control is inside it (the control gets
  // the mark); a <label> is not marked when its control is.
  function withoutWrappers(marks) {
    const holders = new Set();
    for (const element of marks.keys()) {
      addAncestors(holders, element);
    }
    return [...marks.values()].filter(({ element, standIn }) => {
      if (standIn || !roleless(element)) return true;
      if (element.localName === 'label' && marks.has(element.control)) return false;
      return !holders.has(element);
    });
  }

  // Where an element is, in top-viewport pixels: {box, where: in|above|below}
  // if it is rendered, visible by CSS and level with the viewport; else null.
  function placeOf(element, offset, transparentOk = false) {
    const rect = element.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) return null;
    const box = { x: rect.left + offset.x, y: rect.top + offset.y, width: rect.width, height: rect.height };
    if (box.x + box.width <= 0 || box.x >= innerWidth) return null; // off to a side, where no scroll of the page leads
    const where = box.y + box.height <= 0 ? 'above' : box.y >= innerHeight ? 'below' : 'in';
    if (!element.checkVisibility({ checkOpacity: !transparentOk, checkVisibilityCSS: true })) return null;
    return { box, where };
  }

  // Is the element in the viewport seen: not fully covered? The centre and
  // four inner points of its visible part are hit-tested: covered only if
  // something else is on top at all five. A control whose own box a pointer
  // does not reach (pointer-events: none) counts as seen when one of its
  // labels is: a click there operates it.
  function uncovered(element, box, offset) {
    if (reached(element, box)) return true;
    return [...element.labels ?? []].some((label) => {
      const rect = label.getBoundingClientRect();
      return reached(element, { x: rect.left + offset.x, y: rect.top + offset.y, width: rect.width, height: rect.height });
    });
  }

  // Does a pointer at one of five points of the box's visible part reach the element?
  function reached(element, box) {
    const left = Math.max(box.x, 0);
    const top = Math.max(box.y, 0);
    const right = Math.min(box.x + box.width, innerWidth);
    const bottom = Math.min(box.y + box.height, innerHeight);
    if (right - left < 1 || bottom - top < 1) return false;
    const points = [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];
    return points.some(([fx, fy]) => hits(element, deepElementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy)));
  }

  // ---- overlays and modals ----

  // The open modal the page is shown under: a <dialog> shown with
  // showModal() (the rest is inert), else an [aria-modal=true] element that
  // holds the focus, as modal libraries make it: Chrome's accessibility
  // tree, where it prunes the page for aria-modal at all (its
  // AriaModalPrunesAXTree setting), prunes it for the aria-modal dialog the
  // focus is in alone; an inline colour picker marked aria-modal (Excalidraw)
  // hides nothing.
  function topModal(scopeList) {
    let modal = null;
    let ariaModal = null;
    const focused = deepActiveElement();
    for (const { root } of scopeList) {
      for (const element of root.querySelectorAll('dialog, [aria-modal="true"]')) {
        if (!shown(element)) continue;
        if (element.matches(':modal')) modal = element;
        else if (element.getAttribute('aria-modal') === 'true' && focused && flatContains(element, focused)) ariaModal = element;
      }
    }
    return modal ?? ariaModal;
  }

  // The open overlays: dialogs, open popovers, menus and listboxes that
  // float over the page, and what a control with aria-expanded=true opened
  // (its aria-controls/aria-owns target, else the floating element next to it).
  function openOverlays(scopeList) {
    const overlays = new Set();
    for (const { root } of scopeList) {
      for (const element of root.querySelectorAll(OVERLAYS)) {
        if (isOverlay(element)) overlays.add(element);
        if (element.getAttribute('aria-expanded') === 'true') {
          const near = [element.nextElementSibling, element.parentElement?.nextElementSibling];
          const opened = [...idRefs(element, 'aria-controls'), ...idRefs(element, 'aria-owns'), ...near]
            .find((popup) => popup && (isOverlay(popup) || (floating(popup) && shown(popup))));
          if (opened) overlays.add(opened);
        }
      }
    }
    return overlays;
  }

  function isOverlay(element) {
    const role = roleOf(element);
    if (!['menu', 'listbox', 'dialog', 'alertdialog'].includes(role) && !element.matches(':popover-open')) return false;
    if (!shown(element)) return false;
    // a menu or listbox that sits in the page (a sidebar's list) is not over it
    return role === 'dialog' || role === 'alertdialog' || element.matches(':popover-open') || floating(element);
  }

  // Positioned over the page: it, or one of its three nearest ancestors (boxes: slots do not count), is
  // absolutely or fixed positioned (a popup library's panel wraps the menu it shows in a few elements).
  function floating(element) {
    let level = 0;
    for (let n = element; n?.nodeType === Node.ELEMENT_NODE && level < 4; n = flatParent(n)) {
      const style = getComputedStyle(n);
      if (['absolute', 'fixed'].includes(style.position)) return true;
      if (style.display !== 'contents') level++;
    }
    return false;
  }

  // The innermost open overlay the element is in, or null.
  function overlayOf(element, overlays) {
    if (!overlays.size) return null;
    for (let n = element; n; n = flatParent(n)) if (overlays.has(n)) return n;
    return null;
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

  // An open overlay's elements first, each overlay's together in reading
  // order (the innermost overlay first: a listbox opened in a dialog), then
  // the rest of the page.
  function numberingOrder(found, overlays) {
    const groups = new Map();
    for (const item of found) {
      const overlay = overlayOf(item.element, overlays);
      if (!groups.has(overlay)) groups.set(overlay, []);
      groups.get(overlay).push(item);
    }
    const depth = (overlay) => {
      let count = 0;
      for (let n = flatParent(overlay); n; n = flatParent(n)) if (overlays.has(n)) count++;
      return count;
    };
    const open = [...groups.keys()].filter(Boolean).map((overlay) => {
      const rect = overlay.getBoundingClientRect();
      return { overlay, depth: depth(overlay), y: rect.top, x: rect.left };
    }).sort((a, b) => b.depth - a.depth || a.y - b.y || a.x - b.x);
    return [...open.map(({ overlay }) => overlay), null].flatMap((overlay) => readingOrder(groups.get(overlay) ?? []));
  }

  // Drops an element nested in a marked one that covers nearly all of it (a
  // button inside a link): the same target, marked once.
  function withoutNested(found) {
    const byElement = new Map(found.map((item) => [item.element, item]));
    return found.filter(({ element, box }) => {
      for (let n = flatParent(element); n; n = flatParent(n)) {
        const outer = byElement.get(n);
        if (outer) return box.width * box.height < SAME_TARGET_AREA * outer.box.width * outer.box.height;
      }
      return true;
    });
  }

  // A control in the viewport the pointer passes through (pointer-events: none), as [{element, box, scope}]:
  // a disabled one itself, when what the pointer meets there holds it (it is shown, not covered: a disabled
  // "Delete" tells the agent something); else marked at what takes its clicks instead (names.js
  // pointerStandInOf); [] when there is none, or it is marked already. (Looked for only here, for a control
  // no pointer reaches: it costs hit tests.)
  function passedThrough(control, box, scope, scopeList, found) {
    if (getComputedStyle(control).pointerEvents !== 'none') return [];
    if (control.matches(':disabled') || closestAcross(control, '[aria-disabled="true"]')) {
      const hit = hitAtCentre(control);
      const held = hit && hit !== hit.ownerDocument.body && hit !== hit.ownerDocument.documentElement &&
        flatContains(hit, control);
      return held ? [{ element: control, box, scope }] : [];
    }
    const standIn = pointerStandInOf(control);
    const holder = standIn && scopeList.find(({ root }) => root === standIn.getRootNode());
    if (!holder || found.some((item) => item.element === standIn)) return [];
    const place = placeOf(standIn, holder.offset);
    return place?.where === 'in' ? [{ element: standIn, box: place.box, scope: holder }] : [];
  }

  // Frames in the viewport whose document this page cannot read (another origin, or not loaded).
  function crossOriginFrames(scopeList) {
    let count = 0;
    for (const { root, offset } of scopeList) {
      for (const frame of root.querySelectorAll('iframe, frame')) {
        if (frameDocument(frame)) continue;
        const rect = frame.getBoundingClientRect();
        const top = rect.top + offset.y;
        if (rect.width >= 1 && rect.height >= 1 && top < innerHeight && top + rect.height > 0 && shown(frame)) count++;
      }
    }
    return count;
  }

  // The elements an annotation marks. With `since` (the id of the agent's latest annotation of this page):
  // `changes` (budget: at most so many characters of entries) answers what changed in that annotation's map
  // instead of making a new one (labels.js changesSince); without, an annotation that would repeat that one
  // answers `unchanged` and keeps its id.
  function find({ target = 'interactive', selector = null, max = 50, since = null, changes = null }) {
    if (target === 'custom') {
      try {
        document.createDocumentFragment().querySelector(selector);
      } catch (err) {
        return { error: 'invalid_selector', message: err.message };
      }
    }
    const scopeList = [...scopes()];
    const interactive = target === 'interactive';
    const modal = topModal(scopeList);
    const overlays = openOverlays(scopeList);
    const anyInert = scopeList.some(({ root }) => root.querySelector('[inert]'));
    let found = [];
    const outside = { above: [], below: [] };
    const deadline = performance.now() + DISCOVERY_BUDGET_MS;
    const listed = candidates(scopeList, target, selector, deadline);
    const leftOut = [];
    for (const [index, { element, scope, transparentOk }] of listed.entries()) {
      if (index % 64 === 0 && performance.now() > deadline) {
        leftOut.push(`${listed.length - index} of ${listed.length} elements not looked at (past the ${DISCOVERY_BUDGET_MS} ms discovery takes at most; annotate a part of the page with annotation_target "custom")`);
        break;
      }
      // under a modal only the modal is there to act on (and what it opened, though portalled elsewhere)
      if (modal && !flatContains(modal, element) && !overlayOf(element, overlays)) continue;
      const place = placeOf(element, scope.offset, transparentOk);
      if (!place || (anyInert && inert(element))) continue;
      // aria-hidden content is not there for assistive technology: not an interactive target either
      if (interactive && closestAcross(element, '[aria-hidden="true"]')) continue;
      if (place.where === 'in') {
        if (uncovered(element, place.box, scope.offset)) found.push({ element, box: place.box, scope });
        else if (interactive) found.push(...passedThrough(element, place.box, scope, scopeList, found));
      } else if (interactive) {
        outside[place.where].push({ element, box: place.box, scope });
      }
    }
    if (interactive) found = withoutNested(found);
    const ordered = numberingOrder(found, overlays);
    const marks = ordered.slice(0, max).map(({ element, box, scope }) => ({
      element,
      entry: {
        ...selectorFields(scopedSelector(element, scope), scopedStructural(element, scope)),
        ...describe(element),
        bounds: roundBox(box),
      },
    }));
    if (since && changes !== null) return { page: pageSummary(), changes: changesSince(since, marks, changes) };
    const unchanged = since !== null && unchangedSince(since, marks);
    const answer = {
      page: pageSummary(),
      annotation: unchanged ? since : keepAnnotation(marks),
      total_found: ordered.length,
      elements: marks.map(({ entry }) => entry),
      ...(unchanged ? { unchanged } : {}),
    };
    if (interactive) answer.outside_viewport = outsideViewport(outside);
    const frames = crossOriginFrames(scopeList);
    if (frames) leftOut.push(`${frames} cross-origin frame${frames > 1 ? 's' : ''} in the viewport, not looked into (act there by x/y)`);
    if (listed.clickablesCut) leftOut.push('clickables without a role not all looked for (past the discovery time)');
    if (leftOut.length) answer.left_out = leftOut;
    return answer;
  }

  // How many interactive elements are above and below the viewport, and the nearest few of each.
  function outsideViewport({ above, below }) {
    above.sort((a, b) => (b.box.y + b.box.height) - (a.box.y + a.box.height));
    below.sort((a, b) => a.box.y - b.box.y);
    const listed = (items) => ({
      count: items.length,
      elements: items.slice(0, OUTSIDE_LISTED).map(({ element, scope }) => {
        const { role, name } = identify(element);
        return { ...selectorFields(scopedSelector(element, scope), scopedStructural(element, scope)), role, name };
      }),
    });
    return { above: listed(above), below: listed(below) };
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
        ...selectorFields(selectorFor(form, document), structuralSelector(form)),
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
