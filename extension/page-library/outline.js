// Page-side library, the page's text as a reader sees it (observe page_text):
// an outline of what the viewport shows, in reading order (document order,
// through open shadow roots and same-origin frames): headings as "# text",
// fields as "name: value" (never a password's value), list items as "- text",
// table rows as "cell | cell", buttons as "[text]", other text one line per
// block. Only what fits in the caller's budget comes back, with how many
// characters were left out in the viewport, above it and below it.

(() => {
  if (globalThis.__tabsight) return;
  const { collapse, clip, frameDocument, frameOffset, flatChildren, roleOf, nameOf } = globalThis.__tabsightParts;

  // not text a reader sees
  const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'object',
    'embed', 'video', 'audio', 'img', 'picture', 'map', 'datalist', 'option', 'optgroup']);
  const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider',
    'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  const TOGGLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  const MAX_VALUE = 100;
  // A page with more elements than this is outlined only so far: the counts
  // of text left out are then lower bounds ("at least").
  const MAX_ELEMENTS = 20000;

  function outline({ max_chars: maxChars }) {
    const walk = new Walk();
    walk.visit(document.body ?? document.documentElement, { x: 0, y: 0 });
    walk.flush();
    const shown = [];
    let used = 0;
    let cut = 0;
    let above = 0;
    let below = 0;
    for (const line of walk.lines) {
      if (line.bottom <= 0) above += line.text.length;
      else if (line.top >= innerHeight) below += line.text.length;
      else if (line.right <= 0 || line.left >= innerWidth) continue; // off to a side: not shown, not a scroll away
      else if (cut) cut += line.text.length; // past the budget: only counted, so what is shown has no gaps
      else {
        const room = maxChars - used - (shown.length ? 1 : 0);
        if (line.text.length <= room) {
          shown.push(line.text);
          used += line.text.length + (shown.length > 1 ? 1 : 0);
        } else {
          // the first line that does not fit is cut at the budget (if enough of it fits to read)
          const kept = room > 20 ? room - 1 : 0;
          if (kept) shown.push(`${line.text.slice(0, kept)}…`);
          cut = line.text.length - kept;
        }
      }
    }
    return { text: shown.join('\n'), cut, above, below, partial: walk.elements > MAX_ELEMENTS };
  }

  // One pass over the rendered tree, gathering lines with their boxes (top-viewport px).
  class Walk {
    constructor() {
      this.lines = [];
      this.run = null; // the inline text being gathered: { parts, top, bottom, left, right }
      this.elements = 0;
      this.range = document.createRange();
    }

    flush() {
      const run = this.run;
      this.run = null;
      if (!run) return;
      const text = collapse(run.parts.join(''));
      if (text && run.top < Infinity) this.lines.push({ text: run.prefix + text, ...edges(run) });
    }

    // Starts a run of inline text; `prefix` marks a list item's ("- ").
    start(prefix = '') {
      this.run = { parts: [], prefix, top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
    }

    inline(text, box) {
      if (!this.run) this.start();
      this.run.parts.push(text);
      if (box) grow(this.run, box);
    }

    line(text, box) {
      this.flush();
      if (text) this.lines.push({ text, ...box });
    }

    visit(element, offset) {
      if (++this.elements > MAX_ELEMENTS) return;
      const tag = element.localName;
      if (SKIPPED.has(tag)) return;
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return;
      if (tag === 'iframe' || tag === 'frame') {
        const inner = frameDocument(element);
        if (inner?.body) {
          this.flush();
          this.visit(inner.body, frameOffset(element, offset));
          this.flush();
        }
        return;
      }
      const style = getComputedStyle(element);
      const block = !style.display.startsWith('inline') && style.display !== 'contents';
      const box = () => boxOf(element.getBoundingClientRect(), offset);
      // a whole block out of the viewport, and nothing in it fixed there: its text is only counted
      if (block && style.position !== 'fixed' && style.position !== 'sticky' && this.farAway(element, offset)) return;

      const role = roleOf(element);
      if (role === 'heading') {
        const level = Number(element.getAttribute('aria-level')) || Number(tag[1]) || 2;
        return this.line(`${'#'.repeat(Math.min(level, 6))} ${collapse(element.innerText)}`, box());
      }
      if (tag === 'label' && element.control) {
        const control = element.control;
        if (control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) {
          // the field's own line names it: the label's text would say it twice
          if (element.contains(control)) this.visit(control, offset);
          return;
        }
        // a control hidden behind its styled label: the label shows it
        const field = fieldLine(control, roleOf(control));
        if (field !== null) return this.line(field, box());
      }
      if (FIELD_ROLES.has(role) || ['input', 'select', 'textarea'].includes(tag) || element.isContentEditable) {
        const field = fieldLine(element, role);
        if (field !== null) return this.line(field, box());
      }
      if (role === 'button') {
        const text = collapse(element.innerText) || nameOf(element, role);
        if (text) this.inline(` [${text}] `, box());
        return;
      }
      if (style.display === 'table-row') {
        const cells = [...element.children].map((cell) => collapse(cell.innerText)).filter(Boolean);
        return this.line(cells.join(' | '), box());
      }
      if (block) {
        this.flush();
        if (tag === 'li') this.start('- ');
      }
      for (const child of flatChildren(element)) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (!child.data.trim()) {
            if (this.run) this.inline(' ');
            continue;
          }
          const range = child.ownerDocument === document ? this.range : child.ownerDocument.createRange();
          range.selectNodeContents(child);
          const rect = range.getBoundingClientRect();
          if (rect.width || rect.height) this.inline(child.data, boxOf(rect, offset));
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          if (child.localName === 'br') this.flush();
          else this.visit(child, offset);
        }
      }
      if (block) this.flush();
    }

    // Counts the text of a block wholly above or below the viewport (and
    // says so) instead of walking it.
    farAway(element, offset) {
      const { top, bottom } = boxOf(element.getBoundingClientRect(), offset);
      if (bottom - top < 1 || (bottom > 0 && top < innerHeight)) return false;
      const text = collapse(element.innerText);
      if (text) {
        this.flush();
        this.lines.push({ text, top, bottom, left: 0, right: 1 });
      }
      return true;
    }
  }

  // A field as "name: value"; a toggle as "[x] name" or "[ ] name"; null
  // when the element is not a field after all (a link with role textbox, say).
  function fieldLine(element, role) {
    const name = nameOf(element, role);
    const tag = element.localName;
    const type = tag === 'input' ? element.type : '';
    if (type === 'hidden') return null;
    if (['button', 'submit', 'reset', 'image'].includes(type)) return `[${collapse(element.value) || name}]`;
    if (TOGGLES.has(role) || type === 'checkbox' || type === 'radio') {
      const checked = type ? element.checked : element.getAttribute('aria-checked') === 'true';
      const mixed = !type && element.getAttribute('aria-checked') === 'mixed';
      return `[${mixed ? '-' : checked ? 'x' : ' '}] ${name}`;
    }
    let value;
    if (type === 'password') value = element.value ? '(password, not shown)' : '';
    else if (tag === 'select') value = [...element.selectedOptions].map((option) => collapse(option.text)).join(', ');
    else if (tag === 'input' || tag === 'textarea') value = element.value;
    else if (element.isContentEditable || role === 'textbox' || role === 'searchbox') value = element.innerText;
    else value = element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? collapse(element.innerText);
    value = clip(collapse(value), MAX_VALUE);
    return `${name || role || tag}: ${value || '(empty)'}`;
  }

  const boxOf = (rect, offset) => ({
    top: rect.top + offset.y, bottom: rect.bottom + offset.y, left: rect.left + offset.x, right: rect.right + offset.x,
  });

  function grow(run, box) {
    run.top = Math.min(run.top, box.top);
    run.bottom = Math.max(run.bottom, box.bottom);
    run.left = Math.min(run.left, box.left);
    run.right = Math.max(run.right, box.right);
  }

  const edges = ({ top, bottom, left, right }) => ({ top, bottom, left, right });

  Object.assign(globalThis.__tabsightParts ??= {}, { outline });
})();
