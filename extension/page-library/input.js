// Page-side library, input: `type` and `select` that take effect or fail.
//
// Each kind of control is edited by a means that works for it, and the
// result is read back: an answer reports the value the control holds now,
// or says that it did not take the edit. Text fields, contenteditable and
// code editors get trusted keyboard input from the act side
// (Input.insertText through the debugger; this part finds and focuses what
// receives it, then reads the result). Inputs whose value a keyboard cannot
// type as text (date, time, month, week, datetime-local, color, range,
// number) are set here, through HTMLInputElement's own value setter, then
// sent input and change events as a user's edit is. Native selects are set
// here; ARIA listboxes and comboboxes are operated with trusted clicks from
// the act side (open, click the option), and checked here.
//
// Values are page content: they leave the page clipped, and never a
// password field's.

(() => {
  if (globalThis.__tabsight) return;
  const { collapse, clip, frameDocument, deepActiveElement, composedContains, shortName, describe, nameOf, listboxOptions, selectorPath, resolveTarget, targetName, locateElement } = globalThis.__tabsightParts;

  // ---- what takes typing ----

  // Text a keyboard types into them; the other input types take a whole value (VALUE_FORMATS) or no text.
  const KEYED_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password']);
  // The value each input type takes, as its element sanitizes it, and an example of it.
  const VALUE_FORMATS = {
    date: 'a date as YYYY-MM-DD, e.g. "2024-05-01"',
    time: 'a time as HH:MM, 24-hour (or HH:MM:SS), e.g. "13:45"',
    month: 'a month as YYYY-MM, e.g. "2024-05"',
    week: 'a week as YYYY-Www, e.g. "2024-W18"',
    'datetime-local': 'a date and time as YYYY-MM-DDTHH:MM, e.g. "2024-05-01T13:45"',
    color: 'a color as #rrggbb, e.g. "#ff0000"',
    range: null, // a number within its min, max and step: said per element
    number: null,
  };
  // Input types that always hold a value: "" would become their default, not empty them.
  const ALWAYS_SET = new Set(['color', 'range']);
  // Code editors: their root (what an annotation marks), the element that
  // takes their keyboard input (tried in order), and their rendered lines.
  const EDITORS = [
    { name: 'Ace', root: '.ace_editor', inputs: ['textarea.ace_text-input', 'textarea'], lines: '.ace_text-layer .ace_line' },
    { name: 'CodeMirror', root: '.CodeMirror', inputs: ['textarea', '[contenteditable=true]'], lines: '.CodeMirror-code .CodeMirror-line' },
    { name: 'CodeMirror', root: '.cm-editor', inputs: ['.cm-content'], lines: '.cm-content .cm-line' },
    { name: 'Monaco', root: '.monaco-editor', inputs: ['.native-edit-context', 'textarea.inputarea', 'textarea'], lines: '.view-lines .view-line' },
  ];
  const EDITOR_ROOTS = EDITORS.map((editor) => editor.root).join(', ');
  const FIELDS = 'input, textarea, [contenteditable]:not([contenteditable=false])';

  const isPassword = (element) => element.localName === 'input' &&
    (element.type === 'password' || /-password$/.test(element.getAttribute('autocomplete') ?? ''));

  // The control `type` edits, for the element a target names: the element
  // itself, the code editor it is in, the control of a <label>, or the one
  // field or editor inside a wrapper (a custom element's shadow root too).
  function receiverOf(element) {
    const editorRoot = element.closest(EDITOR_ROOTS);
    if (editorRoot) return editorAt(editorRoot);
    if (element.localName === 'label' && element.control) return receiverOf(element.control);
    if (element.localName === 'select') return { error: 'bad_request', message: `${shortName(element)} is a <select>: use action select` };
    if (element.matches(FIELDS) || element.isContentEditable) return fieldAt(element);
    if ((element.localName === 'iframe' || element.localName === 'frame') && !frameDocument(element)) {
      return { error: 'bad_request', message: `${shortName(element)} is a frame of another site, out of this page's reach: ` +
        'click the field inside it (x and y), then type with no target' };
    }
    const inside = [];
    for (const root of [element, element.shadowRoot].filter(Boolean)) {
      for (const found of root.querySelectorAll(`${EDITOR_ROOTS}, ${FIELDS}`)) {
        const around = found.closest(EDITOR_ROOTS);
        if (around && around !== found) continue; // an editor's own parts
        if (found.isContentEditable && found.parentElement?.isContentEditable) continue;
        if (found.localName === 'input' && !KEYED_TYPES.has(found.type) && !(found.type in VALUE_FORMATS)) continue;
        inside.push(found);
      }
    }
    if (inside.length === 1) return receiverOf(inside[0]);
    return { error: 'bad_request', message: `${shortName(element)} takes no typing` +
      (inside.length > 1 ? ` (it holds ${inside.length} fields: target one of them)` : '') +
      '; target an input, a textarea, a contenteditable element or a code editor' };
  }

  function editorAt(root) {
    const editor = EDITORS.find((kind) => root.matches(kind.root));
    const input = editor.inputs.map((selector) => root.querySelector(selector)).find(Boolean);
    if (!input) return { error: 'bad_request', message: `${shortName(root)} (a ${editor.name} editor) has no input to type into` };
    return { kind: 'editor', editor, root, input };
  }

  function fieldAt(element) {
    const tag = element.localName;
    if (tag === 'input') {
      const type = element.type;
      if (type in VALUE_FORMATS) return readOnly(element) ?? { kind: 'value', input: element, type };
      if (!KEYED_TYPES.has(type)) {
        return { error: 'bad_request', message: `${shortName(element)} is an <input type=${type}>, which takes no typing` +
          (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file'].includes(type) ? ' (click it instead)' : '') };
      }
      return readOnly(element) ?? { kind: 'field', input: element };
    }
    if (tag === 'textarea') return readOnly(element) ?? { kind: 'field', input: element };
    if (element.isContentEditable) {
      let host = element;
      while (host.parentElement?.isContentEditable) host = host.parentElement;
      return { kind: 'editable', input: host };
    }
    return { error: 'bad_request', message: `${shortName(element)} is not editable (contenteditable is false)` };
  }

  function readOnly(element) {
    if (element.disabled) return { error: 'element_disabled', message: `${shortName(element)} is disabled` };
    if (element.readOnly) return { error: 'bad_request', message: `${shortName(element)} is read-only: it takes no typing` };
    return null;
  }

  // ---- type ----

  // {receiver, before, text, clear, last, lastAt}: what beginTyping focused, read by typingResult
  let typing = null;

  // Readies `type`: finds what the target (or, with none, the focused
  // element) edits and focuses it. A value-taking input is set here at once.
  // Answers {via: 'set', value, target} (done), {via: 'keys', target,
  // toEnd?, editor?} (the act side types, then calls typingResult), {via:
  // 'blind', target} (the focus is in a cross-origin frame: what it holds
  // cannot be read), or {error}.
  function beginTyping(target, text, clear) {
    typing = null;
    let element;
    if (target) {
      const found = resolveTarget(target);
      if (found.error) return found;
      element = found.element;
      if (!element.closest(EDITOR_ROOTS)) {
        // scrolled into view, visible, not covered: as a user needs it to type
        const located = locateElement(target);
        if (located.error) return located;
      }
    } else {
      element = deepActiveElement();
      if (element && (element.localName === 'iframe' || element.localName === 'frame') && !frameDocument(element)) {
        return { via: 'blind', target: describe(element) };
      }
      if (!element || element === element.ownerDocument.body) {
        return { error: 'bad_request', message: 'Nothing that takes typing has the focus: give a label or selector of a field' };
      }
    }
    const receiver = receiverOf(element);
    if (receiver.error) return receiver;
    if (receiver.kind === 'editor') receiver.root.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    if (receiver.kind === 'value') return setValue(receiver.input, text);

    const focused = composedContains(receiver.kind === 'editor' ? receiver.root : receiver.input, deepActiveElement());
    receiver.input.focus();
    if (!focused && !clear && receiver.kind !== 'editor') caretToEnd(receiver.input);
    const before = contentOf(receiver);
    typing = { receiver, before, text, clear, last: before, lastAt: performance.now() };
    const shown = receiver.kind === 'editor' ? receiver.root : receiver.input;
    return {
      via: 'keys', target: describe(shown),
      // an editor puts its caret where it was: the act side sends it to the end (its own keys) to append
      ...(receiver.kind === 'editor' ? { editor: receiver.editor.name, toEnd: !focused && !clear } : {}),
    };
  }

  // A field focused by script keeps its caret where it was (the start, in a
  // new one): typing appends, as after a user's click past the text.
  function caretToEnd(element) {
    if (element.isContentEditable) {
      const selection = element.ownerDocument.getSelection();
      const range = element.ownerDocument.createRange();
      range.selectNodeContents(element);
      range.collapse(false);
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    try {
      element.setSelectionRange(element.value.length, element.value.length);
    } catch {
      // email and friends have no selection API: they keep Chrome's caret
    }
  }

  // What the control holds now: a field's value, an editable's text, an editor's rendered lines.
  function contentOf(receiver) {
    if (receiver.kind === 'field') return receiver.input.value;
    if (receiver.kind === 'editable') return plain(receiver.input.innerText);
    const lines = [...receiver.root.querySelectorAll(receiver.editor.lines)]
      .filter((line) => line.closest(EDITOR_ROOTS) === receiver.root)
      .map((line) => ({ top: line.getBoundingClientRect().top, text: plain(line.textContent) }))
      .sort((a, b) => a.top - b.top); // pooled line elements are not always in order
    return lines.map((line) => line.text).join('\n');
  }

  // Editors show spaces as no-break spaces and empty lines as zero-width ones.
  const plain = (text) => text.replace(/\u00a0/g, ' ').replace(/\u200b/g, '').replace(/\n$/, '');

  // After the act side typed: what the control holds now, whether it shows
  // the text (exactly, after clear) or at least changed, and for how long it
  // has held this. The act side asks again until it shows the text (an
  // editor draws its lines a frame or two later, the clearing first), or
  // holds a change steadily (a page that reformats what is typed).
  function typingResult() {
    if (!typing) return { error: 'internal', message: 'typingResult without beginTyping' };
    const { receiver, before, text, clear } = typing;
    if (!receiver.input.isConnected) return { error: 'element_not_found', message: 'the field was removed while typing' };
    const now = contentOf(receiver);
    if (now !== typing.last) Object.assign(typing, { last: now, lastAt: performance.now() });
    return {
      reached: clear ? now === plain(text) : now !== before && now.includes(plain(text)),
      changed: now !== before,
      steady_ms: Math.round(performance.now() - typing.lastAt),
      ...(isPassword(receiver.input) ? {} : { value: clip(now) }),
    };
  }

  // A value-taking input: checked against its type's format first, then set
  // with HTMLInputElement.prototype's value setter (this isolated world's
  // own, out of the page's reach), which a framework's own setter on the
  // element (React's value tracker) does not see: it then reads the input
  // event as a change. Then input and change events, as a user's edit sends.
  function setValue(input, text) {
    const invalid = invalidValue(input, text);
    if (invalid) return { error: 'bad_request', message: `Invalid text for ${shortName(input)}, an <input type=${input.type}>: ` +
      `${JSON.stringify(clip(text))} (allowed: ${invalid}${ALWAYS_SET.has(input.type) ? '' : '; "" empties it'})` };
    const before = input.value;
    input.focus();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const now = input.value;
    if (now === before && now !== sanitized(input, text)) {
      return { error: 'bad_request', message: `${shortName(input)} did not take ${JSON.stringify(clip(text))}: ` +
        `the page kept its value ${JSON.stringify(clip(now))}` };
    }
    return { via: 'set', value: clip(now), target: describe(input) };
  }

  // What the input type makes of the text (a color in lower case, say).
  function sanitized(input, text) {
    const probe = input.ownerDocument.createElement('input');
    probe.type = input.type;
    probe.value = text;
    return probe.value;
  }

  // null if the input takes the text as its value, else what it takes.
  function invalidValue(input, text) {
    const type = input.type;
    if (text === '') return ALWAYS_SET.has(type) ? (VALUE_FORMATS[type] ?? invalidNumber(input, text)) : null;
    if (type === 'color') return /^#[0-9a-f]{6}$/i.test(text) ? null : VALUE_FORMATS.color;
    if (type === 'range' || type === 'number') return invalidNumber(input, text);
    // the element's own sanitizing: anything not in its format (or no such day) becomes ""
    return sanitized(input, text) === '' ? VALUE_FORMATS[type] : null;
  }

  // A number input's rules, or a range's (whose value the browser would
  // silently clamp or round instead), checked on a number input built to match.
  function invalidNumber(input, text) {
    const probe = input.ownerDocument.createElement('input');
    probe.type = 'number';
    const range = input.type === 'range';
    const min = input.getAttribute('min') ?? (range ? '0' : null);
    const max = input.getAttribute('max') ?? (range ? '100' : null);
    const step = input.getAttribute('step');
    for (const [name, value] of [['min', min], ['max', max], ['step', step]]) {
      if (value !== null) probe.setAttribute(name, value);
    }
    probe.value = text;
    const { rangeUnderflow, rangeOverflow, stepMismatch } = probe.validity;
    if (probe.value !== '' && !rangeUnderflow && !rangeOverflow && !stepMismatch) return null;
    const bounds = [min !== null && `from ${min}`, max !== null && `to ${max}`].filter(Boolean).join(' ');
    const steps = step && step !== 'any' && step !== '1' ? ` in steps of ${step}${min !== null ? ` from ${min}` : ''}` : '';
    const whole = !step || /^\d+$/.test(step) ? 'a whole number' : 'a number';
    return `${whole}${bounds ? ` ${bounds}` : ''}${steps}, e.g. ${JSON.stringify(min ?? '1')}`;
  }

  // ---- select ----

  // What opens a list to pick from: a combobox, or a listbox that opens as one does (choices.js's: a listbox
  // with aria-expanded or aria-haspopup, of ARIA 1.0's pattern)
  const DROPDOWNS = '[role=combobox], [role=listbox][aria-haspopup], [role=listbox][aria-expanded]';

  // {control, kind: 'combobox'|'listbox', wanted, option; for a hidden <select>'s widget: select, chosen (its option)}
  let selecting = null;

  // Readies `select`: a native <select> is set here at once ({done}); an
  // ARIA combobox or listbox answers {open: selector path of a combobox to
  // click open, or null}, then the act side calls findOption, clicks the
  // option it names, and calls selectResult.
  function beginSelect(target, wanted) {
    selecting = null;
    const found = resolveTarget(target);
    if (found.error) return found;
    let element = found.element;
    if (element.localName === 'label' && element.control) element = element.control;
    if (element.localName === 'select') {
      const widget = widgetFor(element);
      if (!widget) return selectNative(element, wanted, targetName(target));
      return beginWidget(element, widget, wanted, targetName(target));
    }
    const control = ariaControl(element);
    if (!control) {
      return { error: 'bad_request', message: `${targetName(target)} is ${shortName(element)}, not a <select>, ` +
        'a listbox or a combobox (role=listbox, role=combobox)' };
    }
    if (control.getAttribute('aria-disabled') === 'true') return { error: 'element_disabled', message: `${shortName(control)} is disabled` };
    const kind = control.matches(DROPDOWNS) ? 'combobox' : 'listbox';
    selecting = { control, kind, wanted, option: null };
    if (kind === 'combobox') {
      const shows = comboboxValue(control);
      if (shows === collapse(wanted)) return { done: { did: `${JSON.stringify(clip(shows))} was selected already`, value: clip(shows), target: describe(control) } };
      return { open: openPopup(control) ? null : selectorPath(control) };
    }
    return { open: null };
  }

  function selectNative(select, wanted, selectorPath) {
    const { option, ...refused } = nativeOption(select, wanted, selectorPath);
    if (!option) return refused;
    select.value = option.value;
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    if (!option.selected) {
      return { error: 'bad_request', message: `${selectorPath} did not keep ${JSON.stringify(collapse(option.text))}: ` +
        `the page put back ${JSON.stringify(clip(collapse(select.selectedOptions[0]?.text)))}` };
    }
    return { done: { did: `selected ${JSON.stringify(collapse(option.text))} (value ${JSON.stringify(option.value)})`,
      ...nativeSelection(select), target: describe(select) } };
  }

  // A <select> the page hides for a widget of its own (tom-select, choices.js,
  // slim-select, select2 and their kind keep the <select> for the form and
  // set it from the widget, never the other way): the widget's combobox, the
  // one shown nearest to the <select> in the tree (around it, or in it), when
  // the <select> is hidden from users (the visually-hidden pattern keeps it
  // for forms and assistive technology). A user picks through the
  // widget, and so does select: set natively, the form would hold the option
  // and the page show another. None when the nearest ancestor that holds a
  // shown combobox holds two, or another <select>: which one stands for it
  // would be a guess.
  const WIDGET_LEVELS = 4;
  function widgetFor(select) {
    if (!hiddenFromUsers(select)) return null;
    for (let n = select.parentElement, level = 0; n && level < WIDGET_LEVELS; n = n.parentElement, level++) {
      const widgets = [n, ...n.querySelectorAll(DROPDOWNS)].filter((w) => w.matches(DROPDOWNS) && shown(w));
      if (widgets.length > 1 || n.querySelectorAll('select').length > 1) return null;
      if (widgets.length === 1) return widgets[0];
    }
    return null;
  }

  // Neither seen nor reached by a user: not rendered, shrunk to a pixel or
  // two (the visually-hidden pattern's 1px, and its border where a page
  // leaves that), or transparent with pointer-events none (choices.js lays
  // its <select> so under its widget).
  function hiddenFromUsers(element) {
    const rect = element.getBoundingClientRect();
    if (rect.width < 3 || rect.height < 3 || !element.checkVisibility({ checkVisibilityCSS: true })) return true;
    return !element.checkVisibility({ checkOpacity: true }) && getComputedStyle(element).pointerEvents === 'none';
  }

  // select on a hidden <select> through its widget: the option named by the
  // <select>'s own options (its value or text), looked for in the widget's
  // list by its text, and the <select> read back once it is clicked.
  function beginWidget(select, widget, wanted, named) {
    const { option, ...refused } = nativeOption(select, wanted, named);
    if (!option) return refused;
    if (option.selected) {
      return { done: { did: `${JSON.stringify(collapse(option.text))} was selected already`, ...nativeSelection(select), target: describe(select) } };
    }
    selecting = { control: widget, kind: 'combobox', wanted: collapse(option.text), option: null, select, chosen: option };
    return { open: openPopup(widget) ? null : selectorPath(widget) };
  }

  // The option of a <select> that `wanted` names (its value, else its text): {option}, or {error, message}
  // when there is none, or it or the <select> is disabled.
  function nativeOption(select, wanted, named) {
    if (select.disabled) return { error: 'element_disabled', message: `${named} is disabled` };
    const option = [...select.options].find((o) => o.value === wanted) ??
      [...select.options].find((o) => collapse(o.text) === collapse(wanted));
    if (!option) {
      const choices = [...select.options].slice(0, 20).map((o) => JSON.stringify(o.value)).join(', ');
      return { error: 'bad_request', message: `No option ${JSON.stringify(wanted)} in ${named}; options: ${choices}` };
    }
    if (option.disabled) return { error: 'element_disabled', message: `Option ${JSON.stringify(collapse(option.text))} of ${named} is disabled` };
    return { option };
  }

  // What a <select> holds: {value, text} of its selected option (lists of each selected one's, for a multiple one).
  function nativeSelection(select) {
    const chosen = [...select.selectedOptions];
    const values = chosen.map((o) => clip(o.value));
    const texts = chosen.map((o) => clip(collapse(o.text)));
    return select.multiple ? { value: values, text: texts } : { value: values[0] ?? '', text: texts[0] ?? '' };
  }

  // What an ARIA listbox holds: {value, text?} of its aria-selected option (its value or data-value, else its
  // name; text: its name, when not the value), lists for a multiselectable one.
  function listboxSelection(listbox) {
    const chosen = listboxOptions(listbox).filter((o) => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true')
      .map((o) => { const name = clip(nameOf(o, 'option')); return { value: clip(optionValue(o) ?? name), text: name }; });
    if (listbox.getAttribute('aria-multiselectable') === 'true') {
      return { value: chosen.map((c) => c.value), text: chosen.map((c) => c.text) };
    }
    const [one] = chosen;
    return one ? { value: one.value, ...(one.text !== one.value ? { text: one.text } : {}) } : {};
  }

  // The combobox or listbox an element is, or is in (an option of it, say).
  function ariaControl(element) {
    for (let n = element; n; n = n.parentElement ?? n.getRootNode().host) {
      const role = n.getAttribute('role');
      if (role === 'combobox') return n;
      if (role === 'listbox') return comboboxOf(n) ?? n;
    }
    return null;
  }

  // The combobox whose popup a listbox is, if any.
  function comboboxOf(listbox) {
    if (!listbox.id) return null;
    const root = listbox.getRootNode();
    const id = CSS.escape(listbox.id);
    return root.querySelector(`[role=combobox][aria-controls~="${id}"], [role=combobox][aria-owns~="${id}"]`) ??
      root.querySelector(`[role=combobox]:has([aria-controls~="${id}"])`);
  }

  // A combobox's listbox, wherever the page keeps it, when it is shown.
  function openPopup(combobox) {
    const root = combobox.getRootNode();
    const ids = [combobox, ...combobox.querySelectorAll('[aria-controls], [aria-owns]')]
      .flatMap((n) => `${n.getAttribute('aria-controls') ?? ''} ${n.getAttribute('aria-owns') ?? ''}`.split(/\s+/))
      .filter(Boolean);
    const referenced = ids.map((id) => root.getElementById?.(id) ?? document.getElementById(id)).filter(Boolean);
    const candidates = [...referenced, ...combobox.querySelectorAll('[role=listbox]')];
    const popup = candidates.map((n) => (n.getAttribute('role') === 'listbox' ? n : n.querySelector('[role=listbox]')))
      .find((n) => n && shown(n));
    if (popup || referenced.length || combobox.getAttribute('aria-expanded') !== 'true') return popup ?? null;
    // expanded, and its popup not referenced: the one open listbox shown on the page (not a collapsed
    // listbox that is a dropdown of its own, as choices.js's is)
    const listboxes = [...document.querySelectorAll('[role=listbox]')]
      .filter((n) => n !== combobox && n.getAttribute('aria-expanded') !== 'false' && shown(n));
    return listboxes.length === 1 ? listboxes[0] : null;
  }

  const shown = (element) => {
    const rect = element.getBoundingClientRect();
    return rect.width >= 1 && rect.height >= 1 && element.checkVisibility({ checkVisibilityCSS: true });
  };

  // What a combobox shows: its text field's value, or its own text as rendered (not its popup's, nor a
  // <select> or hidden list it keeps inside, as choices.js does).
  function comboboxValue(combobox) {
    const field = combobox.matches('input, textarea') ? combobox : combobox.querySelector('input, textarea');
    if (field) return collapse(field.value);
    const popup = combobox.querySelector('[role=listbox]');
    let text = '';
    const walk = (node) => {
      if (node === popup) return;
      if (node.nodeType === Node.ELEMENT_NODE && node !== combobox &&
        (node.localName === 'select' || !node.checkVisibility({ checkVisibilityCSS: true }))) return;
      if (node.nodeType === Node.TEXT_NODE) text += node.data;
      else node.childNodes.forEach(walk);
    };
    walk(combobox);
    return collapse(text);
  }

  const optionValue = (option) => option.getAttribute('value') ?? option.getAttribute('data-value');

  // The option to click: {option: its selector path, name}, {waiting:
  // true, focused} while the combobox's list is not open, or {error}.
  function findOption() {
    if (!selecting) return { error: 'internal', message: 'findOption without beginSelect' };
    const { control, kind, wanted, select, chosen } = selecting;
    const listbox = kind === 'listbox' ? control : openPopup(control);
    if (!listbox) return { waiting: true, focused: composedContains(control, deepActiveElement()) };
    const options = listboxOptions(listbox);
    const named = options.map((option) => ({ option, name: nameOf(option, 'option') }));
    const match = named.find(({ name }) => name === collapse(wanted)) ??
      named.find(({ option }) => optionValue(option) === (chosen?.value ?? wanted)) ??
      named.find(({ name }) => name.toLowerCase() === collapse(wanted).toLowerCase());
    if (!match && select) {
      // a widget that lists its options its own way (a template, another text): the <select> is set after all
      const set = selectNative(select, chosen.value, shortName(select));
      if (set.done) set.done.did += `; its widget lists no option ${JSON.stringify(clip(wanted))}, and may not show it`;
      return set;
    }
    if (!match) {
      const choices = named.slice(0, 20).map(({ name }) => JSON.stringify(clip(name, 40))).join(', ');
      return { error: 'bad_request', message: `No option ${JSON.stringify(clip(wanted))} in ${shortName(listbox)}` +
        `${named.length ? `; options: ${choices}${named.length > 20 ? `, … (${named.length})` : ''}` : ' (it has no options)'}` };
    }
    if (match.option.getAttribute('aria-disabled') === 'true') {
      return { error: 'element_disabled', message: `Option ${JSON.stringify(clip(match.name))} of ${shortName(listbox)} is disabled` };
    }
    selecting.option = match.option;
    selecting.name = match.name;
    selecting.listbox = listbox;
    if (kind === 'listbox' && match.option.getAttribute('aria-selected') === 'true') {
      return { done: { did: `${JSON.stringify(clip(match.name))} was selected already`, ...listboxSelection(listbox), target: describe(control) } };
    }
    return { option: selectorPath(match.option), name: clip(match.name) };
  }

  // After the click on the option: is it what the page now shows as
  // selected? {done: true, did, value?, target} or {done: false, shows}.
  function selectResult() {
    if (!selecting?.option) return { error: 'internal', message: 'selectResult without findOption' };
    const { control, kind, option, name, listbox, select, chosen } = selecting;
    const marked = (o) => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true';
    const did = `selected ${JSON.stringify(clip(name))}`;
    if (select) {
      // by value: a widget may rebuild the <select>'s options as it sets it (slim-select does)
      if ([...select.selectedOptions].some((o) => o.value === chosen.value)) {
        return { done: true, did, ...nativeSelection(select), target: describe(select) };
      }
      return { done: false, shows: `the <select> it stands for holds ${JSON.stringify(clip(collapse(select.selectedOptions[0]?.text)))}` };
    }
    if (kind === 'combobox') {
      const shows = comboboxValue(control);
      if (shows === name || (option.isConnected && marked(option) && shows.includes(name))) {
        return { done: true, did, value: clip(shows), ...(shows !== name ? { text: clip(name) } : {}), target: describe(control) };
      }
      return { done: false, shows: `the combobox shows ${JSON.stringify(clip(shows))}` };
    }
    const now = option.isConnected ? option
      : listboxOptions(listbox).find((o) => nameOf(o, 'option') === name);
    if (now && marked(now)) return { done: true, did, ...listboxSelection(listbox), target: describe(control) };
    const selected = listboxOptions(listbox).filter(marked).map((o) => JSON.stringify(clip(nameOf(o, 'option'), 40)));
    return { done: false, shows: selected.length ? `selected: ${selected.join(', ')}` : 'no option is aria-selected' };
  }

  // What kind of control a fill field is, and so how it is set: 'select' (a
  // <select>, listbox or combobox: selected), 'toggle' (a checkbox, radio
  // button or switch: clicked when its state is not the one wanted), or
  // 'field' (anything typing edits). A label stands for its control.
  const TOGGLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  function controlKind(target) {
    const found = resolveTarget(target);
    if (found.error) return found;
    let element = found.element;
    if (element.localName === 'label' && element.control) element = element.control;
    const role = element.getAttribute('role');
    const native = element.localName === 'input' && (element.type === 'checkbox' || element.type === 'radio');
    if (native || TOGGLE_ROLES.has(role)) {
      return {
        kind: 'toggle',
        radio: native ? element.type === 'radio' : role.endsWith('radio'),
        checked: native ? element.checked : element.getAttribute('aria-checked') === 'true',
        target: describe(element),
      };
    }
    if (element.localName === 'select' || ariaControl(element)) return { kind: 'select' };
    return { kind: 'field' };
  }

  Object.assign(globalThis.__tabsightParts ??= {}, { beginTyping, typingResult, beginSelect, findOption, selectResult, controlKind });
})();
