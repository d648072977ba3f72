// Page-side library, the page's structure: text helpers, the scopes a page
// is made of (document, open shadow roots, same-origin frames), where things
// are, and what is at a point.

(() => {
  if (globalThis.__tabsight) return;

  const MAX_TEXT = 100;
  const MAX_TITLE = 1000;
  const MAX_URL = 4096;
  const INTERACTIVE = [
    'a[href]', 'area[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'details > summary',
    'select[multiple] option', 'select[size] option',
    'video[controls]', 'audio[controls]', '[onclick]', '[tabindex]:not([tabindex="-1"])',
    '[contenteditable]:not([contenteditable=false])',
    // a grid's cell that can be selected (a calendar's day): ARIA's gridcell widget with aria-selected
    '[role=gridcell][aria-selected]',
    ...['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
      'switch', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'listbox']
      .map((role) => `[role=${role}]`),
  ].join(',');
  // The ARIA roles of what a user operates (WAI-ARIA 1.2's widget roles but the containers: grid, menu,
  // tablist, tree...; a listbox is one, as Chrome exposes a <select size> as one).
  const WIDGET_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'switch', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem',
    'listbox']);
  // Code editors (Ace, CodeMirror 5 and 6, Monaco): each is one editable element, its inner parts are not.
  const EDITORS = '.ace_editor, .CodeMirror, .cm-editor, .monaco-editor';

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
        let inner = hit.shadowRoot.elementFromPoint(x, y);
        // slotted text is hit as its host: it is shown in the innermost element of the shadow tree there
        if (inner === hit) inner = hit.shadowRoot.elementsFromPoint(x, y).find((e) => e !== hit && hit.shadowRoot.contains(e));
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

  // The element that has the keyboard focus, inside open shadow roots and
  // same-origin frames (a cross-origin frame's own element, when it is there).
  function deepActiveElement() {
    let active = document.activeElement;
    for (;;) {
      if (active?.shadowRoot?.activeElement) {
        active = active.shadowRoot.activeElement;
      } else if (active && (active.localName === 'iframe' || active.localName === 'frame')) {
        const inner = frameDocument(active);
        if (!inner) return active;
        active = inner.activeElement;
      } else {
        return active;
      }
    }
  }

  // ---- what the page's own world knows: ElementInternals defaults, click listeners ----

  // What main-world/semantics.js knows of each element of a document ({role, label, checked, ..., click}), as a Map.
  // Read once per document and task (isolated-world/semantics.js's call, in that document's own window), so one call of
  // the library sees one picture; a document the relay is not in (loaded before the extension) knows nothing.
  let semanticsByDocument = null;
  function knownSemantics(doc = document) {
    if (!semanticsByDocument) {
      semanticsByDocument = new Map();
      setTimeout(() => { semanticsByDocument = null; }, 0);
    }
    let known = semanticsByDocument.get(doc);
    if (!known) {
      try {
        known = doc.defaultView?.__tabsightSemantics?.();
      } catch {
        known = null;
      }
      known ??= new Map();
      semanticsByDocument.set(doc, known);
    }
    return known;
  }

  const semanticsOf = (element) => knownSemantics(element.ownerDocument).get(element);

  const roundBox = ({ x, y, width, height }) =>
    ({ x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) });

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

  Object.assign(globalThis.__tabsightParts ??= {}, { MAX_TITLE, MAX_URL, INTERACTIVE, WIDGET_ROLES, EDITORS, documentId, collapse, clip, quote, scopes, frameDocument, frameOffset, deepElementFromPoint, composedContains, hits, inert, roundBox, deepActiveElement, semanticsOf, knownSemantics, attached, offsetOf, framesAround, shortName, hitName, interactiveAround });
})();
