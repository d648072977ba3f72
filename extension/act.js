// The `element.act` and `page.wait_for` methods: acting on a page the way a
// user does, and saying what changed.
//
// Pointer and keyboard input go through the debugger (Input.dispatch*), so
// the page gets trusted events at real coordinates, as from a user; the
// target is located in the page first (inpage.js `locate`: scrolled into
// view, a point on it that nothing covers).
//
// A click or hover acts on the element it names, or on nothing: the page
// side guards the target from aiming to the end (inpage.js `aim`: events
// that would reach another element are stopped before the page sees them),
// the point is hit-tested again between the move and the press, and a
// target the page moved meanwhile is located again and tried once more;
// then the action is refused, naming what is at the point instead.
//
// A label (annotation id and number) names the element the annotation
// marked, kept in the page (inpage.js `resolveLabel`), never a selector
// match: if that element is gone, replaced or changed, stale_label. What
// the action itself made of its target (a new name, a new state), as the
// page shows it once settled, its labels follow (`followed` in the answer).
//
// upload sets files on a file input, or on the file chooser a click opens
// (see upload below); the browser reads the files, from the paths the front
// checked (host/tabsight/uploads.py).
//
// type and select take effect or fail: each control is edited by a means
// that works for it (inpage-input.js) and read back afterwards; the answer
// carries the value it holds now, or the call fails saying it did not change.

import { onEvent, send, withDebugger } from './cdp.js';
import { keepingUserFocus } from './user-focus.js';
import { Code, TabsightError, badRequest } from './errors.js';
import { currentDocument, inPage, inPageIfLoaded, runInPage } from './inpage-call.js';
import { MAX_UPLOAD_FILES } from './limits.js';
import { enumParam, intParam, optionalStringParam, tabIdParam } from './params.js';
import { tabUrl } from './restricted.js';

const ACTIONS = ['click', 'drag', 'upload', 'type', 'select', 'set', 'hover', 'press', 'scroll'];
// After an action, changes are collected until the DOM has been quiet this
// long, or SETTLE_MAX_MS has passed.
const QUIET_MS = 150;
const SETTLE_MAX_MS = 1500;
const POLL_MS = 50;
const NAVIGATION_WAIT_MS = 10_000;
// How long typing or selecting may take to show in the page (an editor
// renders a frame later), and a combobox's list to open.
const RESULT_WAIT_MS = 1000;
const OPEN_WAIT_MS = 1500;
// A typed control that changed, but not into the text, and stayed so this long: the page reformatted it.
const STEADY_MS = 300;
// Select-all and the end of a document are Meta+ on macOS, Control+ elsewhere.
const IS_MAC = /Mac/i.test(navigator.userAgentData?.platform ?? navigator.platform ?? '');

// Modifier bits of Input.dispatchKeyEvent.
const MODIFIERS = { Alt: 1, Control: 2, Ctrl: 2, Meta: 4, Command: 4, Shift: 8 };
// key -> [code, windowsVirtualKeyCode, text]
const NAMED_KEYS = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9, ''], Escape: ['Escape', 27, ''], Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''], Space: ['Space', 32, ' '], ArrowUp: ['ArrowUp', 38, ''], ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''], ArrowRight: ['ArrowRight', 39, ''], Home: ['Home', 36, ''], End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''], PageDown: ['PageDown', 34, ''],
};

export async function act(params, signal) {
  const tabId = tabIdParam(params);
  const action = enumParam(params, 'action', ACTIONS);
  const expected = optionalStringParam(params, 'document');
  const stale = expected !== null && (await currentDocument(tabId)) !== expected;
  const selector = targetParam(params, stale);
  const point = pointParam(params);
  const to = action === 'drag' ? destinationParam(params, stale) : null;
  if (stale && !params.annotation && !params.to?.annotation) {
    throw new TabsightError(Code.STALE_LABEL, 'the page has changed since the annotation');
  }
  const before = await chrome.tabs.get(tabId);
  const documentBefore = await inPage(tabId, 'watch', selector ?? null);
  signal.throwIfAborted();

  const did = await perform(tabId, action, selector, point, params, signal, to);
  const after = await settle(tabId, documentBefore, signal);
  // what the action made of its target, which its labels follow (inpage-labels.js)
  const followed = selector && !after.navigated ? await inPageIfLoaded(tabId, 'followed') : null;
  return {
    ...did,
    url: after.url,
    title: after.title,
    navigated: after.navigated || after.url !== tabUrl(before),
    ...(after.dom ? { dom: after.dom } : {}),
    ...(followed ? { followed } : {}),
  };
}

// What to act on: a selector, or a label ({annotation, label, selector?})
// when the request names an annotation. A label of another document than
// the tab shows now (stale) is refused; a selector copied from an
// annotation (annotated_selector) is a plain selector on a new page.
function targetParam(params, stale) {
  const selector = optionalStringParam(params, 'selector');
  const annotation = optionalStringParam(params, 'annotation');
  if (!annotation) return selector;
  const label = intParam(params, 'label', 1, 1000);
  if (!stale) return { annotation, label, ...(selector ? { selector } : {}) };
  if (params.annotated_selector !== true || !selector) {
    throw new TabsightError(Code.STALE_LABEL, `label ${label} is stale: observe again (the tab shows another document now)`);
  }
  return selector;
}

