// Page-side library, selectors: a CSS selector for an element that matches
// it alone, and the element a selector path names.

(() => {
  if (globalThis.__tabsight) return;
  const { quote, frameDocument, frameOffset } = globalThis.__tabsightParts;

  const TEST_ID_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
  // Attributes that name an element well enough to select it by (after
  // test ids, id and aria-label): the "role + name" step of the chain.
  const NAMING_ATTRIBUTES = ['name', 'placeholder', 'title', 'alt', 'href', 'for', 'value', 'type'];

  // Class names that build tools generate change with every build: useless in selectors.
  const GENERATED_CLASS = /\d{3}|^(css|sc|jsx|svelte|emotion)-|__[a-z0-9]{5}/i;
  const SCOPE_SEPARATOR = ' >>> ';

  function scopedSelector(element, scope) {
    return [...scope.hosts.map(([host, root]) => selectorFor(host, root)), selectorFor(element, scope.root)]
      .join(SCOPE_SEPARATOR);
  }

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

  Object.assign(globalThis.__tabsightParts ??= {}, { scopedSelector, selectorFor, resolve });
})();
