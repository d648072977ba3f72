// Page-side library, what an element is to a user: role, accessible name,
// state, how it is operated (interactionHint) and the text it shows; and
// which control a visible stand-in (the label of a visually hidden radio)
// stands for.

(() => {
  if (globalThis.__tabsight) return;
  const {
    INTERACTIVE, EDITORS, collapse, clip, semanticsOf, offsetOf, deepElementFromPoint, composedContains,
  } = globalThis.__tabsightParts;

  const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number',
    'date', 'datetime-local', 'month', 'time', 'week']);
  // Roles named by their content (accname 1.2, "name from content"); '' is
  // ours: a clickable element without a role is named by what it shows.
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'gridcell', 'columnheader',
    'rowheader', 'row', 'tooltip', '']);
  const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  // Inputs that pages hide and show through a styled stand-in: a label, or the custom element hosting them.
  const HIDEABLE = 'input[type=checkbox], input[type=radio], input[type=file]';
  const VALUE_HIDDEN_TYPES = new Set(['password', 'checkbox', 'radio', 'button', 'submit', 'reset', 'image',
    'file', 'hidden']);
  const MAX_OPTIONS = 10;
  // Attributes holding a test id (as in selectors.js).
  const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
  // The longest text taken for a field's caption: more is a paragraph, not a caption.
  const MAX_CAPTION = 60;
  // The most elements a name's content walk visits.
  const MAX_NAME_ELEMENTS = 500;
  const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);
  // Elements drawn as a box of their own even when inline: in a name, spaces set them apart.
  const REPLACED = new Set(['img', 'input', 'select', 'textarea', 'button', 'video', 'audio', 'iframe', 'canvas',
    'svg', 'object', 'embed', 'br']);
  const TEXT_TRANSFORMS = {
    uppercase: (text) => text.toUpperCase(),
    lowercase: (text) => text.toLowerCase(),
    capitalize: (text) => text.replace(/(^|\s)(\S)/g, (_, space, letter) => space + letter.toUpperCase()),
  };
  // An editor's text lines, in the DOM of Ace, CodeMirror 5, CodeMirror 6 and Monaco.
  const EDITOR_LINES = '.ace_line, .CodeMirror-line, .cm-line, .view-line';
  // An editor's own editing element: the textarea or contenteditable that takes the keys.
  const EDITOR_INPUT = 'textarea, [contenteditable]:not([contenteditable=false]), .native-edit-context';

  // ---- the flat tree: what is rendered, shadow trees and slotted nodes in place ----

  // A node's children as rendered: its shadow root's, a slot's assigned nodes (else its fallback).
  function flatChildren(node) {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node.localName === 'slot') {
      const assigned = node.assignedNodes();
      return assigned.length ? assigned : node.childNodes;
    }
    return node.childNodes;
  }

  // ---- roles ----

  // WAI-ARIA 1.2's roles (abstract ones left out): the first of these in a role attribute is the role.
  const ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox ' +
    'code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis ' +
    'feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main mark ' +
    'marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph ' +
    'presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator ' +
    'slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time ' +
    'timer toolbar tooltip tree treegrid treeitem').split(' '));

  const firstRole = (value) => value?.trim().toLowerCase().split(/\s+/).find((token) => ARIA_ROLES.has(token)) ?? '';

  // Chrome's role: the role attribute's first known role, else the role a custom element gives itself through
  // ElementInternals (main-world/semantics.js), else the element's own (HTML-AAM).
  function roleOf(element) {
    if (element.matches(EDITORS)) return 'textbox';
    const explicit = firstRole(element.getAttribute('role')) || firstRole(semanticsOf(element)?.role);
    if (explicit && !(['none', 'presentation'].includes(explicit) && focusable(element))) return explicit;
    const tag = element.localName;
    if (/^h[1-6]$/.test(tag)) return 'heading';
    switch (tag) {
      case 'a': case 'area': return element.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      // a summary is a button only as its details' own summary
      case 'summary': return element.parentElement?.localName === 'details' ? 'button' : '';
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
    if (['button', 'submit', 'reset', 'image', 'file'].includes(type)) return 'button';
    if (input.hasAttribute('list')) return 'combobox';
    return type === 'search' ? 'searchbox' : 'textbox';
  }

  // ---- accessible names (accname 1.2, as Chrome computes them) ----

  // The accessible name: aria-labelledby (ids in the element's own tree),
  // aria-label, the native sources (<label>s, alt, an input button's value,
  // an svg's <title>), content for roles named by it (the flat tree: slotted
  // text and shadow trees in place, CSS generated text, without what is
  // hidden), then title and placeholder.
  function nameOf(element, role = roleOf(element)) {
    if (element.matches(EDITORS)) return editorName(element);
    return collapse(alternative(element, naming(element, role)));
  }

  // What naming `root` keeps track of: the nodes visited, whether within
  // aria-labelledby or hidden content, and how many elements were walked
  // (a name is cut at 100 characters: a huge subtree is not walked whole).
  const naming = (root, role, labelledBy = false) =>
    ({ root, role, visited: new Set(), labelledBy, hiddenOk: false, walked: { count: 0 } });

  // accname's text alternative of `node` while naming ctx.root.
  function alternative(node, ctx) {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE || ctx.visited.has(node)) return '';
    ctx.visited.add(node);
    const element = node;
    const isRoot = element === ctx.root;
    const role = isRoot ? ctx.role : roleOf(element);
    if (!ctx.labelledBy) {
      const refs = idRefs(element, 'aria-labelledby');
      if (refs.length) {
        // each reference fresh: a control may name itself among others (aria-labelledby="self other")
        const text = refs.map((ref) => alternative(ref, {
          ...ctx, visited: new Set(), labelledBy: true, hiddenOk: ctx.hiddenOk || hiddenFromNames(ref),
        })).join(' ');
        if (text.trim()) return text;
      }
    }
    if (!isRoot) {
      const value = embeddedValue(element, role);
      if (value !== null) return value;
    }
    const label = ariaOf(element, 'aria-label');
    if (label?.trim()) return label;
    if (isRoot) {
      // a labelled control is named by its labels alone, the hidden ones left out: Chrome falls back to
      // neither content, title nor placeholder, even when they say nothing
      const labels = labelsOf(element);
      if (labels.length) return labels.map((labelElement) => (hiddenFromNames(labelElement) ? '' : alternative(labelElement, ctx))).join(' ');
    }
    const native = nativeName(element);
    if (native.trim()) return native;
    // a form control has no content to be named by (an input's ::after is no text of its own)
    if ((!isRoot || ctx.labelledBy || NAME_FROM_CONTENT.has(role)) && !FORM_CONTROLS.has(element.localName)) {
      const text = contentOf(element, ctx);
      if (text.trim()) return text;
    }
    const title = element.getAttribute('title');
    if (title?.trim()) return title;
    if (isRoot && ['input', 'textarea'].includes(element.localName)) return element.getAttribute('placeholder') ?? '';
    return isRoot ? element.getAttribute('aria-placeholder') ?? '' : '';
  }

  // An ARIA attribute's value: the element's own attribute, else the default its ElementInternals gives it.
  function ariaOf(element, attribute) {
    const own = element.getAttribute(attribute);
    if (own !== null) return own;
    return semanticsOf(element)?.[attribute.slice(5)] ?? null;
  }

  // Focusable by the keyboard or a click: a role of none or presentation is then ignored (ARIA's conflict rule).
  const focusable = (element) => element.tabIndex >= 0 && (element.hasAttribute('tabindex') ||
    ['a', 'button', 'input', 'select', 'textarea', 'summary'].includes(element.localName));

  // The elements an id-list attribute names, in the element's own tree (document or shadow root).
  function idRefs(element, attribute) {
    const ids = element.getAttribute(attribute)?.trim();
    if (!ids) return [];
    const root = element.getRootNode();
    return ids.split(/\s+/).map((id) => root.getElementById?.(id)).filter(Boolean);
  }

  // A control inside a label or content: it contributes its value, not its name.
  function embeddedValue(element, role) {
    const tag = element.localName;
    if (tag === 'select') return [...element.selectedOptions].map((option) => option.label).join(' ');
    if (tag === 'textarea' || (tag === 'input' && TEXT_INPUT_TYPES.has(element.type) && element.type !== 'password')) {
      return element.value;
    }
    if (['slider', 'spinbutton', 'scrollbar', 'progressbar'].includes(role)) {
      return ariaOf(element, 'aria-valuetext') ?? ariaOf(element, 'aria-valuenow') ??
        (tag === 'input' ? element.value : null);
    }
    if (role === 'combobox' || role === 'textbox' || role === 'searchbox') {
      return element.querySelector('input')?.value ?? null;
    }
    if (role === 'listbox') {
      const selected = element.querySelector('[role=option][aria-selected=true]');
      return selected ? collapse(selected.textContent) : '';
    }
    return null;
  }

  // The host language's own sources of a name, but <label>s.
  function nativeName(element) {
    const tag = element.localName;
    if (tag === 'img' || tag === 'area' || (tag === 'input' && element.type === 'image')) {
      return element.getAttribute('alt') ?? '';
    }
    if (tag === 'input') {
      if (['submit', 'reset', 'button'].includes(element.type)) {
        return element.value || { submit: 'Submit', reset: 'Reset' }[element.type] || '';
      }
      if (element.type === 'file') return 'Choose File'; // the text of the button Chrome draws
    }
    if (tag === 'svg') {
      const title = [...element.children].find((child) => child.localName === 'title');
      return title?.textContent ?? '';
    }
    return '';
  }

  // The <label>s of a control: its own labels, and those of a form-associated custom element.
  function labelsOf(element) {
    if (element.labels) return [...element.labels];
    if (!element.localName.includes('-')) return [];
    const root = element.getRootNode();
    const found = element.id ? [...root.querySelectorAll(`label[for="${CSS.escape(element.id)}"]`)] : [];
    const wrapping = element.closest('label');
    if (wrapping && !found.includes(wrapping)) found.push(wrapping);
    return found.filter((label) => label.control === element);
  }

  // The text of an element's content: its flat-tree children's alternatives,
  // set apart by spaces but for inline text, hidden ones left out, with CSS
  // generated text, in the case text-transform shows.
  function contentOf(element, ctx) {
    const transform = TEXT_TRANSFORMS[getComputedStyle(element).textTransform];
    let text = generated(element, '::before');
    for (const child of flatChildren(element)) {
      if (child.nodeType === Node.TEXT_NODE) {
        text += transform ? transform(child.data) : child.data;
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (++ctx.walked.count > MAX_NAME_ELEMENTS) break;
        const style = getComputedStyle(child);
        if (!ctx.hiddenOk && (child.getAttribute('aria-hidden') === 'true' || style.display === 'none' ||
          (style.visibility !== 'visible' && child.localName !== 'slot'))) continue;
        // a tree item is named by its own content, not by the items of its nested group (as Chrome names it)
        if (ctx.role === 'treeitem' && ['group', 'tree', 'treeitem'].includes(roleOf(child))) continue;
        const part = alternative(child, ctx);
        const inline = (style.display === 'inline' && !REPLACED.has(child.localName)) || style.display === 'contents';
        text += inline ? part : ` ${part} `;
      }
    }
    return text + generated(element, '::after');
  }

  // The text of a ::before or ::after (its quoted strings), set apart by spaces when it is not inline (an
  // inline-block asterisk before a label's text), as Chrome sets apart any child that is not.
  function generated(element, pseudo) {
    const style = getComputedStyle(element, pseudo);
    const content = style.content;
    if (!content || content === 'none' || content === 'normal') return '';
    const text = [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1].replace(/\\(.)/g, '$1')).join('');
    return style.display === 'inline' || !text ? text : ` ${text} `;
  }

  // Hidden from names: not rendered, visibility:hidden, or aria-hidden.
  function hiddenFromNames(element) {
    if (element.getAttribute('aria-hidden') === 'true') return true;
    const style = getComputedStyle(element);
    return style.display === 'none' || style.visibility !== 'visible';
  }

  // ---- code editors: one editable element each ----

  // The editor's own name, else its editing element's (Monaco names its textarea).
  function editorName(editor) {
    const own = collapse(alternative(editor, naming(editor, 'textbox')));
    if (own) return own;
    const input = editor.querySelector(EDITOR_INPUT);
    return input ? nameOf(input) : '';
  }

  // The first lines of an editor's text, top to bottom (Monaco keeps its line elements in any order).
  function editorText(editor) {
    const lines = [...editor.querySelectorAll(EDITOR_LINES)]
      .map((line) => ({ top: line.getBoundingClientRect().top, text: line.textContent }))
      .sort((a, b) => a.top - b.top);
    return lines.map((line) => line.text).join('\n');
  }

  // ---- stand-ins: a visually hidden input shown by its label or host ----

  // Is this input rendered but not seen: tiny, off the page, clipped away or transparent?
  // (A not rendered one, display:none, is not there at all.)
  function visuallyHidden(control) {
    const rect = control.getBoundingClientRect();
    const view = control.ownerDocument.defaultView;
    if (rect.width < 4 || rect.height < 4 || rect.right + view.scrollX <= 0 || rect.bottom + view.scrollY <= 0) {
      return control.checkVisibility({ checkVisibilityCSS: true });
    }
    const style = view.getComputedStyle(control);
    const clip = style.clip.match(/rect\(([-\d.]+)px,? ([-\d.]+)px,? ([-\d.]+)px,? ([-\d.]+)px\)/);
    if (clip && (clip[3] - clip[1] < 2 || clip[2] - clip[4] < 2)) return true;
    if (/inset\((50|100)%/.test(style.clipPath)) return true;
    return !control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
      control.checkVisibility({ checkVisibilityCSS: true });
  }

  // Hidden by opacity alone (its own or an ancestor's), and not tiny.
  function transparentOnly(control) {
    const rect = control.getBoundingClientRect();
    return rect.width >= 4 && rect.height >= 4 && control.checkVisibility({ checkVisibilityCSS: true }) &&
      !control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  }

  // What a pointer at the element's centre lands on, or null (the centre is outside the viewport).
  function hitAtCentre(element) {
    const rect = element.getBoundingClientRect();
    const offset = offsetOf(element);
    const x = offset.x + rect.left + rect.width / 2;
    const y = offset.y + rect.top + rect.height / 2;
    return x < 0 || y < 0 || x >= innerWidth || y >= innerHeight ? null : deepElementFromPoint(x, y);
  }

  // Does a pointer at the control's centre land on it (or inside it)?
  const reachedItself = (control) => composedContains(control, hitAtCentre(control));

  // Seen: rendered, opaque and not tiny.
  function seen(element) {
    const rect = element.getBoundingClientRect();
    return rect.width >= 4 && rect.height >= 4 && element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  }

  // The element a user sees and clicks for a visually hidden input: its first
  // label that is seen, else the custom element hosting it (unless that has a
  // role of its own: then it is the control), else the nearest of its three
  // closest ancestors that is seen and holds no other control (a switch's
  // track around its hidden checkbox); null when the input is seen itself or
  // nothing shows it.
  function standInOf(control) {
    if (!control.matches(HIDEABLE) || !visuallyHidden(control)) return null;
    const label = labelsOf(control).find(seen);
    if (label) return label;
    // transparent over its own look, where a pointer reaches it: it is what a click operates (Material's checkbox)
    if (transparentOnly(control) && reachedItself(control)) return null;
    const host = control.getRootNode().host;
    if (host) return !host.hasAttribute('role') && seen(host) ? host : null;
    return wrapperOf(control);
  }

  const CONTROLS = 'input:not([type=hidden]), select, textarea, button, a[href], [role]';

  function wrapperOf(control) {
    let wrapper = control.parentElement;
    for (let level = 0; wrapper && level < 3; level++, wrapper = wrapper.parentElement) {
      if ([...wrapper.querySelectorAll(CONTROLS)].some((other) => other !== control)) return null;
      if (wrapper.localName === 'label' || wrapper === control.ownerDocument.body) return null;
      if (seen(wrapper)) return wrapper;
    }
    return null;
  }

  // The element a pointer reaches for a control that lets pointer events
  // through (pointer-events: none) to what holds it: a component whose host
  // takes the clicks for the native button inside it (Ionic's segment
  // buttons). Null when the control takes pointer events itself, or what the
  // pointer meets there does not hold it or is much bigger than it.
  function pointerStandInOf(control) {
    if (getComputedStyle(control).pointerEvents !== 'none') return null;
    const rect = control.getBoundingClientRect();
    const hit = hitAtCentre(control);
    if (!hit || hit === control || !composedContains(hit, control) || hit === hit.ownerDocument.body) return null;
    const box = hit.getBoundingClientRect();
    if (box.width * box.height > 2 * rect.width * rect.height) return null;
    pointerStandIns.set(hit, control);
    return hit;
  }
  const pointerStandIns = new WeakMap(); // stand-in -> the control it was found for

  // The control a user operates through this element: the hidden input it
  // stands in for, or the control that lets its pointer events through to it;
  // else itself.
  function controlOf(element) {
    const control = element.localName === 'label' ? element.control
      : element.shadowRoot?.querySelector(HIDEABLE) ?? element.querySelector(HIDEABLE);
    if (control && standInOf(control) === element) return control;
    const inner = pointerStandIns.get(element);
    return inner?.isConnected && getComputedStyle(inner).pointerEvents === 'none' && composedContains(element, inner)
      ? inner : element;
  }

  // ---- state ----

  // What a user reads off a control: checked, selected, expanded, pressed,
  // disabled, its value and its options; only the keys that apply.
  function stateOf(element, role) {
    const state = {};
    const tag = element.localName;
    const aria = (name) => ariaOf(element, name);
    if (tag === 'input' && (element.type === 'checkbox' || element.type === 'radio')) {
      state.checked = element.indeterminate || aria('aria-checked') === 'mixed' ? 'mixed' : element.checked;
    } else if (CHECKABLE.has(role) || ['true', 'false', 'mixed'].includes(aria('aria-checked'))) {
      state.checked = aria('aria-checked') === 'mixed' ? 'mixed' : aria('aria-checked') === 'true';
    }
    if ((tag === 'option' && element.selected) || aria('aria-selected') === 'true') state.selected = true;
    if (['true', 'false'].includes(aria('aria-expanded'))) {
      state.expanded = aria('aria-expanded') === 'true';
    } else if (tag === 'summary' && role === 'button') {
      state.expanded = element.parentElement.open;
    }
    if (['true', 'false', 'mixed'].includes(aria('aria-pressed'))) {
      state.pressed = aria('aria-pressed') === 'mixed' ? 'mixed' : aria('aria-pressed') === 'true';
    }
    if (element.matches(':disabled') || element.closest('[aria-disabled="true"]') || aria('aria-disabled') === 'true') {
      state.disabled = true;
    }
    const value = valueOf(element, role);
    if (value) state.value = clip(collapse(value));
    const options = optionsOf(element, role);
    if (options) {
      state.options = options.slice(0, MAX_OPTIONS)
        .map((option) => clip(option.localName === 'option' ? collapse(option.label) : nameOf(option, 'option')));
      if (options.length > MAX_OPTIONS) state.options_total = options.length;
    }
    return state;
  }

  // What is in a field, never a password.
  function valueOf(element, role) {
    const tag = element.localName;
    if (element.matches(EDITORS)) return editorText(element);
    if (tag === 'input') return VALUE_HIDDEN_TYPES.has(element.type) ? '' : element.value;
    if (tag === 'textarea') return element.value;
    if (tag === 'select') return [...element.selectedOptions].map((option) => option.label).join(', ');
    if (['slider', 'spinbutton', 'scrollbar', 'progressbar'].includes(role)) {
      return ariaOf(element, 'aria-valuetext') ?? ariaOf(element, 'aria-valuenow') ?? '';
    }
    if (role === 'combobox') {
      const input = element.querySelector('input');
      return input && input.type !== 'password' ? input.value : '';
    }
    return '';
  }

  // A select's options, or the [role=option]s of a listbox (a combobox's: the listbox it controls); else null.
  function optionsOf(element, role) {
    if (element.localName === 'select') return [...element.options];
    const listbox = role === 'listbox' ? element
      : role === 'combobox' ? idRefs(element, 'aria-controls').find((ref) => roleOf(ref) === 'listbox') : null;
    return listbox ? listboxOptions(listbox) : null;
  }

  // The [role=option]s of a listbox, those slotted into it too (Shoelace's sl-select keeps its sl-options in the
  // light DOM, slotted into the listbox of its shadow root: not the listbox's descendants).
  function listboxOptions(listbox) {
    const options = [...listbox.querySelectorAll('[role=option]')];
    for (const slot of listbox.querySelectorAll('slot')) {
      for (const assigned of slot.assignedElements()) {
        if (assigned.matches('[role=option]')) options.push(assigned);
        options.push(...assigned.querySelectorAll('[role=option]'));
      }
    }
    return options;
  }

  // ---- hints and shown text ----

  function hintOf(element, role) {
    const tag = element.localName;
    if (tag === 'input' && element.type === 'file') return 'clickable';
    if (tag === 'textarea' || element.isContentEditable || ['textbox', 'searchbox'].includes(role) ||
      (tag === 'input' && TEXT_INPUT_TYPES.has(element.type))) return 'editable';
    if (tag === 'select' || ['listbox', 'option', 'combobox'].includes(role)) return 'selectable';
    if (CHECKABLE.has(role) || (tag === 'summary' && role === 'button') || element.hasAttribute('aria-pressed')) {
      return 'toggleable';
    }
    if (role === 'link') return 'navigable';
    return 'clickable';
  }

  // Text a reader sees, but never what is typed into a field (an editor's text is its value).
  function visibleText(element) {
    if (element.localName === 'select') return clip(collapse(element.selectedOptions[0]?.text));
    if (['input', 'textarea'].includes(element.localName) || element.matches(EDITORS)) return '';
    const text = collapse(element.innerText ?? element.textContent);
    // innerText leaves out shadow trees and slotted text: a web component's button shows them
    if (text || !(element.shadowRoot || element.querySelector('slot'))) return clip(text);
    return clip(collapse(contentOf(element, naming(element, '', true))));
  }

  // ---- an element, as answers describe it ----

  // What identifies the control behind a mark: tag, role and name (a label's fingerprint).
  function identify(element) {
    const control = controlOf(element);
    const role = roleOf(control);
    return { tag: control.localName, role, name: clip(nameFor(control, role)) };
  }

  // The name answers give: Chrome's accessible name; for an element without a role (which Chrome does not
  // name from its content), the text it shows, else its aria-label or title.
  function nameFor(control, role) {
    if (role) return nameOf(control, role);
    const text = collapse(control.innerText);
    return text || nameOf(control, role);
  }

  // Something to find a control by when Chrome gives it no name: [where from, the text], or null. Its
  // <label>s' text even when they are hidden (Playwright's snapshot names a control so), else its test id
  // (data-testid="main-menu-trigger": "main menu trigger"; the words a developer gave it), else for a form
  // field the caption just before it (the text of its previous sibling, or of its parent's text before it).
  function fallbackName(control, role) {
    const labels = labelsOf(control);
    if (labels.length) {
      const text = collapse(labels.map((label) => alternative(label, { ...naming(control, role), hiddenOk: true })).join(' '));
      if (text) return ['label', text];
    }
    const testId = TEST_IDS.map((name) => control.getAttribute(name)).find((value) => value?.trim());
    if (testId) return ['test id', testId.replace(/[-_.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim()];
    if (!FORM_CONTROLS.has(control.localName)) return null;
    const before = control.previousElementSibling;
    const caption = collapse(before && !before.matches(INTERACTIVE) && !before.querySelector(INTERACTIVE) ? before.innerText : '') ||
      collapse([...control.parentElement?.childNodes ?? []].filter((node) => node.nodeType === Node.TEXT_NODE &&
        node.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_FOLLOWING).map((node) => node.data).join(' '));
    return caption && caption.length <= MAX_CAPTION ? ['nearby text', caption] : null;
  }

  // A mark: the control's tag, role, name, hint and state, and the text the marked element shows. A name
  // that is not Chrome's (fallbackName) says where it comes from, in name_from; a control without a role
  // (a clickable div) is a "generic" one, named by the text it shows.
  function describe(element) {
    const control = controlOf(element);
    const role = roleOf(control);
    const described = {
      tag: control.localName,
      role: role || 'generic',
      name: clip(nameFor(control, role)),
      text: visibleText(element),
      interactionHint: hintOf(control, role),
    };
    const fallback = described.name ? null : fallbackName(control, role);
    if (fallback) [described.name_from, described.name] = [fallback[0], clip(fallback[1])];
    const state = stateOf(control, role);
    if (Object.keys(state).length) described.state = state;
    return described;
  }

  Object.assign(globalThis.__tabsightParts ??= {}, {
    HIDEABLE, transparentOnly, pointerStandInOf, hitAtCentre, flatChildren, roleOf, nameOf, idRefs, standInOf, controlOf, identify, describe,
    listboxOptions,
  });
})();