// Where a drag ends: {selector} (a selector or a label, as targetParam) or
// {point}, from the request's `to`, which names one or the other.
function destinationParam(params, stale) {
  const { to } = params;
  if (typeof to !== 'object' || to === null || Array.isArray(to)) {
    throw badRequest(`Invalid to: ${JSON.stringify(to)?.slice(0, 200)} (allowed: {selector} or {annotation, label} or {x, y})`);
  }
  const selector = targetParam(to, stale);
  const point = pointParam(to);
  if (!selector === !point) {
    throw badRequest(`Invalid to: ${JSON.stringify(to).slice(0, 200)} (allowed: one of selector, a label, or x and y)`);
  }
  return { selector, point };
}

const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

function pointParam(params) {
  if (params.x === undefined && params.y === undefined) return null;
  const x = params.x;
  const y = params.y;
  if (typeof x !== 'number' || typeof y !== 'number' || x < 0 || y < 0) {
    throw badRequest(`Invalid x/y: ${JSON.stringify([x, y])} (allowed: both, numbers >= 0, CSS px of the viewport)`);
  }
  return { x, y };
}

// The viewport ({width, height}) of the screenshot a point was taken from, if the caller knows it.
function viewportParam(params) {
  const { viewport } = params;
  if (viewport === undefined) return null;
  if (!Number.isInteger(viewport?.width) || !Number.isInteger(viewport?.height)) {
    throw badRequest(`Invalid viewport: ${JSON.stringify(viewport)} (allowed: {width, height}, CSS px integers)`);
  }
  return viewport;
}

// Where the action lands: the located element's point, or the given one.
async function locateTarget(tabId, selector, point, { focusOnly = false } = {}) {
  if (!selector) return { ...point, target: null };
  const located = await inPage(tabId, focusOnly ? 'focus' : 'locate', selector);
  if (located.error) throw new TabsightError(located.error, located.message);
  return located;
}

async function perform(tabId, action, selector, point, params, signal, to) {
  switch (action) {
    case 'drag': {
      if (!selector && !point) throw badRequest('drag needs a source: label, selector, or x and y');
      const viewport = viewportParam(params);
      return exclusive(tabId, () => withDebugger(tabId, () => drag(tabId, { selector, point }, to, viewport, signal)));
    }
    case 'upload': {
      if (!selector && !point) throw badRequest('upload needs a target: label, selector, or x and y');
      const files = filesParam(params);
      const viewport = viewportParam(params);
      return exclusive(tabId, () => withDebugger(tabId, () => upload(tabId, selector, point, files, viewport, signal)));
    }
    case 'click':
    case 'hover': {
      if (!selector && !point) throw badRequest(`${action} needs a target: label, selector, or x and y`);
      const press = action === 'click' ? pressParam(params) : null;
      return exclusive(tabId, () => pointerAction(tabId, action, selector, point, viewportParam(params), press, signal));
    }
    case 'type': {
      const text = typeof params.text === 'string' ? params.text : null;
      if (text === null) throw badRequest('type needs text, a string');
      return exclusive(tabId, () => typeText(tabId, selector, text, params, signal));
    }
    case 'select': {
      if (!selector) throw badRequest('select needs a target: label or selector of a <select>, a listbox or a combobox');
      const value = optionalStringParam(params, 'value');
      if (value === null) throw badRequest('select needs value: an option\'s value or its visible text');
      return exclusive(tabId, () => selectOption(tabId, selector, value, signal));
    }
    case 'set': {
      if (!selector) throw badRequest('set needs a target: label or selector of a form control');
      const { value } = params;
      if (typeof value !== 'string' && typeof value !== 'boolean') {
        throw badRequest(`Invalid value: ${JSON.stringify(value)} (allowed: a string, or true or false)`);
      }
      return exclusive(tabId, () => setControl(tabId, selector, value, signal));
    }
    case 'press': {
      const combo = optionalStringParam(params, 'key');
      if (!combo) throw badRequest('press needs key, e.g. "Enter", "Escape", "Control+A"');
      const { target } = selector ? await locateTarget(tabId, selector, null, { focusOnly: true }) : { target: null };
      await withDebugger(tabId, () => pressCombo(tabId, combo, signal));
      return { did: `pressed ${combo}`, target };
    }
    case 'scroll': {
      if (selector) {
        const { target } = await locateTarget(tabId, selector, null);
        return { did: 'scrolled the element into view', target };
      }
      const deltaX = intParam(params, 'delta_x', -100_000, 100_000, 0);
      const deltaY = intParam(params, 'delta_y', -100_000, 100_000, 0);
      const tab = await chrome.tabs.get(tabId);
      const at = point ?? { x: tab.width / 2, y: tab.height / 2 };
      await withDebugger(tabId, () => send(tabId, 'Input.dispatchMouseEvent',
        { type: 'mouseWheel', x: at.x, y: at.y, deltaX, deltaY }, signal));
      return { did: `scrolled by (${deltaX}, ${deltaY})`, target: null };
    }
    default:
      throw badRequest(`Unknown action ${action}`);
  }
}

