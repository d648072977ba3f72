// Page-side library, what an element is to a user: role, accessible name,
// how it is operated (interactionHint) and the text it shows.

(() => {
  if (globalThis.__tabsight) return;
  const { collapse, clip } = globalThis.__tabsightParts;

  const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number',
    'date', 'datetime-local', 'month', 'time', 'week']);
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'columnheader',
    'rowheader', 'tooltip', '']);

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

  Object.assign(globalThis.__tabsightParts ??= {}, { roleOf, nameOf, describe });
})();
