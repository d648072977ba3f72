// The pointer's actions: click, hover, scroll and drag.
//
// A click or hover acts on the element it names, or on nothing: the page
// side guards the target from aiming to the end (page-library/api.js `aim`: events
// that would reach another element are stopped before the page sees them),
// the point is hit-tested again between the move and the press, and a
// target the page moved meanwhile is located again, once it holds still,
// and tried once more; then the action is refused, naming what is at the
// point instead.

import { onEvent, send, withDebugger } from '../cdp.js';
import { keepingUserFocus } from '../user-focus.js';
import { Code, TabsightError, badRequest } from '../errors.js';
import { inPage, inPageIfLoaded } from '../page-library-calls.js';
import { enumParam, intParam } from '../params.js';
import { IS_MAC, LEFT_CLICK, MODIFIERS, mouse } from './input-events.js';
import { locateTarget, targetName, viewportParam } from './targets.js';
import { abortable, exclusive, sleep, within } from './waits.js';

// This family's rows of act.js's table: action -> its handler, (tabId,
// {selector, point, to}, params, signal) => {did, target, ...};
// `destination`: it takes one (`to`) as well.
export const POINTER_ACTIONS = {
  click: { handler: clickAction },
  long_press: { handler: longPressAction },
  drag: { handler: dragAction, destination: true },
  hover: { handler: hoverAction },
  scroll: { handler: scrollAction },
};

async function clickAction(tabId, { selector, point }, params, signal) {
  if (!selector && !point) throw badRequest('click needs a target: label, selector, or x and y');
  const press = pressParam(params);
  return exclusive(tabId, () => pointerAction(tabId, 'click', selector, point, viewportParam(params), press, signal));
}

// A click whose button stays down for hold_ms: the page gets mousedown, then
// (while its own timers run) nothing, then mouseup and click, as from a user
// who holds the button.
async function longPressAction(tabId, { selector, point }, params, signal) {
  if (!selector && !point) throw badRequest('long_press needs a target: label, selector, or x and y');
  const press = { ...LEFT_CLICK, holdMs: intParam(params, 'hold_ms', 100, 4000, 800) };
  return exclusive(tabId, () => pointerAction(tabId, 'click', selector, point, viewportParam(params), press, signal));
}

async function hoverAction(tabId, { selector, point }, params, signal) {
  if (!selector && !point) throw badRequest('hover needs a target: label, selector, or x and y');
  return exclusive(tabId, () => pointerAction(tabId, 'hover', selector, point, viewportParam(params), null, signal));
}

async function scrollAction(tabId, { selector, point }, params, signal) {
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

async function dragAction(tabId, { selector, point, to }, params, signal) {
  if (!selector && !point) throw badRequest('drag needs a source: label, selector, or x and y');
  const viewport = viewportParam(params);
  return exclusive(tabId, () => withDebugger(tabId, () => drag(tabId, { selector, point }, to, viewport, signal)));
}

// click / hover: aim (locate and guard), move, check the point still hits
// the target, press and release (click), and read what the guard saw. A
// miss on the first try (the page moved the target, or covered it, as the
// pointer came or as it pressed) is tried once more from a fresh locate.
export async function pointerAction(tabId, action, selector, point, viewport, press, signal) {
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

// "double-click", "right-click with Shift": how the answer names a click.
function clickName({ button, clickCount, held, holdMs }) {
  if (holdMs) return `long press (${holdMs} ms)`;
  const count = ['', '', 'double-', 'triple-'][clickCount];
  const kind = button === 'left' ? `${count}click` : `${button} ${count}click`;
  return held.length ? `${kind} with ${held.join('+')}` : kind;
}

// The event that completes an action on its target (the page library's
// guard lets what the page does after it through, as its answer): a hover's
// move; a long press's press (what the page does while the button is held,
// removing the target, opening a menu under it, is its answer); a click's
// last click (its detail is the click count); a middle click's auxclick; a
// right click's contextmenu, which comes with the press, before a menu the
// page opens under the pointer takes the release.
function completion(action, press) {
  if (action === 'hover') return { type: 'mousemove', detail: 0 };
  if (press.holdMs) return { type: 'mousedown', detail: 0 };
  if (press.button === 'right') return { type: 'contextmenu', detail: 0 };
  return { type: press.button === 'middle' ? 'auxclick' : 'click', detail: press.clickCount };
}

export async function aimAndPress(tabId, action, selector, point, viewport, clickPress, signal) {
  const press = action === 'click' ? clickPress ?? LEFT_CLICK : null;
  let moved = null; // the first try's miss: what was at the point instead
  for (let attempt = 1; ; attempt++) {
    const aimed = await abortable(inPage(tabId, 'aim', selector, point, action, completion(action, press)), signal);
    if (aimed.error) {
      // the first press reached the target and the page removed it then: its answer to the press (a dropdown
      // that picks an option on mousedown), not a miss; there is nothing to press again
      if (moved?.pressed && moved.gone) return pressedAway(press, moved);
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
            if (press.holdMs) await sleep(press.holdMs, signal);
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
      const pressed = missed.when === 'press' && (report?.passed ?? []).some((type) => PRESSES.has(type));
      moved = { ...missed, where, target, pressed };
      if (selector) await heldStill(tabId, selector, signal);
      continue;
    }
    throw new TabsightError(Code.ELEMENT_COVERED, missedMessage(action, selector, target, missed, where));
  }
}

// A target the page moved as the pointer came or as it was pressed (a list
// that slides or scales open, a dropdown that picks on the press and closes
// a moment later) is aimed at again once the page holds still: two looks a
// frame or more apart find it at the same point, or both find it gone the
// same way (as Playwright's "stable" check has it). A page that never holds
// still is aimed at when the wait is over, and the second aim says what it
// finds.
const STILL_POLL_MS = 40;
const STILL_MAX_MS = 2000;
async function heldStill(tabId, selector, signal) {
  const deadline = performance.now() + STILL_MAX_MS;
  let last = null;
  while (performance.now() < deadline) {
    const at = await abortable(inPage(tabId, 'locate', selector), signal);
    const look = at.error ? at.error : `${at.x},${at.y}`;
    if (look === last) return;
    last = look;
    await sleep(STILL_POLL_MS, signal);
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

// A point comes from a screenshot: it means the same place only in a
// viewport of that screenshot's size (a bar that came or went since, or a
// resized window, moves whatever is laid out from the bottom or the right).
function sameViewport(expected, now, where) {
  if (!expected || (expected.width === now.width && expected.height === now.height)) return;
  throw new TabsightError(Code.VIEWPORT_CHANGED,
    `Did not act at ${where}: the viewport is ${now.width}x${now.height} now, and was ` +
    `${expected.width}x${expected.height} in the screenshot these coordinates came from.`);
}

const PRESSES = new Set(['pointerdown', 'mousedown']);

// A click whose press reached its target, which the page then removed: what
// the page did with the press is its answer (page_changes says it), and the
// release and click, held back, went to nothing else.
function pressedAway(press, moved) {
  return {
    did: `${clickName(press)} at ${moved.where}: the press reached it, and the page removed it as it was pressed ` +
      `(as a dropdown that picks on mousedown does); its release and click were held back from ${moved.now}, ` +
      'which came under the pointer',
    target: moved.target,
  };
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