// click / hover: aim (locate and guard), move, check the point still hits
// the target, press and release (click), and read what the guard saw. A
// miss on the first try (the page moved the target, or covered it, as the
// pointer came or as it pressed) is tried once more from a fresh locate.
async function pointerAction(tabId, action, selector, point, viewport, press, signal) {
  signal?.throwIfAborted(); // cancelled while it waited its turn
  // Attached before locating: in a headed browser the first attachment's
  // debugging bar resizes the page, and that has settled (cdp.js) before
  // anything is measured, so the point holds until the press.
  return withDebugger(tabId, () => (action === 'click'
    ? keepingChoosersClosed(tabId, () => aimAndPress(tabId, action, selector, point, viewport, press, signal))
    : aimAndPress(tabId, action, selector, point, viewport, press, signal)));
}

// A click that opens a file chooser opens none: choosers are intercepted
// meanwhile (as upload does), so no dialog the agent can neither see nor
// use comes up on the user's screen; the answer says the click opened one,
// and that upload answers it. (A chooser a page opens later, after a step
// of its own, shows as it would.)
async function keepingChoosersClosed(tabId, click) {
  let opened = false;
  const stopListening = onEvent(tabId, (method) => {
    if (method === 'Page.fileChooserOpened') opened = true;
  });
  try {
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
    const clicked = await click();
    return opened ? { ...clicked, file_chooser: 'the click opened a file chooser, kept closed: to choose files, ' +
      'use action upload with this target and files' } : clicked;
  } finally {
    stopListening();
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => {});
  }
}

// A click's button, count and held keys (click_count 2: a double-click, as a
// user makes it: two presses, the second with clickCount 2, so the page gets
// click, click and dblclick). A plain left click when the request says none.
const BUTTONS = ['left', 'right', 'middle'];
const CLICK_MODIFIERS = ['Alt', 'Control', 'Meta', 'Shift', 'ControlOrMeta'];
function pressParam(params) {
  const button = params.button === undefined ? 'left' : enumParam(params, 'button', BUTTONS);
  const clickCount = intParam(params, 'click_count', 1, 3, 1);
  const names = params.modifiers ?? [];
  if (!Array.isArray(names) || names.some((name) => !CLICK_MODIFIERS.includes(name))) {
    throw badRequest(`Invalid modifiers: ${JSON.stringify(names).slice(0, 200)} (allowed: a list of ${CLICK_MODIFIERS.join(', ')})`);
  }
  const held = [...new Set(names.map((name) => (name === 'ControlOrMeta' ? (IS_MAC ? 'Meta' : 'Control') : name)))];
  return { button, clickCount, held, modifiers: held.reduce((bits, name) => bits | MODIFIERS[name], 0) };
}

const LEFT_CLICK = { button: 'left', clickCount: 1, held: [], modifiers: 0 };

// "double-click", "right-click with Shift": how the answer names a click.
function clickName({ button, clickCount, held }) {
  const count = ['', '', 'double-', 'triple-'][clickCount];
  const kind = button === 'left' ? `${count}click` : `${button} ${count}click`;
  return held.length ? `${kind} with ${held.join('+')}` : kind;
}

async function aimAndPress(tabId, action, selector, point, viewport, clickPress, signal) {
  const press = action === 'click' ? clickPress ?? LEFT_CLICK : null;
  let moved = null; // the first try's miss: what was at the point instead
  for (let attempt = 1; ; attempt++) {
    const aimed = await abortable(inPage(tabId, 'aim', selector, point, action, press && {
      button: press.button, count: press.clickCount,
    }), signal);
    if (aimed.error) {
      throw new TabsightError(aimed.error, moved ? `${aimed.message} (${movedNote(moved)})` : aimed.message);
    }
    const { x, y, guard, target } = aimed;
    const where = `(${Math.round(x)}, ${Math.round(y)})`;
    let outcome = {};
    let report; // the guard's, set in the finally below
    try {
      if (!selector) sameViewport(viewport, aimed.viewport, where);
      await mouse(tabId, 'mouseMoved', x, y, signal, press ?? LEFT_CLICK);
      const check = selector ? await abortable(inPage(tabId, 'checkHit', guard), signal) : { ok: true };
      if (!check.ok) {
        outcome = { missed: { when: 'move', ...check } };
      } else if (action === 'click') {
        await keepingUserFocus(tabId, async () => {
          for (let count = 1; count <= press.clickCount; count++) {
            await mouse(tabId, 'mousePressed', x, y, signal, { ...press, clickCount: count });
            await mouse(tabId, 'mouseReleased', x, y, signal, { ...press, clickCount: count });
          }
        });
      }
    } finally {
      report = await abortable(inPageIfLoaded(tabId, 'disarm', guard), signal).catch(() => null);
    }
    // a miss after the check: the press made the page move it (the guard held the events back)
    const missed = outcome.missed ?? (report?.blocked ? { ...report.blocked, when: 'press' } : null);
    if (!missed) {
      const notes = [moved && movedNote(moved),
        report?.browser_menu_kept_closed && "the page opened no menu of its own, and the browser's was kept closed"];
      const said = notes.filter(Boolean).join('; ');
      const did = `${press ? clickName(press) : action} at ${where}${said ? ` (${said})` : ''}`;
      return selector ? { did, target } : { did, target, received: report?.received ?? null };
    }
    if (attempt === 1) {
      moved = { ...missed, where };
      continue;
    }
    throw new TabsightError(Code.ELEMENT_COVERED, missedMessage(action, selector, target, missed, where));
  }
}

