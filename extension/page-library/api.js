// The page-side library: finds, names and locates elements, and watches what
// an action changes. Its parts (this folder's files, one concern each) are
// injected as classic scripts, in the order of
// service-worker/page-library-calls.js's LIBRARY, into the
// extension's isolated world, once per document: it sees the page's DOM but
// none of its globals, so a page cannot skew it. A part takes what it needs
// from the parts before it (globalThis.__tabsightParts); this last one makes
// the library's calls, globalThis.__tabsight. A new document starts without
// it: its documentId is how a label from an older page is recognised.
//
// A classic script cannot import service-worker/errors.js: the `error` values the parts
// return are codes of that vocabulary, written out (a test checks each one).
(() => {
  if (globalThis.__tabsight) return;
  const {
    documentId, summary, find, locate, focus, watch, changed, followed, present, aim, aimDrag, dragStarted, checkHit, disarm,
    markFileInput, unmarkFileInput,
    beginTyping, typingResult, beginSelect, findOption, selectResult, controlKind,
    outline, pickElement, askNote,
  } = globalThis.__tabsightParts;
  globalThis.__tabsight = {
    documentId, summary, find, locate, focus, watch, changed, followed, present, aim, aimDrag, dragStarted, checkHit, disarm,
    markFileInput, unmarkFileInput,
    beginTyping, typingResult, beginSelect, findOption, selectResult, controlKind,
    outline, pickElement, askNote,
  };
})();
