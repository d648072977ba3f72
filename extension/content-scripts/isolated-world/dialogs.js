// Page dialogs, from the extension's isolated world (document_start, every
// frame): hands main-world/dialogs.js a private node to announce dialogs on
// (the relatedTarget of one FocusEvent, before any page script runs; the node
// is never in the document), tells it the tab's dialog policy, and passes its
// announcements to the service worker (service-worker/dialogs.js) at once,
// before a native dialog stops this page's thread.

(() => {
  'use strict';

  const HANDSHAKE = '__tabsight_dialogs_bridge__';
  const KINDS = ['alert', 'confirm', 'prompt'];
  const MAX_TEXT = 1000;

  const bridge = document.createElement('tabsight-dialogs');
  document.dispatchEvent(new FocusEvent(HANDSHAKE, { relatedTarget: bridge }));

  const tellPolicy = (policy) => bridge.dispatchEvent(new CustomEvent('policy', { detail: policy ?? null }));

  bridge.addEventListener('dialog', (event) => {
    let report;
    try {
      report = JSON.parse(event.detail);
    } catch {
      return;
    }
    if (report === null || typeof report !== 'object' || !KINDS.includes(report.kind)) return;
    const dialog = report.closed === true
      ? { kind: 'dialog', closed: true }
      : {
        kind: 'dialog',
        type: report.kind,
        message: String(report.message ?? '').slice(0, MAX_TEXT),
        default_prompt: String(report.default_prompt ?? '').slice(0, MAX_TEXT),
        answer: report.answer === 'accepted' || report.answer === 'dismissed' ? report.answer : null,
        url: location.href,
      };
    chrome.runtime.sendMessage(dialog).catch(() => {
      // the extension was reloaded: nobody to tell
    });
  });

  chrome.runtime.sendMessage({ kind: 'dialog-policy' })
    .then((answer) => tellPolicy(answer?.policy))
    .catch(() => {});
  chrome.runtime.onMessage.addListener((message) => {
    if (message?.kind === 'dialog-policy') tellPolicy(message.policy);
  });
})();