// drag: press on the source, move to the destination in steps, release
// there. The first move goes just past the distance at which browsers and
// libraries take a press for a drag (SortableJS, HTML5 drag and drop), the
// rest in steps, since pages follow the pointer move by move. With drag
// interception on, an HTML5 drag the moves start (a draggable element, a
// dragstart the page did not cancel) comes back as its drag data
// (Input.dragIntercepted): Chromium runs no native drag for input from
// the debugger, so that drag goes on as drag events (dragenter, dragover,
// drop) dispatched at the same steps. Either way nothing is left behind:
// interception is switched off again, and a drag cut short (an error, a
// cancelled call) is released or cancelled.
async function drag(tabId, source, destination, viewport, signal) {
  signal?.throwIfAborted(); // cancelled while it waited its turn
  const aimed = await abortable(inPage(tabId, 'aimDrag', source.selector, source.point,
    destination.selector, destination.point), signal);
  if (aimed.error) throw new TabsightError(aimed.error, aimed.message);
  const { from, to } = aimed;
  const path = `from (${Math.round(from.x)}, ${Math.round(from.y)}) to (${Math.round(to.x)}, ${Math.round(to.y)})`;
  if (source.point || destination.point) sameViewport(viewport, aimed.viewport, path);
  const steps = dragSteps(from, to);
  let intercepted = null;
  let gotData = null;
  const dataCame = new Promise((resolve) => { gotData = resolve; });
  const stopListening = onEvent(tabId, (method, event) => {
    if (method === 'Input.dragIntercepted') gotData(event.data);
  });
  let pressed = false;
  let at = from;
  try {
    await send(tabId, 'Input.setInterceptDrags', { enabled: true }, signal);
    await mouse(tabId, 'mouseMoved', from.x, from.y, signal, LEFT_CLICK);
    await keepingUserFocus(tabId, () => mouse(tabId, 'mousePressed', from.x, from.y, signal, LEFT_CLICK));
    pressed = true;
    [at] = steps;
    await mouse(tabId, 'mouseMoved', at.x, at.y, signal, HELD);
    const started = await abortable(inPage(tabId, 'dragStarted'), signal);
    if (started) intercepted = await abortable(within(dataCame, INTERCEPT_WAIT_MS), signal);
    if (intercepted) await dragEvent(tabId, 'dragEnter', at, intercepted, signal);
    for (at of steps.slice(1)) {
      await sleep(STEP_MS, signal);
      await (intercepted ? dragEvent(tabId, 'dragOver', at, intercepted, signal)
        : mouse(tabId, 'mouseMoved', at.x, at.y, signal, HELD));
    }
    await sleep(STEP_MS, signal);
    await (intercepted ? dragEvent(tabId, 'drop', to, intercepted, signal)
      : mouse(tabId, 'mouseReleased', to.x, to.y, signal, LEFT_CLICK));
    pressed = false;
  } finally {
    stopListening();
    if (pressed) {
      // cut short: a drag the page saw start is cancelled, a press released where the pointer is
      await (intercepted ? dragEvent(tabId, 'dragCancel', at, { items: [], dragOperationsMask: 0xFFFF })
        : mouse(tabId, 'mouseReleased', at.x, at.y, undefined, LEFT_CLICK)).catch(() => {});
    }
    await send(tabId, 'Input.setInterceptDrags', { enabled: false }).catch(() => {});
  }
  return {
    did: `dragged ${path}`,
    source: aimed.source,
    destination: aimed.destination,
    html5_drag: intercepted !== null,
  };
}

// upload: the files go to the target's <input type=file> (or its <label>'s)
// directly, by DOM.setFileInputFiles, hidden or not, as the page's own
// button would have put them there. Any other target (a button, a drop
// zone, a point) is clicked as click does, guarded, with file choosers
// intercepted (Page.setInterceptFileChooserDialog): the chooser the click
// opens never shows, it comes back as Page.fileChooserOpened, naming its
// input, and the files are set on that. Either way the page gets its input
// and change events (trusted) as from a chooser, and what the input holds
// then is read back. Interception is switched off again whatever happens.
// (Chromium 156 takes DOM.setFileInputFiles from an extension's debugger
// directly, chooser or not, if the extension has file access: an unpacked
// extension has it unless the user turned it off.)
async function upload(tabId, selector, point, files, viewport, signal) {
  signal?.throwIfAborted(); // cancelled while it waited its turn
  if (!(await chrome.extension.isAllowedFileSchemeAccess())) {
    throw new TabsightError(Code.NO_FILE_ACCESS, 'The browser gives files to the debugger of an extension allowed ' +
      'file access only, and tabsight\'s is not: its "Allow access to file URLs" is off');
  }
  const input = selector ? await abortable(inPage(tabId, 'markFileInput', selector), signal) : { mark: null };
  if (input.error) throw new TabsightError(input.error, input.message);
  if (!input.mark) return uploadThroughChooser(tabId, selector, point, files, viewport, signal);
  let backendNodeId;
  try {
    if (!input.multiple && files.length > 1) {
      throw badRequest(`${targetName(selector)} (an <input type=file> without multiple) takes one file, not ${files.length}`);
    }
    backendNodeId = await markedNode(tabId, input.mark, signal);
  } finally {
    await inPageIfLoaded(tabId, 'unmarkFileInput');
  }
  const held = await setFiles(tabId, backendNodeId, files, signal);
  return { did: `set ${filesCount(files)} on the file input`, target: input.target, via: 'input', ...held };
}

