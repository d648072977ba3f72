// Page-side library, the user's pick ("Look at this"): the user points at an
// element of the page, and it is described for the agent.
//
// Only the user can pick. The picker lives in the extension's isolated world,
// out of the page's reach, and takes only trusted input (event.isTrusted, which
// no script can set): a click the page dispatches, a key it sends, changes
// nothing. While picking, a transparent layer over the viewport takes every
// pointer event, so that the choosing click reaches no element of the page
// (nor a frame, of any origin); capture listeners on the window hold back the
// trusted pointer, mouse and key events the pick consumes
// (preventDefault + stopImmediatePropagation): the page's own listeners never
// see them (but a window capture listener the page registered before the
// pick began, as for tabsight's clicks).
//
// The layer and the note prompt are in a closed shadow root, styled there: a
// page's CSS does not reach them, its scripts cannot read them. The note is
// typed in the page's window all the same: a page listening to every key on
// its window sees the keystrokes (docs/guide.md says so).

(() => {
  if (globalThis.__tabsight) return;
  const {
    deepElementFromPoint, describe, selectorPath, structuralPath, selectorFields, roundBox, offsetOf, clip, collapse,
  } = globalThis.__tabsightParts;

  // The computed styles a pick reports: what places, sizes and shows it.
  const STYLES = ['display', 'position', 'width', 'height', 'margin', 'padding', 'border', 'color',
    'background-color', 'font-size', 'font-family', 'font-weight', 'line-height', 'z-index', 'opacity',
    'visibility', 'overflow', 'cursor'];
  const MAX_STYLE = 200;
  const MAX_NOTE = 2000;
  // A right click this recent (isolated-world/picker-target.js) is the element the context menu was opened on.
  const CONTEXT_TARGET_MS = 60_000;
  // The note prompt waits this long, then the pick goes without a note.
  const NOTE_TIMEOUT_MS = 120_000;
  // What a pick consumes while the layer is up.
  const POINTER_EVENTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'auxclick', 'dblclick',
    'contextmenu'];
  const LAYER_STYLE = `
    :host { all: initial; }
    .layer { position: fixed; inset: 0; z-index: 2147483647; cursor: crosshair; background: transparent; }
    .box { position: fixed; pointer-events: none; outline: 2px solid #d6246e; background: rgba(214, 36, 110, 0.12);
      z-index: 2147483647; display: none; }
    .tag { position: fixed; pointer-events: none; z-index: 2147483647; font: 12px/1.4 system-ui, sans-serif;
      background: #d6246e; color: #fff; padding: 1px 5px; border-radius: 3px; white-space: nowrap; display: none; }
    .prompt { position: fixed; z-index: 2147483647; font: 13px/1.4 system-ui, sans-serif; background: #fff;
      color: #222; border: 2px solid #d6246e; border-radius: 6px; padding: 6px 8px; box-shadow: 0 2px 10px #0004;
      width: 320px; }
    .prompt input { width: 100%; box-sizing: border-box; font: inherit; margin-top: 4px; padding: 3px 5px; }`;

  let current = null; // the pick under way in this document: { finish(result) }

  // The element the user chooses: with `fromContextMenu`, the one a right
  // click opened the menu on (if tabsight saw it), else the one the user
  // clicks on next. Resolves to { element } or { cancelled } (Escape, another
  // pick). The layer is gone from the page when it resolves.
  function choose({ fromContextMenu = false } = {}) {
    current?.finish({ cancelled: 'another pick began' });
    const target = fromContextMenu ? contextTarget() : null;
    if (target) return Promise.resolve({ element: target });
    return new Promise((resolve) => {
      const { host, shadow } = overlay();
      const layer = element(shadow, 'div', 'layer');
      const box = element(shadow, 'div', 'box');
      const tag = element(shadow, 'div', 'tag');
      let hovered = null;
      const at = (event) => {
        layer.style.pointerEvents = 'none'; // hit-test what is under the layer
        try {
          return deepElementFromPoint(event.clientX, event.clientY);
        } finally {
          layer.style.pointerEvents = '';
        }
      };
      const hold = (event) => {
        event.preventDefault();
        event.stopImmediatePropagation();
      };
      const onMove = (event) => {
        if (!event.isTrusted) return;
        hovered = at(event);
        if (hovered) show(box, tag, hovered);
      };
      const onPointer = (event) => {
        if (!event.isTrusted) return;
        hold(event);
        if (event.type !== 'click' || event.button !== 0) return;
        const chosen = at(event);
        if (chosen) finish({ element: chosen });
      };
      const onKey = (event) => {
        if (!event.isTrusted || event.key !== 'Escape') return;
        hold(event);
        finish({ cancelled: 'Escape' });
      };
      const listeners = [['pointermove', onMove], ['mousemove', onMove], ['keydown', onKey],
        ...POINTER_EVENTS.map((type) => [type, onPointer])];
      for (const [type, listener] of listeners) window.addEventListener(type, listener, true);
      const finish = (result) => {
        for (const [type, listener] of listeners) window.removeEventListener(type, listener, true);
        host.remove();
        current = null;
        // the next frames are drawn without the layer: the capture that follows shows the page alone
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(result)));
      };
      current = { finish };
    });
  }

  // The last element a trusted right click was on, if recent and still in the page.
  function contextTarget() {
    const seen = globalThis.__tabsightContextTarget;
    const target = seen?.ref.deref();
    if (!target || performance.now() - seen.at > CONTEXT_TARGET_MS || !target.isConnected) return null;
    return target.nodeType === Node.ELEMENT_NODE ? target : target.parentElement;
  }

  // A pick as the agent gets it: selector (matching it alone; and its
  // structural twin, which the host gives instead when it must), tag, role,
  // name, text, bounds (CSS px of the viewport), computed styles.
  function describePick(element) {
    const offset = offsetOf(element);
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const styles = {};
    for (const name of STYLES) {
      const value = style.getPropertyValue(name);
      if (value) styles[name] = clip(value, MAX_STYLE);
    }
    return {
      ...selectorFields(selectorPath(element), structuralPath(element)),
      ...describe(element),
      bounds: roundBox({ x: rect.left + offset.x, y: rect.top + offset.y, width: rect.width, height: rect.height }),
      styles,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      device_pixel_ratio: window.devicePixelRatio,
    };
  }

  // The pick, begun with choose(): { pick } (described), or { cancelled }.
  async function pickElement(options) {
    const { element: chosen, cancelled } = await choose(options);
    return cancelled ? { cancelled } : { pick: describePick(chosen) };
  }

  // Asks the user for a note beside the picked box (CSS px of the viewport):
  // Enter sends what was typed, Escape sends no note. Resolves to the note
  // ('' for none).
  function askNote(bounds) {
    return new Promise((resolve) => {
      const { host, shadow } = overlay();
      const prompt = element(shadow, 'div', 'prompt');
      prompt.append('Note for the agent (Enter sends it, Escape sends none)');
      const input = element(prompt, 'input');
      input.maxLength = MAX_NOTE;
      const below = bounds.y + bounds.height + 8;
      prompt.style.top = `${Math.max(0, below + 70 < window.innerHeight ? below : bounds.y - 78)}px`;
      prompt.style.left = `${Math.max(0, Math.min(bounds.x, window.innerWidth - 340))}px`;
      const timer = setTimeout(() => finish(''), NOTE_TIMEOUT_MS);
      const onKey = (event) => {
        if (event.isTrusted && (event.key === 'Enter' || event.key === 'Escape')) {
          event.preventDefault();
          finish(event.key === 'Enter' ? collapse(input.value) : '');
        }
        event.stopPropagation(); // the note's keys are not the page's business past its window
      };
      input.addEventListener('keydown', onKey);
      const finish = (note) => {
        clearTimeout(timer);
        host.remove();
        resolve(note);
      };
      input.focus();
    });
  }

  // ---- drawing ----

  function overlay() {
    const host = document.createElement('tabsight-picker');
    const shadow = host.attachShadow({ mode: 'closed' });
    const style = document.createElement('style');
    style.textContent = LAYER_STYLE;
    shadow.append(style);
    document.documentElement.append(host);
    return { host, shadow };
  }

  function element(parent, tagName, className) {
    const made = document.createElement(tagName);
    if (className) made.className = className;
    parent.append(made);
    return made;
  }

  function show(box, tag, target) {
    const offset = offsetOf(target);
    const rect = target.getBoundingClientRect();
    Object.assign(box.style, {
      display: 'block', left: `${rect.left + offset.x}px`, top: `${rect.top + offset.y}px`,
      width: `${rect.width}px`, height: `${rect.height}px`,
    });
    const { role, name } = describe(target);
    tag.textContent = `<${target.localName}>${role ? ` ${role}` : ''}${name ? ` "${clip(name, 40)}"` : ''}`;
    Object.assign(tag.style, {
      display: 'block', left: `${Math.max(0, rect.left + offset.x)}px`,
      top: `${Math.max(0, rect.top + offset.y - 20)}px`,
    });
  }

  Object.assign(globalThis.__tabsightParts ??= {}, { pickElement, askNote });
})();
