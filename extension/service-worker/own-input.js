// When tabsight itself last gave a tab input. Input tabsight sends through the
// debugger (Input.dispatchMouseEvent, dispatchKeyEvent, insertText...) reaches
// the page as trusted events, like the user's own: a page's content scripts
// cannot tell them apart, so the user-frustration reports they make are
// checked here against the times tabsight's input was in flight.

const inFlight = new Map(); // tabId -> commands under way
const lastEnd = new Map(); // tabId -> performance.now() when the last one answered

// Marks an Input.* command to the tab from now until `command` settles.
export function noteOwnInput(tabId, command) {
  inFlight.set(tabId, (inFlight.get(tabId) ?? 0) + 1);
  const done = () => {
    const left = (inFlight.get(tabId) ?? 1) - 1;
    if (left > 0) inFlight.set(tabId, left);
    else inFlight.delete(tabId);
    lastEnd.set(tabId, performance.now());
  };
  command.then(done, done);
}

// Whether tabsight gave the tab input during the last `ms` milliseconds (or is now).
export function ownInputWithin(tabId, ms) {
  if (inFlight.has(tabId)) return true;
  const end = lastEnd.get(tabId);
  return end !== undefined && performance.now() - end <= ms;
}

export function forgetOwnInput(tabId) {
  inFlight.delete(tabId);
  lastEnd.delete(tabId);
}