async function uploadThroughChooser(tabId, selector, point, files, viewport, signal) {
  let opened = null;
  const chooser = new Promise((resolve) => { opened = resolve; });
  const stopListening = onEvent(tabId, (method, event) => {
    if (method === 'Page.fileChooserOpened') opened(event);
  });
  try {
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true }, signal);
    const { did, ...clicked } = await aimAndPress(tabId, 'click', selector, point, viewport, LEFT_CLICK, signal);
    const event = await abortable(within(chooser, CHOOSER_WAIT_MS), signal);
    const named = selector ? targetName(selector) : `(${Math.round(point.x)}, ${Math.round(point.y)})`;
    if (!event) {
      throw badRequest(`The click on ${named} opened no file chooser within ${CHOOSER_WAIT_MS} ms (${did}); ` +
        'target the <input type=file> itself, or the button or drop zone that opens it');
    }
    // (the protocol names the input of every chooser that has one)
    if (event.backendNodeId === undefined) {
      throw badRequest(`The click on ${named} opened a file chooser of no <input type=file>: upload cannot answer it`);
    }
    if (event.mode === 'selectSingle' && files.length > 1) {
      throw badRequest(`The file chooser the click on ${named} opened takes one file, not ${files.length}`);
    }
    const held = await setFiles(tabId, event.backendNodeId, files, signal);
    return { did: `${did}, and set ${filesCount(files)} on the file chooser it opened`, ...clicked, via: 'chooser', ...held };
  } finally {
    stopListening();
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => {});
  }
}

// How long a click may take to open its chooser (a page may open it after
// a step of its own; the click's user activation lasts 5 s).
const CHOOSER_WAIT_MS = 1500;
// The group of the debugger's handles on the input (released after the read).
const UPLOAD_OBJECTS = 'tabsight-upload';

const filesCount = (files) => (files.length === 1 ? '1 file' : `${files.length} files`);

// The backend node of the element the page side marked (inpage-act.js
// markFileInput: its attribute UPLOAD_MARK).
async function markedNode(tabId, mark, signal) {
  await send(tabId, 'DOM.getDocument', { depth: 0 }, signal);
  try {
    const query = `[data-tabsight-upload="${mark}"]`;
    const { searchId, resultCount } = await send(tabId, 'DOM.performSearch', { query }, signal);
    try {
      if (resultCount !== 1) {
        throw new TabsightError(Code.ELEMENT_NOT_FOUND, 'The file input went from the page before its files could be set');
      }
      const { nodeIds } = await send(tabId, 'DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: 1 }, signal);
      const { node } = await send(tabId, 'DOM.describeNode', { nodeId: nodeIds[0] }, signal);
      return node.backendNodeId;
    } finally {
      send(tabId, 'DOM.discardSearchResults', { searchId }).catch(() => {});
    }
  } finally {
    // DOM.getDocument switched the DOM domain on: off again, or it reports every change of the page while attached
    send(tabId, 'DOM.disable').catch(() => {});
  }
}

// Sets the files on the input, and reads back what it holds then
// ({input_files: [{name, size}]}; a page that takes the files and empties
// its input shows none).
async function setFiles(tabId, backendNodeId, files, signal) {
  await send(tabId, 'DOM.setFileInputFiles', { files, backendNodeId }, signal);
  try {
    const { object } = await send(tabId, 'DOM.resolveNode', { backendNodeId, objectGroup: UPLOAD_OBJECTS }, signal);
    const { result } = await send(tabId, 'Runtime.callFunctionOn',
      { objectId: object.objectId, functionDeclaration: heldFiles.toString(), returnByValue: true }, signal);
    return { input_files: Array.isArray(result.value) ? result.value : null };
  } finally {
    send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: UPLOAD_OBJECTS }).catch(() => {});
  }
}

// Run on the input, in the page: the files it holds.
function heldFiles() {
  return Array.from(this.files ?? [], (file) => ({ name: file.name, size: file.size }));
}

// The files an upload sets: absolute paths, which the front has checked
// against its allowed folders (host/tabsight/uploads.py).
function filesParam(params) {
  const { files } = params;
  const absolute = (path) => typeof path === 'string' && (path.startsWith('/') || /^[A-Za-z]:[\\/]|^\\\\/.test(path));
  if (!Array.isArray(files) || files.length < 1 || files.length > MAX_UPLOAD_FILES || !files.every(absolute)) {
    throw badRequest(`Invalid files: ${JSON.stringify(files)?.slice(0, 200)} (allowed: 1 to ${MAX_UPLOAD_FILES} absolute paths)`);
  }
  return files;
}

// The points a drag's pointer passes: past the drag threshold first, then
// in even steps to the destination (a short drag: in one).
const DRAG_THRESHOLD_PX = 10;
const DRAG_STEPS = 10;
// A frame between steps, as a hand's moves come: pages follow the pointer
// by frames, and some ignore moves that come sooner after a change
// (SortableJS, for 30 ms after each move of an item).
const STEP_MS = 16;
// How long the drag data of a drag the page started may take to come.
const INTERCEPT_WAIT_MS = 2000;
// A move with the left button held.
const HELD = { ...LEFT_CLICK, buttons: 1 };

