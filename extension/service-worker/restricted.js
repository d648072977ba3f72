// Pages Chrome does not let extensions script or capture. Checked up front so
// callers get restricted_page with a clear message instead of Chrome's
// per-API wording.

const INTERNAL_SCHEMES = new Set([
  'chrome:', 'chrome-extension:', 'chrome-untrusted:', 'chrome-search:',
  'edge:', 'devtools:', 'view-source:',
]);

export function isRestrictedUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return false; // empty or unparsable: nothing Chrome would refuse yet
  }
  const { protocol, hostname, pathname } = parsed;
  if (INTERNAL_SCHEMES.has(protocol)) return true;
  // about:blank (and about:blank#x) can be captured; page.info reports that a
  // top-level one cannot be scripted.
  if (protocol === 'about:') return pathname !== 'blank';
  if (hostname === 'chromewebstore.google.com') return true;
  return hostname === 'chrome.google.com' && pathname.startsWith('/webstore');
}

// A tab that is still loading may only have a pendingUrl.
export function tabUrl(tab) {
  return tab.url || tab.pendingUrl || '';
}
