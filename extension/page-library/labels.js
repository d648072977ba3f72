// Page-side library, labels: the elements an annotation marked, kept in the
// page as weak references with a fingerprint. A label acts on that element
// or on nothing (stale_label): gone, replaced, or no longer the role and
// name it had. Only the latest MAX_ANNOTATIONS are kept.
//
// A label follows what tabsight's own action made of its element (a counter
// "count: 0" clicked says "count: 1", Play becomes Pause): the act side
// names the action's target before acting (beginFollow), every poll of its
// settle sees the element (sawFollowed), and once the page is quiet
// (endFollow) the labels of that same live node take the role and name it
// had when the page settled, if it still has them. Whatever the page does
// to it by itself (before the action, or after its settle) still makes the
// label stale; so does a role that changed, or a node that was replaced.

(() => {
  if (globalThis.__tabsight) return;
  const { attached, offsetOf, identify, describe, resolve } = globalThis.__tabsightParts;

  const MAX_ANNOTATIONS = 5;

  // ---- labels: the elements an annotation marked ----

  // id -> [{ ref: WeakRef<Element>, print: {tag, role, name}, seen, box, shown }], oldest first: `seen`
  // what the agent was told of the element (its entry but for selector and bounds), `box` its bounds then,
  // `shown` whether it is in the agent's map now (a later answer's changes may have removed it)
  const annotations = new Map();

  // A new annotation of `marks` ({element, entry}: an element and its entry in the answer); its id.
  function keepAnnotation(marks) {
    const id = crypto.randomUUID();
    annotations.set(id, marks.map(markOf));
    while (annotations.size > MAX_ANNOTATIONS) annotations.delete(annotations.keys().next().value);
    return id;
  }

  const markOf = ({ element, entry }) =>
    ({ ref: new WeakRef(element), print: fingerprint(element), seen: seenOf(entry), box: boxOf(entry), shown: true });
  const seenOf = ({ selector, structural_selector: structural, bounds, ...described }) => JSON.stringify(described);
  const boxOf = ({ bounds }) => JSON.stringify(bounds);
  // About what an entry costs in an answer, which leaves out what repeats (observe.py lean)
  const sizeOf = ({ role, name, text, state, selector, bounds }) =>
    JSON.stringify({ label: 100, role, name, text: text === name ? undefined : text, state, selector, bounds }).length;

  // Whether `marks` are annotation `id`'s, all of them, in the same order, each as the agent was told of it
  // (bounds too): a look that would repeat the map.
  function unchangedSince(id, marks) {
    const marked = annotations.get(id);
    if (!marked || marked.length !== marks.length) return false;
    return marks.every(({ element, entry }, index) => {
      const mark = marked[index];
      return mark.shown && mark.ref.deref() === element && mark.seen === seenOf(entry) && mark.box === boxOf(entry);
    });
  }

  // What changed in the agent's map of annotation `id` now that the viewport holds `marks`, as its own
  // entries: marks added (a new label, or an old one back in view), changed (name, text or state; bounds
  // alone are no change), removed (its labels). At most `budget` characters of entries, the changed first;
  // what does not fit is counted (`more`) and left as it was: a label whose element changed and was not
  // told stays stale, as before. A told change moves the label's fingerprint: it still names its node.
  function changesSince(id, marks, budget) {
    const marked = annotations.get(id);
    if (!marked) return null;
    const labelOf = new Map();
    marked.forEach((mark, index) => { const element = mark.ref.deref(); if (element) labelOf.set(element, index + 1); });
    const changes = { added: [], changed: [], removed: [], more: 0 };
    let left = budget;
    const fits = (size) => (size <= left ? ((left -= size), true) : (changes.more++, false));
    const inView = new Set();
    const fresh = [];
    for (const { element, entry } of marks) {
      const label = labelOf.get(element);
      if (!label) { fresh.push({ element, entry }); continue; }
      inView.add(label);
      const mark = marked[label - 1];
      if (!mark.shown) fresh.push({ element, entry, label });
      else if (mark.seen !== seenOf(entry) && fits(sizeOf(entry))) {
        Object.assign(mark, { print: fingerprint(element), seen: seenOf(entry), box: boxOf(entry) });
        changes.changed.push({ label, ...entry });
      }
    }
    for (const { element, entry, label } of fresh) {
      if (!fits(sizeOf(entry))) continue;
      if (label) Object.assign(marked[label - 1], markOf({ element, entry }));
      else marked.push(markOf({ element, entry }));
      inView.add(label ?? marked.length);
      changes.added.push({ label: label ?? marked.length, ...entry });
    }
    marked.forEach((mark, index) => {
      if (!mark.shown || inView.has(index + 1) || !fits(String(index + 1).length + 1)) return;
      mark.shown = false;
      changes.removed.push(index + 1);
    });
    return changes;
  }

  // The control behind the mark: a label standing in for a hidden radio is that radio.
  const fingerprint = identify;

  const printed = ({ tag, role, name }) => `<${tag}>${role ? ` ${role}` : ''} ${JSON.stringify(name)}`;

  // The element label `label` of annotation `annotation` marked, with its
  // scope's offset; or stale_label if that element is not there as it was.
  function resolveLabel({ annotation, label }) {
    const stale = (why) => ({ error: 'stale_label', message: `label ${label} is stale: observe again (${why})` });
    const mark = annotations.get(annotation)?.[label - 1];
    if (!mark) return stale('this page no longer keeps its annotation');
    const element = mark.ref.deref();
    if (!element || !attached(element)) return stale('the element it marked is gone from the page');
    const now = fingerprint(element);
    if (now.tag !== mark.print.tag || now.role !== mark.print.role || now.name !== mark.print.name) {
      return stale(`the element it marked was ${printed(mark.print)}, now ${printed(now)}`);
    }
    return { element, offset: offsetOf(element) };
  }

  // ---- following what tabsight's own action made of its target ----

  const samePrint = (a, b) => a.tag === b.tag && a.role === b.role && a.name === b.name;
  // What an annotation says of an element's state, but for its content (a field's value, a select's
  // options): an answer gives those as its own value.
  const stateShown = ({ value, options, options_total: total, ...state } = {}) => JSON.stringify(state);

  // {element, before: its print, state, marks: [{id, label, mark}], seen: its print at the latest settle poll}
  let following = null;

  // Before an action on `target`: the marks of its element that are true to it now (a label the page made
  // stale already stays stale).
  function beginFollow(target) {
    following = null;
    if (!target) return;
    const found = resolveTarget(target);
    if (found.error) return;
    const { element } = found;
    const before = fingerprint(element);
    const marks = [];
    for (const [id, marked] of annotations) {
      marked.forEach((mark, index) => {
        if (mark.ref.deref() === element && samePrint(mark.print, before)) marks.push({ id, label: index + 1, mark });
      });
    }
    if (marks.length) following = { element, before, state: stateShown(describe(element).state), marks, seen: before };
  }

  // A poll of the action's settle: the element as it is now.
  function sawFollowed() {
    if (following) following.seen = attached(following.element) ? fingerprint(following.element) : null;
  }

  // The page has settled: the marks take what the element became, if it still is so now (a change since the
  // last poll is the page's own). What it is now, with the labels that follow it, when its name or state
  // changed; else null.
  function endFollow() {
    const current = following;
    following = null;
    if (!current?.seen || !attached(current.element)) return null;
    const { element, before, seen, marks } = current;
    const now = fingerprint(element);
    if (!samePrint(now, seen) || now.tag !== before.tag || now.role !== before.role) return null;
    const described = describe(element);
    // the answer tells what it became (label_now): the next changes need not repeat it
    for (const { mark } of marks) if (samePrint(mark.print, before)) Object.assign(mark, { print: now, seen: seenOf(described) });
    if (now.name === before.name && stateShown(described.state) === current.state) return null;
    return { labels: marks.map(({ id, label }) => ({ annotation: id, label })), ...described };
  }

  // A target: a selector path, or {annotation, label, selector?} (a label).
  const resolveTarget = (target) => (typeof target === 'string' ? resolve(target) : resolveLabel(target));
  const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

  Object.assign(globalThis.__tabsightParts ??= {}, { keepAnnotation, unchangedSince, changesSince, resolveTarget, targetName, beginFollow, sawFollowed, endFollow });
})();