function dragSteps(from, to) {
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  if (length <= DRAG_THRESHOLD_PX) return [to];
  const along = (share) => ({ x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share });
  const first = DRAG_THRESHOLD_PX / length;
  return [along(first), ...Array.from({ length: DRAG_STEPS }, (_, i) => along(first + ((1 - first) * (i + 1)) / DRAG_STEPS))];
}

function dragEvent(tabId, type, { x, y }, data, signal) {
  return send(tabId, 'Input.dispatchDragEvent', { type, x, y, data }, signal);
}

// The promise's value, or null if it takes longer than ms.
function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// A point comes from a screenshot: it means the same place only in a
// viewport of that screenshot's size (a bar that came or went since, or a
// resized window, moves whatever is laid out from the bottom or the right).
function sameViewport(expected, now, where) {
  if (!expected || (expected.width === now.width && expected.height === now.height)) return;
  throw new TabsightError(Code.VIEWPORT_CHANGED,
    `Did not act at ${where}: the viewport is ${now.width}x${now.height} now, and was ` +
    `${expected.width}x${expected.height} in the screenshot these coordinates came from.`);
}

function movedNote(moved) {
  return `located it again: at ${moved.where} the page had put ${moved.now ?? moved.hit}`;
}

function missedMessage(action, selector, target, missed, where) {
  const named = `${targetName(selector)}${target ? ` (<${target.tag}>${target.name ? ` ${JSON.stringify(target.name)}` : ''})` : ''}`;
  if (missed.when === 'move' && missed.gone) {
    return `Did not ${action} ${named}: the page removed it as the pointer came, twice; ${missed.hit} is at ${where} now.`;
  }
  if (missed.when === 'press') {
    return `Did not ${action} ${named}: the page ${missed.gone ? 'replaced' : 'moved'} it as it was pressed, twice; ` +
      `at ${where} there is ${missed.now} now (its ${missed.types.join(', ')} were kept from the page).`;
  }
  return `Did not ${action} ${named}: at ${where} there is ${missed.hit} now, not it; ` +
    'the page moved or covered it as the pointer came, also after it was located a second time.';
}

// type: into what the target edits (or the focused element), by the means
// that works for it (inpage-input.js): a value-taking input (date, color,
// range, number...) is set in the page; text fields, contenteditable and
// code editors get trusted keyboard input here. Then it is read back: the
// answer carries what the control holds now, or the call fails saying the
// control did not change. Enter (submit) comes after the check.
async function typeText(tabId, selector, text, params, signal) {
  const clear = params.clear === true;
  const plan = await abortable(inPage(tabId, 'beginTyping', selector ?? null, text, clear), signal);
  if (plan.error) throw new TabsightError(plan.error, plan.message);
  let outcome = plan; // 'set': done in the page
  if (plan.via !== 'set' || params.submit) {
    await withDebugger(tabId, async () => {
      if (plan.via !== 'set') {
        // an editor's caret stays where it was: to its end, to append as after a click past the text
        if (plan.toEnd) await pressCombo(tabId, IS_MAC ? 'Meta+ArrowDown' : 'Control+End', signal);
        if (clear) {
          await key(tabId, 'a', { modifiers: MODIFIERS[IS_MAC ? 'Meta' : 'Control'], commands: ['selectAll'] }, signal);
          await key(tabId, 'Backspace', {}, signal);
        }
        if (text) await send(tabId, 'Input.insertText', { text }, signal);
        if (plan.via === 'keys' && (text || clear)) outcome = await typingOutcome(tabId, selector, plan, signal);
      }
      if (params.submit) await key(tabId, 'Enter', {}, signal);
    });
  }
  const what = typedWhat(plan, text, clear);
  return {
    did: params.submit ? `${what}, then Enter` : what,
    target: plan.target,
    ...(outcome.value !== undefined ? { value: outcome.value } : {}),
  };
}

function typedWhat(plan, text, clear) {
  const count = `${[...text].length} characters`;
  if (plan.via === 'set') return 'set its value (input and change events)';
  if (plan.via === 'blind') return `sent ${count} into a cross-origin frame (what it holds cannot be read from this page)`;
  if (!text) return clear ? 'cleared it' : 'nothing to type (text is empty)';
  return `typed ${count}${plan.editor ? ` into the ${plan.editor} editor` : ''}${clear ? ' after clearing' : ''}`;
}

// What the control holds after typing: read until it shows the text (an
// editor draws it a frame or two later); a control that changed otherwise
// and keeps that (a page that reformats what is typed) is reported as it
// is; one that did not change fails.
async function typingOutcome(tabId, selector, plan, signal) {
  const deadline = performance.now() + RESULT_WAIT_MS;
  for (;;) {
    const result = await abortable(inPage(tabId, 'typingResult'), signal);
    if (result.error) throw new TabsightError(result.error, result.message);
    if (result.reached || (result.changed && result.steady_ms >= STEADY_MS)) return result;
    if (performance.now() > deadline) {
      if (result.changed) return result;
      const named = `${selector ? targetName(selector) : 'The focused element'} (<${plan.target.tag}>` +
        `${plan.target.name ? ` ${JSON.stringify(plan.target.name)}` : ''})`;
      const still = result.value !== undefined ? `: it still holds ${JSON.stringify(result.value)}` : '';
      throw badRequest(`${named} did not take the text${still}; the page refused or undid it`);
    }
    await sleep(POLL_MS, signal);
  }
}

