// Content script (isolated world, top frame, document_start): remembers the
// element the user last right-clicked, so that "Point tabsight at this" in the
// context menu takes that element (page-library/picker.js reads it; Chrome's
// contextMenus event does not say which element it was). Only a trusted
// contextmenu counts: one a page dispatches is not the user's.

(() => {
  if ('__tabsightContextTarget' in globalThis) return;
  globalThis.__tabsightContextTarget = null;
  addEventListener('contextmenu', (event) => {
    if (!event.isTrusted) return;
    globalThis.__tabsightContextTarget = { ref: new WeakRef(event.composedPath()[0]), at: performance.now() };
  }, true);
})();
