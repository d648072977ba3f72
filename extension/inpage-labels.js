// Page-side library, labels: the elements an annotation marked, kept in the
// page as weak references with a fingerprint. A label acts on that element
// or on nothing (stale_label): gone, replaced, or no longer the role and
// name it had. Only the latest MAX_ANNOTATIONS are kept.

(() => {
  if (globalThis.__tabsight) return;
  const { attached, offsetOf, identify, resolve } = globalThis.__tabsightParts;

  const MAX_ANNOTATIONS = 5;

  // ---- labels: the elements an annotation marked ----

  const annotations = new Map(); // id -> [{ ref: WeakRef<Element>, print: {tag, role, name} }], oldest first

  function keepAnnotation(elements) {
    const id = crypto.randomUUID();
    annotations.set(id, elements.map((element) => ({ ref: new WeakRef(element), print: fingerprint(element) })));
    while (annotations.size > MAX_ANNOTATIONS) annotations.delete(annotations.keys().next().value);
    return id;
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

  // A target: a selector path, or {annotation, label, selector?} (a label).
  const resolveTarget = (target) => (typeof target === 'string' ? resolve(target) : resolveLabel(target));
  const targetName = (target) => (typeof target === 'string' ? target : target.selector ?? `label ${target.label}`);

  Object.assign(globalThis.__tabsightParts ??= {}, { keepAnnotation, resolveTarget, targetName });
})();