// select: a native <select> is set in the page; an ARIA combobox or listbox
// is operated as a user does, with trusted clicks: the combobox opened (and
// ArrowDown pressed if a click does not open it), the option clicked, and
// then checked: the page must show it selected.
async function selectOption(tabId, selector, value, signal) {
  const plan = await abortable(inPage(tabId, 'beginSelect', selector, value), signal);
  if (plan.error) throw new TabsightError(plan.error, plan.message);
  if (plan.done) return plan.done;
  if (plan.open) await pointerAction(tabId, 'click', plan.open, null, null, null, signal);
  const found = await optionShown(tabId, selector, signal);
  if (found.done) return found.done;
  await pointerAction(tabId, 'click', found.option, null, null, null, signal);
  const deadline = performance.now() + RESULT_WAIT_MS;
  for (;;) {
    const result = await abortable(inPage(tabId, 'selectResult'), signal);
    if (result.error) throw new TabsightError(result.error, result.message);
    if (result.done) {
      return { did: result.did, target: result.target, ...(result.value !== undefined ? { value: result.value } : {}),
        ...(result.text !== undefined ? { text: result.text } : {}) };
    }
    if (performance.now() > deadline) {
      throw badRequest(`Clicked option ${JSON.stringify(found.name)} of ${targetName(selector)}, ` +
        `but the page does not show it selected (${result.shows})`);
    }
    await sleep(POLL_MS, signal);
  }
}

// set (a field of `fill`): the control is set by the means that works for it
// (inpage-input.js controlKind): an option selected, a checkbox, radio button
// or switch clicked if it is not in the state wanted (and read back), any
// other field typed into, cleared first. The answer's value is what it holds.
async function setControl(tabId, selector, value, signal) {
  const control = await abortable(inPage(tabId, 'controlKind', selector), signal);
  if (control.error) throw new TabsightError(control.error, control.message);
  if (control.kind === 'select') return selectOption(tabId, selector, String(value), signal);
  if (control.kind === 'field') {
    return typeText(tabId, selector, typeof value === 'string' ? value : String(value), { clear: true }, signal);
  }
  const named = `${targetName(selector)} (<${control.target.tag}>${control.target.name ? ` ${JSON.stringify(control.target.name)}` : ''})`;
  if (typeof value !== 'boolean') {
    throw badRequest(`${named} is a ${control.radio ? 'radio button' : 'checkbox'}: its value is true or false, ` +
      `not ${JSON.stringify(value)}`);
  }
  if (control.checked === value) return { did: `${value ? 'checked' : 'unchecked'} already`, target: control.target, value };
  if (control.radio && !value) {
    throw badRequest(`${named} is a radio button: it is unchecked by checking another of its group`);
  }
  await pointerAction(tabId, 'click', selector, null, null, null, signal);
  // read back twice, POLL_MS apart: a page that undoes the click does so in a handler of its own, a moment later
  const deadline = performance.now() + RESULT_WAIT_MS;
  let held = 0;
  for (;;) {
    const now = await abortable(inPage(tabId, 'controlKind', selector), signal);
    if (now.error) throw new TabsightError(now.error, now.message);
    held = now.checked === value ? held + 1 : 0;
    if (held === 2) return { did: value ? 'checked' : 'unchecked', target: now.target, value };
    if (performance.now() > deadline) {
      throw badRequest(`Clicked ${named}, but it is ${now.checked ? 'checked' : 'unchecked'} again: the page refused or undid it`);
    }
    await sleep(POLL_MS, signal);
  }
}

// The option to click, once the listbox is shown: a combobox whose list a
// click did not open gets ArrowDown (what opens it by keyboard) halfway.
async function optionShown(tabId, selector, signal) {
  const started = performance.now();
  let pressed = false;
  for (;;) {
    const found = await abortable(inPage(tabId, 'findOption'), signal);
    if (found.error) throw new TabsightError(found.error, found.message);
    if (!found.waiting) return found;
    const waited = performance.now() - started;
    if (!pressed && found.focused && waited > OPEN_WAIT_MS / 2) {
      await withDebugger(tabId, () => key(tabId, 'ArrowDown', {}, signal));
      pressed = true;
    }
    if (waited > OPEN_WAIT_MS) {
      throw new TabsightError(Code.ELEMENT_NOT_VISIBLE, `The list of ${targetName(selector)} did not open ` +
        `(clicked it${pressed ? ', then pressed ArrowDown' : ''}); open it yourself, then select again`);
    }
    await sleep(POLL_MS, signal);
  }
}

// Pointer actions on one tab take turns (the page keeps one guard at a
// time), and so do typing and selecting (each keeps its control between calls).
const actionTurns = new Map();

function exclusive(tabId, fn) {
  const previous = actionTurns.get(tabId) ?? Promise.resolve();
  const run = previous.then(fn);
  const done = run.catch(() => {});
  actionTurns.set(tabId, done);
  done.then(() => {
    if (actionTurns.get(tabId) === done) actionTurns.delete(tabId);
  });
  return run;
}

