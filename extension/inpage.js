// The page-side library: finds, names and locates elements, and watches what
// an action changes. Injected as a classic script into the extension's
// isolated world, once per document (it sees the page's DOM but none of its
// globals, so a page cannot skew it), and called through
// globalThis.__tabsight. A new document starts without it: its documentId is
// how a label from an older page is recognised.
//
// A label stands for the element it marked, not for a selector: each
// annotation `find` makes keeps, under an id it returns, label -> a WeakRef
// to the element and its fingerprint (tag, role, name). An action by label
// acts on that element or on nothing (stale_label): gone, replaced, or no
// longer the role and name it had. Only the latest MAX_ANNOTATIONS are kept.

// A classic script cannot import errors.js: the `error` values its functions
// return are codes of that vocabulary, written out (a test checks each one).
(() => {
  if (globalThis.__tabsight) return;

  const MAX_TEXT = 100;
  const MAX_TITLE = 1000;
  const MAX_URL = 4096;
  const INTERACTIVE = [
    'a[href]', 'area[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary',
    'video[controls]', 'audio[controls]', '[onclick]', '[tabindex]:not([tabindex="-1"])',
    '[contenteditable]:not([contenteditable=false])',
    ...['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
      'switch', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'listbox']
      .map((role) => `[role=${role}]`),
  ].join(',');
  const TEST_ID_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
  // Attributes that name an element well enough to select it by (after
  // test ids, id and aria-label): the "role + name" step of the chain.
  const NAMING_ATTRIBUTES = ['name', 'placeholder', 'title', 'alt', 'href', 'for', 'value', 'type'];
  const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number',
    'date', 'datetime-local', 'month', 'time', 'week']);
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'columnheader',
    'rowheader', 'tooltip', '']);
  // Class names that build tools generate change with every build: useless in selectors.
  const GENERATED_CLASS = /\d{3}|^(css|sc|jsx|svelte|emotion)-|__[a-z0-9]{5}/i;
  const SCOPE_SEPARATOR = ' >>> ';
  const MAX_ANNOTATIONS = 5;

  const documentId = crypto.randomUUID();
  const collapse = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  // A page decides how long its texts are: cut ones say so, with their length
  // (the front keeps that length when it cuts again).
  const clip = (text, max = MAX_TEXT) => (text.length <= max ? text : `${text.slice(0, max)}… [truncated: ${text.length} chars]`);
  const quote = (value) => `"${value.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;

  // ---- scopes: the document, open shadow roots, same-origin iframes ----

  // Yields { root, hosts, offset } for the document and every open shadow
  // root and same-origin iframe inside it. `hosts` is the chain of
  // [host element, the root it is in] leading there (its selector is only
  // worked out for scopes something is found in); `offset` maps the scope's
  // viewport to the top one.
  function* scopes(root = document, hosts = [], offset = { x: 0, y: 0 }) {
    yield { root, hosts, offset };
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) {
        yield* scopes(host.shadowRoot, [...hosts, [host, root]], offset);
      } else if (host.localName === 'iframe' || host.localName === 'frame') {
        const inner = frameDocument(host);
        if (inner) yield* scopes(inner, [...hosts, [host, root]], frameOffset(host, offset));
      }
    }
  }

  function scopedSelector(element, scope) {
    return [...scope.hosts.map(([host, root]) => selectorFor(host, root)), selectorFor(element, scope.root)]
      .join(SCOPE_SEPARATOR);
  }

  function frameDocument(frame) {
    try {
      return frame.contentDocument; // null, or a throw, when cross-origin
    } catch {
      return null;
    }
  }

  // Where the frame's own viewport starts, in top-viewport pixels: inside its border and padding.
  function frameOffset(frame, offset) {
    const rect = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    return {
      x: offset.x + rect.left + frame.clientLeft + parseFloat(style.paddingLeft),
      y: offset.y + rect.top + frame.clientTop + parseFloat(style.paddingTop),
    };
  }

  // The topmost element at a top-viewport point, looking into open shadow
  // roots and same-origin frames.
  function deepElementFromPoint(x, y) {
    let doc = document;
    for (;;) {
      let hit = doc.elementFromPoint(x, y);
      if (!hit) return null;
      while (hit.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      const inner = (hit.localName === 'iframe' || hit.localName === 'frame') && frameDocument(hit);
      if (!inner) return hit;
      const origin = frameOffset(hit, { x: 0, y: 0 });
      x -= origin.x;
      y -= origin.y;
      doc = inner;
    }
  }

  // Is `node` `ancestor` or inside it, across shadow boundaries?
  function composedContains(ancestor, node) {
    for (let n = node; n; n = n.parentNode ?? n.host) if (n === ancestor) return true;
    return false;
  }

  // Does a pointer on `hit` act on `element`: is it the element, inside it, or
  // in a <label> of it (a click on a label is a click on its control)?
  function hits(element, hit) {
    return !!hit && (composedContains(element, hit) || hit.closest?.('label')?.control === element);
  }

  function inert(element) {
    for (let n = element; n; n = n.parentElement ?? n.getRootNode().host) {
      if (n.inert) return true;
    }
    return false;
  }

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

  const roundBox = ({ x, y, width, height }) =>
    ({ x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) });

  // ---- labels: the elements an annotation marked ----

  const annotations = new Map(); // id -> [{ ref: WeakRef<Element>, print: {tag, role, name} }], oldest first

  function keepAnnotation(elements) {
    const id = crypto.randomUUID();
    annotations.set(id, elements.map((element) => ({ ref: new WeakRef(element), print: fingerprint(element) })));
    while (annotations.size > MAX_ANNOTATIONS) annotations.delete(annotations.keys().next().value);
    return id;
  }

  function fingerprint(element) {
    const role = roleOf(element);
    return { tag: element.localName, role, name: clip(nameOf(element, role)) };
  }

  const printed = ({ tag, role, name }) => `<${tag}>${role ? ` ${role}` : ''} ${JSON.stringify(name)}`;

  // Is the element still in this page: in its document, and its frames in theirs?
  function attached(element) {
    if (!element.isConnected) return false;
    for (let win = element.ownerDocument.defaultView; win !== window; win = win.parent) {
      const frame = win?.frameElement;
      if (!frame || !frame.isConnected || win.parent === win) return false;
    }
    return true;
  }

  // Where an element's scope starts, in top-viewport pixels (the frames it is in).
  function offsetOf(element) {
    let offset = { x: 0, y: 0 };
    for (const frame of framesAround(element).reverse()) offset = frameOffset(frame, offset);
    return offset;
  }

  // The element label `label` of annotation `annotation` marked, with its
  // scope's offset; or stale_label if that element is not there as it was.
  function resolveLabel({ annotation, label }) {
    const stale = (why) => ({ error: 'stale_label', message: `label ${label} is stale: observe again (${why})` });
    const mark = annotations.get(annotation)?.[label - 1];
    if (!mark) return stale('this page no longer keeps its annotation');
    const element = mark.ref.deref();
    if (!element || !attached(element)) return stale('the element it marked is gone from the page');
    const now = fingerprint(element);
    if (now.tag !== mark.print.tag || now.role !== mark.print.role || now.name !== mark.print.name) {
      return stale(`the element it marked was ${printed(mark.print)}, now ${printed(now)}`);
    }
    return { element, offset: offsetOf(element) };
  }

  // A target: a selector path, or {annotation, label, selector?} (a label).
  const resolveTarget = (target) => (typeof target === 'string' ? resolve(target) : resolveLabel(target));
  const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

  // ---- selectors ----

  function matchesOnly(root, selector, element) {
    try {
      const all = root.querySelectorAll(selector);
      return all.length === 1 && all[0] === element;
    } catch {
      return false;
    }
  }

  // The first selector of the chain that matches exactly `element` in `root`:
  // test id > #id > aria-label > tag with a naming attribute (role + name) >
  // tag with a stable class > CSS path.
  function selectorFor(element, root) {
    const tag = CSS.escape(element.localName);
    const tries = [];
    for (const name of TEST_ID_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value) tries.push(`[${name}=${quote(value)}]`, `${tag}[${name}=${quote(value)}]`);
    }
    if (element.id) tries.push(`#${CSS.escape(element.id)}`);
    const label = element.getAttribute('aria-label');
    if (label) tries.push(`[aria-label=${quote(label)}]`, `${tag}[aria-label=${quote(label)}]`);
    const role = element.getAttribute('role');
    for (const name of NAMING_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (!value || value.length > 200) continue;
      tries.push(`${tag}[${name}=${quote(value)}]`);
      if (role) tries.push(`${tag}[role=${quote(role)}][${name}=${quote(value)}]`);
    }
    for (const cls of element.classList) {
      if (!GENERATED_CLASS.test(cls)) tries.push(`${tag}.${CSS.escape(cls)}`);
    }
    return tries.find((selector) => matchesOnly(root, selector, element)) ?? cssPath(element, root);
  }

  // tag:nth-of-type steps up from the element until the path is unique,
  // anchored at an ancestor's #id when there is one on the way.
  function cssPath(element, root) {
    let path = '';
    for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      if (node !== element && node.id && matchesOnly(root, `#${CSS.escape(node.id)}`, node)) {
        path = `#${CSS.escape(node.id)} > ${path}`;
        if (matchesOnly(root, path, element)) return path;
        continue;
      }
      let nth = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === node.localName) nth++;
      }
      const step = `${CSS.escape(node.localName)}:nth-of-type(${nth})`;
      path = path ? `${step} > ${path}` : step;
      if (matchesOnly(root, path, element)) return path;
    }
    // In a shadow root the path cannot reach a document root; :scope anchors it.
    return matchesOnly(root, `:scope > ${path}`, element) ? `:scope > ${path}` : path;
  }

  // The element a selector path (scopes joined by " >>> ") names, with the
  // offset of its scope; or { error } saying what did not match.
  function resolve(selectorPath) {
    const parts = selectorPath.split(SCOPE_SEPARATOR);
    let root = document;
    let offset = { x: 0, y: 0 };
    for (const [index, part] of parts.entries()) {
      let matches;
      try {
        matches = root.querySelectorAll(part);
      } catch (err) {
        return { error: 'invalid_selector', message: `Invalid selector: ${part} (${err.message})` };
      }
      if (matches.length === 0) return { error: 'element_not_found', message: `Element not found: ${selectorPath}` };
      if (matches.length > 1) {
        return { error: 'ambiguous_selector', message:
          `Selector ${selectorPath} matches ${matches.length} elements; make it match one, or use a label` };
      }
      const [element] = matches;
      if (index === parts.length - 1) return { element, offset };
      if (element.shadowRoot) {
        root = element.shadowRoot;
      } else if (frameDocument(element)) {
        offset = frameOffset(element, offset);
        root = frameDocument(element);
      } else {
        return { error: 'element_not_found', message: `${part} in ${selectorPath} has no open shadow root or same-origin frame` };
      }
    }
    return { error: 'element_not_found', message: `Element not found: ${selectorPath}` };
  }

  // ---- roles, names, hints ----

  function roleOf(element) {
    const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = element.localName;
    if (/^h[1-6]$/.test(tag)) return 'heading';
    switch (tag) {
      case 'a': case 'area': return element.hasAttribute('href') ? 'link' : '';
      case 'button': case 'summary': return 'button';
      case 'select': return element.multiple || element.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'option': return 'option';
      case 'img': return element.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'dialog': return 'dialog';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'form': return 'form';
      case 'ul': case 'ol': return 'list';
      case 'li': return 'listitem';
      case 'table': return 'table';
      case 'input': return inputRole(element);
      default: return element.isContentEditable ? 'textbox' : '';
    }
  }

  function inputRole(input) {
    const type = input.type;
    if (type === 'checkbox' || type === 'radio') return type;
    if (type === 'range') return 'slider';
    if (type === 'number') return 'spinbutton';
    if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
    if (input.hasAttribute('list')) return 'combobox';
    return type === 'search' ? 'searchbox' : 'textbox';
  }

  // Accessible name, after the accname rules that matter in practice:
  // aria-labelledby, aria-label, labels (for= and wrapping), alt, a button's
  // value, content (for roles named by it), title, placeholder.
  function nameOf(element, role) {
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) {
      const root = element.getRootNode();
      const text = labelledBy.split(/\s+/)
        .map((id) => (root.getElementById?.(id) ?? document.getElementById(id))?.textContent ?? '')
        .join(' ');
      if (collapse(text)) return collapse(text);
    }
    const label = collapse(element.getAttribute('aria-label'));
    if (label) return label;
    if (element.labels?.length) {
      const text = collapse([...element.labels].map((l) => textWithout(l, element)).join(' '));
      if (text) return text;
    }
    if (['img', 'area'].includes(element.localName) || (element.localName === 'input' && element.type === 'image')) {
      const alt = collapse(element.getAttribute('alt'));
      if (alt) return alt;
    }
    if (element.localName === 'input' && ['submit', 'reset', 'button'].includes(element.type)) {
      return collapse(element.value) || { submit: 'Submit', reset: 'Reset' }[element.type] || '';
    }
    if (NAME_FROM_CONTENT.has(role) && !['input', 'select', 'textarea'].includes(element.localName)) {
      const text = collapse(element.innerText ?? element.textContent);
      if (text) return text;
    }
    return collapse(element.getAttribute('title')) || collapse(element.getAttribute('placeholder'));
  }

  // A label's text without the control it wraps (a select's options, say).
  function textWithout(label, control) {
    let text = '';
    const walk = (node) => {
      if (node === control) return;
      if (node.nodeType === Node.TEXT_NODE) text += node.data;
      else node.childNodes.forEach(walk);
    };
    walk(label);
    return text;
  }

  function hintOf(element, role) {
    const tag = element.localName;
    if (tag === 'textarea' || element.isContentEditable || ['textbox', 'searchbox'].includes(role) ||
      (tag === 'input' && TEXT_INPUT_TYPES.has(element.type))) return 'editable';
    if (tag === 'select' || ['listbox', 'option', 'combobox'].includes(role)) return 'selectable';
    if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role) ||
      tag === 'summary' || element.hasAttribute('aria-pressed')) return 'toggleable';
    if (role === 'link') return 'navigable';
    return 'clickable';
  }

  // Text a reader sees, but never what is typed into a field.
  function visibleText(element) {
    if (element.localName === 'select') return clip(collapse(element.selectedOptions[0]?.text));
    if (['input', 'textarea'].includes(element.localName)) return '';
    return clip(collapse(element.innerText ?? element.textContent));
  }

  function describe(element) {
    const role = roleOf(element);
    return {
      tag: element.localName,
      role,
      name: clip(nameOf(element, role)),
      text: visibleText(element),
      interactionHint: hintOf(element, role),
    };
  }

  // ---- acting: where to point, and what changed ----

  // Scrolls the element into view if needed and returns a top-viewport point
  // on it that is not covered, or { error }.
  function locate(target) {
    const found = locateElement(target);
    delete found.element; // the element itself cannot leave the page
    return found;
  }

  // locate, with the element found (or none with the error).
  function locateElement(target) {
    const selectorPath = targetName(target);
    let found = resolveTarget(target);
    if (found.error) return found;
    const { element } = found;
    if (element.matches(':disabled')) return { error: 'element_disabled', message: `${selectorPath} is disabled` };
    const view = element.ownerDocument.defaultView;
    let rect = element.getBoundingClientRect();
    if (rect.top < 0 || rect.left < 0 || rect.bottom > view.innerHeight || rect.right > view.innerWidth) {
      element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      found = resolveTarget(target); // its frame may have scrolled too
      if (found.error) return found;
      rect = element.getBoundingClientRect();
    }
    if (rect.width < 1 || rect.height < 1 || !element.checkVisibility({ checkVisibilityCSS: true })) {
      return { error: 'element_not_visible', message: `${selectorPath} is not visible` };
    }
    const frame = found.offset;
    const points = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]];
    let blocker = null;
    for (const [fx, fy] of points) {
      const x = frame.x + rect.left + rect.width * fx;
      const y = frame.y + rect.top + rect.height * fy;
      const hit = deepElementFromPoint(x, y);
      if (hits(element, hit)) return { element, x, y, target: describe(element) };
      blocker ??= hit;
    }
    return { error: 'element_covered', message:
      `${selectorPath} is covered by ${blocker ? hitName(blocker) : 'something'}; close it or scroll first` };
  }

  function shortName(element) {
    const id = element.id ? `#${element.id}` : '';
    const cls = [...element.classList].slice(0, 2).map((c) => `.${c}`).join('');
    return `<${element.localName}${id}${cls}>`;
  }

  // An element as an error names it: <button#delete> "Delete" (the interactive
  // element a hit is in, when there is one: the button, not its inner span).
  function hitName(hit) {
    const element = interactiveAround(hit);
    const text = collapse(element.innerText ?? element.textContent).slice(0, 40);
    return text ? `${shortName(element)} ${JSON.stringify(text)}` : shortName(element);
  }

  function interactiveAround(hit) {
    for (let n = hit; n; n = n.parentElement ?? n.getRootNode?.().host) {
      if (n.nodeType === Node.ELEMENT_NODE && n.matches(INTERACTIVE)) return n;
    }
    return hit;
  }

  // ---- the hit-target guard ----
  //
  // Between aiming and the end of a pointer action, capture listeners on the
  // window (and every same-origin frame's) see each trusted pointer and mouse
  // event of the action first. One whose composed path does not reach the
  // target (the page moved it, or put something over it, after the last
  // check) is stopped before the page sees it, with preventDefault and
  // stopImmediatePropagation, and so is every later one of that action: the
  // wrong element never gets a press, a release or a click. The act side
  // checks the point again between moving and pressing (checkHit), and reads
  // what happened at the end (disarm); a guard left armed (its call was
  // interrupted) ends by itself after GUARD_MAX_MS.
  const MOVE_EVENTS = ['pointermove', 'mousemove', 'pointerover', 'mouseover', 'pointerenter', 'mouseenter'];
  const PRESS_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];
  const GUARDED = { hover: new Set(MOVE_EVENTS), click: new Set([...MOVE_EVENTS, ...PRESS_EVENTS]) };
  const GUARD_MAX_MS = 5000;
  let guard = null;

  // click/hover: locate the target (or take the point) and guard it from now on.
  function aim(target, point, action) {
    let found = { element: null, x: point?.x, y: point?.y, target: null };
    if (target) {
      found = locateElement(target);
      if (found.error) return found;
    }
    disarm();
    const windows = guardWindows(found.element);
    const id = crypto.randomUUID();
    const current = {
      id, element: found.element, x: found.x, y: found.y, types: GUARDED[action], windows,
      frames: framesAround(found.element),
      passed: [], blocked: null, received: null,
      expiry: setTimeout(() => disarm(id), GUARD_MAX_MS),
    };
    current.listener = (event) => intercept(current, event);
    for (const win of windows) {
      for (const type of GUARDED.click) win.addEventListener(type, current.listener, { capture: true, passive: false });
    }
    guard = current;
    delete found.element; // the element itself cannot leave the page
    return { ...found, guard: id };
  }

  // The top window and every same-origin frame's, and the target's own.
  function guardWindows(element) {
    const windows = new Set([window]);
    const visit = (doc) => {
      for (const frame of doc.querySelectorAll('iframe, frame')) {
        const inner = frameDocument(frame);
        if (inner?.defaultView && !windows.has(inner.defaultView)) {
          windows.add(inner.defaultView);
          visit(inner);
        }
      }
    };
    visit(document);
    const own = element?.ownerDocument.defaultView;
    if (own) windows.add(own);
    return windows;
  }

  // The frame elements a target is inside, innermost first: in the documents
  // above it, a pointer on its way to the target is on one of them.
  function framesAround(element) {
    const frames = [];
    for (let win = element?.ownerDocument.defaultView; win && win !== window; win = win.parent) {
      const frame = win.frameElement;
      if (!frame) break;
      frames.push(frame);
    }
    return frames;
  }

  function intercept(current, event) {
    if (!event.isTrusted || !current.types.has(event.type)) return;
    const path = event.composedPath();
    const hit = path.find((node) => node.nodeType === Node.ELEMENT_NODE) ?? null;
    if (!current.element) {
      // a point: nothing to hold to, only what received the action
      if (hit && (event.type === 'click' || (current.types === GUARDED.hover && event.type === 'mousemove'))) {
        current.received = interactiveAround(hit);
      }
      return;
    }
    // the pointer entering the target's ancestors (a mouseenter on its bar, on its frame) is on its way to it
    const onTheWay = MOVE_EVENTS.includes(event.type) && !!hit &&
      [current.element, ...current.frames].some((inside) => composedContains(hit, inside));
    const onTarget = onTheWay || path.includes(current.element) ||
      path.some((node) => node.localName === 'label' && node.control === current.element);
    if (onTarget && !current.blocked) {
      current.passed.push(event.type);
      return;
    }
    current.blocked ??= { hit: hit ? hitName(hit) : 'nothing', types: [] };
    if (!current.blocked.types.includes(event.type)) current.blocked.types.push(event.type);
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  // Between the move and the press: is the target still what the point hits?
  function checkHit(id) {
    if (!guard || guard.id !== id || !guard.element) return { ok: true };
    const { element, x, y } = guard;
    if (guard.blocked) return { ok: false, ...guard.blocked };
    const hit = deepElementFromPoint(x, y);
    if (hits(element, hit)) return { ok: true };
    return { ok: false, hit: hit ? hitName(hit) : 'nothing', gone: !element.isConnected };
  }

  // The end of the action: the listeners go, and what happened comes back.
  function disarm(id = undefined) {
    const current = guard;
    if (!current || (id !== undefined && current.id !== id)) return null;
    guard = null;
    clearTimeout(current.expiry);
    for (const win of current.windows) {
      for (const type of GUARDED.click) win.removeEventListener(type, current.listener, { capture: true });
    }
    const { element, x, y, blocked } = current;
    return {
      passed: current.passed,
      // what was held back, and what is at the point now
      blocked: blocked && {
        ...blocked, now: hitName(deepElementFromPoint(x, y) ?? document.documentElement), gone: !element.isConnected,
      },
      received: current.received ? describe(current.received) : null,
    };
  }

  // Mutation counts since watch() and a few of the elements added, to tell
  // the agent what its action changed.
  const changes = { added: 0, removed: 0, attributes: 0, text: 0, samples: [], last: 0 };
  let observer = null;

  function watch() {
    Object.assign(changes, { added: 0, removed: 0, attributes: 0, text: 0, samples: [], last: performance.now() });
    observer?.disconnect();
    observer = new MutationObserver((records) => {
      changes.last = performance.now();
      for (const record of records) {
        if (record.type === 'attributes') changes.attributes++;
        else if (record.type === 'characterData') changes.text++;
        changes.removed += record.removedNodes.length;
        for (const node of record.addedNodes) {
          changes.added++;
          if (node.nodeType === Node.ELEMENT_NODE && changes.samples.length < 3) {
            const text = collapse(node.innerText ?? node.textContent).slice(0, 80);
            changes.samples.push(text ? `${shortName(node)} "${text}"` : shortName(node));
          } else if (node.nodeType === Node.TEXT_NODE && node.data.trim()) {
            changes.text++;
          }
        }
      }
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    return documentId;
  }

  function changed() {
    const { added, removed, attributes, text, samples, last } = changes;
    return {
      document: documentId,
      url: clip(location.href, MAX_URL),
      title: clip(document.title, MAX_TITLE),
      quiet_ms: Math.round(performance.now() - last),
      dom: { added, removed, attributes, text, samples },
    };
  }

  // type/press into an element: give it the keyboard focus (no click, so
  // nothing else happens first).
  function focus(target) {
    const found = locateElement(target);
    found.element?.focus();
    delete found.element;
    return found;
  }

  // select: by value, else by visible text.
  function selectOption(target, wanted) {
    const selectorPath = targetName(target);
    const found = resolveTarget(target);
    if (found.error) return found;
    const select = found.element;
    if (select.localName !== 'select') return { error: 'bad_request', message: `${selectorPath} is a <${select.localName}>, not a <select>` };
    const option = [...select.options].find((o) => o.value === wanted) ??
      [...select.options].find((o) => collapse(o.text) === collapse(wanted));
    if (!option) {
      const choices = [...select.options].slice(0, 20).map((o) => JSON.stringify(o.value)).join(', ');
      return { error: 'bad_request', message: `No option ${JSON.stringify(wanted)} in ${selectorPath}; options: ${choices}` };
    }
    select.value = option.value;
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: option.value, text: collapse(option.text), target: describe(select) };
  }

  // wait_for: is the selector's element there and visible, or the text on the page?
  function present({ selector, text }) {
    if (selector) {
      const found = resolve(selector);
      if (found.error === 'invalid_selector') return found;
      return { present: !found.error && found.element.checkVisibility({ checkVisibilityCSS: true }) };
    }
    return { present: collapse(document.body?.innerText).includes(collapse(text)) };
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

  globalThis.__tabsight = {
    documentId, summary, find, locate, focus, watch, changed, selectOption, present, aim, checkHit, disarm,
  };
})();
