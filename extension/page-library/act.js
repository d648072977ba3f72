// Page-side library, acting: where to point, the hit-target guard, what an
// action changed, focus and wait_for.

(() => {
  if (globalThis.__tabsight) return;
  const { MAX_TITLE, MAX_URL, documentId, collapse, clip, frameDocument, deepElementFromPoint, composedContains, hits, framesAround, shortName, hitName, interactiveAround, describe, resolve, resolveTarget, targetName, beginFollow, sawFollowed, endFollow } = globalThis.__tabsightParts;

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

  // ---- dragging ----

  // drag: where it starts and ends (each a located element's point, or the
  // given point), and what is there; from now on the next dragstart in the
  // page is watched for (dragStarted). Both must be in view together: a
  // destination scrolled into view must not have scrolled the source out.
  let dragWatch = null;
  function aimDrag(source, sourcePoint, destination, destinationPoint) {
    const end = (target, point) => (target ? locateElement(target) : { element: null, ...point });
    let from = end(source, sourcePoint);
    if (from.error) return from;
    const to = end(destination, destinationPoint);
    if (to.error) return to;
    if (from.element && to.element) {
      from = end(source, sourcePoint);
      if (from.error) return from;
      if (!hits(to.element, deepElementFromPoint(to.x, to.y))) {
        return { error: 'element_not_visible', message: `${targetName(source)} and ${targetName(destination)} ` +
          'do not fit in the viewport together; drag in steps, or scroll the page as you go' };
      }
    }
    endDragWatch();
    const started = { event: null };
    const listener = (event) => { if (event.isTrusted) started.event ??= event; };
    const windows = guardWindows(from.element);
    for (const win of windows) win.addEventListener('dragstart', listener, { capture: true });
    dragWatch = { started, listener, windows, expiry: setTimeout(endDragWatch, GUARD_MAX_MS) };
    // what is at each end: the element named, or what is at the point
    const seen = ({ element, x, y }) => {
      const hit = element ?? deepElementFromPoint(x, y);
      return hit ? describe(element ?? interactiveAround(hit)) : null;
    };
    return {
      from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y }, source: seen(from), destination: seen(to),
      viewport: { width: innerWidth, height: innerHeight },
    };
  }

  // Whether the drag's moves started an HTML5 drag: a dragstart the page did
  // not cancel (by now it has run all its listeners). Ends the watch.
  function dragStarted() {
    const event = dragWatch?.started.event;
    endDragWatch();
    return !!event && !event.defaultPrevented;
  }

  function endDragWatch() {
    if (!dragWatch) return;
    clearTimeout(dragWatch.expiry);
    for (const win of dragWatch.windows) win.removeEventListener('dragstart', dragWatch.listener, { capture: true });
    dragWatch = null;
  }

  // ---- uploading ----
  //
  // upload sets files on an <input type=file> directly when the target is
  // one (hidden ones too: most pages hide theirs behind a button or a drop
  // zone) or a <label> of one. The debugger finds that input by a mark: an
  // attribute set here, searched for there (DOM.performSearch reaches into
  // shadow roots and frames), and taken off again before any file is set.
  // The page cannot name a DOM node to the debugger any other way.
  const UPLOAD_MARK = 'data-tabsight-upload';
  let uploadMarked = null;

  // The target's file input, marked: {mark, multiple, target}; {mark: null}
  // when the target is no file input (the act side clicks it instead, for
  // the chooser it opens); or {error}.
  function markFileInput(target) {
    const found = resolveTarget(target);
    if (found.error) return found;
    const input = found.element.localName === 'label' ? found.element.control : found.element;
    if (input?.localName !== 'input' || input.type !== 'file') return { mark: null };
    if (input.disabled) return { error: 'element_disabled', message: `${targetName(target)} is disabled` };
    unmarkFileInput();
    const mark = crypto.randomUUID();
    input.setAttribute(UPLOAD_MARK, mark);
    uploadMarked = input;
    return { mark, multiple: input.multiple, target: describe(input) };
  }

  function unmarkFileInput() {
    uploadMarked?.removeAttribute(UPLOAD_MARK);
    uploadMarked = null;
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
  // completes: the event that completes the action on its target, {type,
  // detail} (the service worker's act/pointer.js says which): what the page
  // does after it is the page's answer, not a miss.
  function aim(target, point, action, completes) {
    let found = { element: null, x: point?.x, y: point?.y, target: null };
    if (target) {
      found = locateElement(target);
      if (found.error) return found;
    }
    disarm();
    const windows = guardWindows(found.element);
    const id = crypto.randomUUID();
    const current = {
      id, element: found.element, x: found.x, y: found.y, before: lastAim, types: GUARDED[action], windows,
      frames: framesAround(found.element), completes, complete: false,
      passed: [], blocked: null, received: null,
      expiry: setTimeout(() => disarm(id), GUARD_MAX_MS),
    };
    current.listener = (event) => intercept(current, event);
    current.menuListener = (event) => keepBrowserMenuClosed(current, event);
    for (const win of windows) {
      for (const type of GUARDED.click) win.addEventListener(type, current.listener, { capture: true, passive: false });
      win.addEventListener('contextmenu', current.menuListener);
    }
    guard = current;
    if (found.x !== undefined) lastAim = { x: found.x, y: found.y };
    delete found.element; // the element itself cannot leave the page
    return { ...found, guard: id, viewport: { width: innerWidth, height: innerHeight } };
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

  function intercept(current, event) {
    if (!event.isTrusted || !current.types.has(event.type)) return;
    if (leftBehind(current, event)) return;
    const path = event.composedPath();
    const hit = path.find((node) => node.nodeType === Node.ELEMENT_NODE) ?? null;
    const completes = event.type === current.completes.type && event.detail >= current.completes.detail;
    if (!current.element) {
      // a point: nothing to hold to, only what received the action
      if (hit && completes) current.received = interactiveAround(hit);
      return;
    }
    // Once the target has had the event that completes the action (a click's click, a hover's move),
    // what the page does next is its answer, not a miss: a Delete button that removes its own row
    // slides the next row under the pointer, and that row's mouseover must neither be held back
    // nor make the action count as missed (and tried again, on the next row).
    if (current.complete) return;
    // the pointer entering the target's ancestors (a mouseenter on its bar, on its frame) is on its way to it
    const onTheWay = MOVE_EVENTS.includes(event.type) && !!hit &&
      [current.element, ...current.frames].some((inside) => composedContains(hit, inside));
    // a click on a label of the target is a click on the target; a click on a target label goes on to its control
    const onTarget = onTheWay || path.includes(current.element) ||
      path.some((node) => node.localName === 'label' && node.control === current.element) ||
      (current.element.localName === 'label' && !!current.element.control && path.includes(current.element.control));
    if (onTarget && !current.blocked) {
      current.passed.push(event.type);
      current.complete = completes;
      return;
    }
    current.blocked ??= { hit: hit ? hitName(hit) : 'nothing', types: [] };
    if (!current.blocked.types.includes(event.type)) current.blocked.types.push(event.type);
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  // A right click the page leaves to the browser (no menu of its own) would
  // open Chrome's context menu: a window of the browser's that an agent can
  // neither see in a screenshot nor operate, left open on the user's screen.
  // Once the page's own listeners have had the event (this one listens last,
  // in the bubble phase of the window), the browser's menu is kept closed.
  function keepBrowserMenuClosed(current, event) {
    if (!event.isTrusted || event.defaultPrevented || current.completes.type !== 'contextmenu') return;
    event.preventDefault();
    current.browserMenuKept = true;
  }

  // A move event of the top window at the point the last action (or the try
  // before this one) left the pointer, not at this one's: the hover update
  // Chrome sends for the pointer's place when the page changes under it (an
  // overlay that try brought, now under it). It is not this action's pointer:
  // it goes on to the page, and counts neither as the target's nor as a miss.
  const AIM_SLACK_PX = 2;
  let lastAim = null;
  function nearPoint(event, point) {
    return Math.abs(event.clientX - point.x) <= AIM_SLACK_PX && Math.abs(event.clientY - point.y) <= AIM_SLACK_PX;
  }
  function leftBehind(current, event) {
    const { before } = current;
    if (!before || current.x === undefined || event.view !== window || !MOVE_EVENTS.includes(event.type)) return false;
    return nearPoint(event, before) && !nearPoint(event, current);
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
      win.removeEventListener('contextmenu', current.menuListener);
    }
    const { element, x, y, blocked } = current;
    return {
      passed: current.passed,
      // what was held back, and what is at the point now
      blocked: blocked && {
        ...blocked, now: hitName(deepElementFromPoint(x, y) ?? document.documentElement), gone: !element.isConnected,
      },
      received: current.received ? describe(current.received) : null,
      browser_menu_kept_closed: current.browserMenuKept === true,
    };
  }

  // Mutation counts since watch() and a few of the elements added, to tell
  // the agent what its action changed; and what became of the action's
  // target (`target`, if it has one: its labels follow it, labels.js).
  const changes = { added: 0, removed: 0, attributes: 0, text: 0, samples: [], last: 0 };
  let observer = null;

  function watch(target = null) {
    beginFollow(target);
    Object.assign(changes, { added: 0, removed: 0, attributes: 0, text: 0, samples: [], last: performance.now() });
    observer?.disconnect();
    observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.attributeName === UPLOAD_MARK) continue; // ours, on and off again: no change of the page's
        changes.last = performance.now();
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
    sawFollowed();
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

  // wait_for: is the selector's element there and visible, or the text on the page?
  function present({ selector, text }) {
    if (selector) {
      const found = resolve(selector);
      if (found.error === 'invalid_selector') return found;
      return { present: !found.error && found.element.checkVisibility({ checkVisibilityCSS: true }) };
    }
    return { present: collapse(document.body?.innerText).includes(collapse(text)) };
  }

  Object.assign(globalThis.__tabsightParts ??= {}, { locate, locateElement, aim, aimDrag, dragStarted, markFileInput, unmarkFileInput, checkHit, disarm, watch, changed, followed: endFollow, focus, present });
})();