// A page call that stops waiting when the request is cancelled (a page
// behind an open dialog answers no script until the dialog is closed).
function abortable(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// A move carries the held keys too (a page reads them on hover), and a
// drag's the button held (buttons: pages that follow a dragging pointer
// check it); a press or release names its button and how many clicks it makes.
function mouse(tabId, type, x, y, signal, { button, clickCount, modifiers, buttons }) {
  const pressed = type === 'mouseMoved' ? (buttons ? { button, buttons } : {}) : { button, clickCount };
  return send(tabId, 'Input.dispatchMouseEvent', { type, x, y, modifiers, ...pressed }, signal);
}

// "Control+Shift+K", "Enter", "a": modifiers held around the key.
async function pressCombo(tabId, combo, signal) {
  const parts = combo.split('+');
  const name = parts.pop() || '+';
  let modifiers = 0;
  for (const part of parts) {
    if (!(part in MODIFIERS)) {
      throw badRequest(`Invalid key ${JSON.stringify(combo)}: unknown modifier ${part} (allowed: ${Object.keys(MODIFIERS).join(', ')})`);
    }
    modifiers |= MODIFIERS[part];
  }
  await key(tabId, name, { modifiers }, signal);
}

async function key(tabId, name, { modifiers = 0, commands = undefined }, signal) {
  let definition;
  if (name in NAMED_KEYS) {
    const [code, keyCode, text] = NAMED_KEYS[name];
    definition = { key: name === 'Space' ? ' ' : name, code, windowsVirtualKeyCode: keyCode, text };
  } else if ([...name].length === 1) {
    const upper = name.toUpperCase();
    const code = /[A-Z]/.test(upper) ? `Key${upper}` : /[0-9]/.test(name) ? `Digit${name}` : '';
    definition = { key: name, code, windowsVirtualKeyCode: upper.charCodeAt(0), text: name };
  } else {
    throw badRequest(`Invalid key ${JSON.stringify(name)} (allowed: one character or ${Object.keys(NAMED_KEYS).join(', ')})`);
  }
  // With Control, Alt or Meta held the key produces no text: it is a shortcut.
  const text = modifiers & (MODIFIERS.Alt | MODIFIERS.Control | MODIFIERS.Meta) ? '' : definition.text;
  await send(tabId, 'Input.dispatchKeyEvent', {
    type: text ? 'keyDown' : 'rawKeyDown', ...definition, text, unmodifiedText: text, modifiers,
    ...(commands ? { commands } : {}),
  }, signal);
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...definition, text: undefined, modifiers }, signal);
}

// What the action changed: DOM mutations until the page is quiet, or the
// new page if it navigated.
async function settle(tabId, documentBefore, signal) {
  const deadline = performance.now() + SETTLE_MAX_MS;
  for (;;) {
    await sleep(POLL_MS, signal);
    let state = null;
    try {
      // null when this document has no library: a new page
      state = await runInPage(tabId, { func: () => globalThis.__tabsight?.changed() ?? null });
    } catch {
      // mid-navigation: the document is being replaced
    }
    if (state === null || state.document !== documentBefore) return { ...(await loadedTab(tabId, signal)), navigated: true };
    if (performance.now() > deadline) return { url: state.url, title: state.title, navigated: false, dom: state.dom };
    // quiet, unless the tab is loading: a form's submit leaves its page quiet until the next page commits, which
    // a slow server or a loaded machine can keep past QUIET_MS (a CI run answered navigated: false so)
    if (state.quiet_ms >= QUIET_MS && (await chrome.tabs.get(tabId)).status !== 'loading') {
      return { url: state.url, title: state.title, navigated: false, dom: state.dom };
    }
  }
}


async function loadedTab(tabId, signal) {
  const deadline = performance.now() + NAVIGATION_WAIT_MS;
  let tab = await chrome.tabs.get(tabId);
  while (tab.status === 'loading' && performance.now() < deadline) {
    await sleep(POLL_MS, signal);
    tab = await chrome.tabs.get(tabId);
  }
  return { url: tabUrl(tab), title: tab.title ?? '' };
}

// Polls sleep many times on one request's signal: each sleep takes its
// abort listener away again.
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function waitFor(params, signal) {
  const tabId = tabIdParam(params);
  const selector = optionalStringParam(params, 'selector');
  const text = optionalStringParam(params, 'text');
  const timeoutMs = intParam(params, 'timeout_ms', 0, 120_000, 5000);
  if (!selector === !text) throw badRequest('wait_for needs exactly one of selector or text');
  const started = performance.now();
  for (;;) {
    let state = { present: false };
    try {
      state = await inPage(tabId, 'present', { selector, text });
    } catch (err) {
      if (err.code === Code.RESTRICTED_PAGE) throw err; // anything else: a navigation in progress; look again
    }
    if (state.error) throw new TabsightError(Code.BAD_REQUEST, state.message);
    const waited = Math.round(performance.now() - started);
    if (state.present) return { found: selector ? { selector } : { text }, waited_ms: waited };
    if (waited >= timeoutMs) {
      throw new TabsightError(Code.TIMEOUT, `wait_for timed out after ${timeoutMs} ms: ` +
        (selector ? `no visible element matches ${selector}` : `the text ${JSON.stringify(text)} is not on the page`));
    }
    await sleep(100, signal);
  }
}
