// What an agent may do through `execute`'s raw CDP steps, and where any
// navigation may go. The agent's steps pass this policy; the extension's own
// CDP calls (captures, cookies.js, emulation.js...) do not: they are
// tabsight's code, with its own guards.
//
// The steps serve the agent's page work: capture, DOM, CSS, input,
// emulation, the page's main world, accessibility, performance. Anything
// that reaches past the tab is refused: other targets (Target.*, which also
// opens chrome:// and extension pages), the browser (Browser.*), other
// sites' storage (DOMStorage, IndexedDB, CacheStorage, Storage), local files
// (DOM.setFileInputFiles, Network.loadNetworkResource, IO.read, dragged
// files), interception (Fetch), the debugger's view of every script
// (Debugger, HeapProfiler, which reach tabsight's own content scripts), and
// execution contexts other than the page's main world (tabsight's content
// scripts hold chrome.runtime: a contextId that names one is refused).
//
// Cookies: reading them (Network.getCookies, getAllCookies,
// Storage.getCookies) is refused unless the user allowed it for this kind
// of browser in tabsight's settings file (the host reads it and adds it to
// each execute request: no tool argument reaches it); writing them likewise,
// and even then only for the tab's own site.
//
// Every navigation obeys one scheme rule (navigationRefusal), whoever asks:
// `navigate`, `open_tab`, a CDP Page.navigate, and what a page script did
// (execute checks the tab's URL before each step and after the call).

import { Code, TabsightError } from './errors.js';

const ALL = '*';

// Domain -> methods allowed (ALL: every method), each per browser kind the same
// unless PER_KIND says otherwise. A domain not listed is refused as a whole.
const ALLOWED = {
  Accessibility: ALL,
  Animation: ALL,
  Audits: ALL,
  CSS: ALL,
  DOM: ALL,
  DOMDebugger: ['getEventListeners'],
  DOMSnapshot: ALL,
  Emulation: ALL,
  Input: ALL,
  LayerTree: ALL,
  Log: ALL,
  Memory: ['getDOMCounters'],
  Network: [
    'enable', 'disable', 'emulateNetworkConditions', 'setCacheDisabled', 'setBypassServiceWorker',
    'setBlockedURLs', 'setUserAgentOverride', 'setExtraHTTPHeaders', 'getResponseBody', 'getRequestPostData',
    'searchInResponseBody', 'replayXHR', 'setAttachDebugStack', 'getCertificate', 'clearBrowserCache',
  ],
  Overlay: ALL,
  Page: [
    'enable', 'disable', 'captureScreenshot', 'captureSnapshot', 'getLayoutMetrics', 'getFrameTree',
    'getResourceTree', 'getResourceContent', 'searchInResource', 'getNavigationHistory', 'navigate',
    'navigateToHistoryEntry', 'reload', 'stopLoading', 'printToPDF', 'bringToFront', 'handleJavaScriptDialog',
    'setLifecycleEventsEnabled', 'getAppManifest', 'getInstallabilityErrors', 'setBypassCSP',
    'resetNavigationHistory', 'setWebLifecycleState', 'startScreencast', 'stopScreencast', 'screencastFrameAck',
    'crash',
  ],
  Performance: ALL,
  PerformanceTimeline: ALL,
  Profiler: ALL,
  Runtime: [
    'enable', 'disable', 'evaluate', 'callFunctionOn', 'getProperties', 'releaseObject', 'releaseObjectGroup',
    'awaitPromise', 'getHeapUsage', 'compileScript', 'runScript', 'queryObjects', 'globalLexicalScopeNames',
  ],
  Schema: ALL,
};

// Cookie methods, by what they do.
const COOKIE_READS = new Set(['Network.getCookies', 'Network.getAllCookies', 'Storage.getCookies']);
const COOKIE_WRITES = new Set([
  'Network.setCookie', 'Network.setCookies', 'Network.deleteCookies', 'Network.clearBrowserCookies',
  'Storage.setCookies', 'Storage.clearCookies',
]);
// Writes that reach every site at once, never limited to the tab's own.
const COOKIE_WRITES_EVERYWHERE = new Set(['Network.clearBrowserCookies', 'Storage.clearCookies']);

// Methods whose effect is the whole profile's, allowed in tabsight's own browser only.
const OWN_BROWSER_ONLY = new Set(['Network.clearBrowserCache']);

// Parameters that name an execution context, each refused: the context could be
// a content script's, tabsight's own among them, which holds chrome.runtime.
const CONTEXT_PARAMS = ['contextId', 'uniqueContextId', 'executionContextId', 'executionContextName'];

const WHY = {
  domain: 'it reaches past the page (other tabs, the browser, other sites\' data, local files, or tabsight\'s own code)',
  context: 'it names an execution context, which may be a content script\'s: steps run in the page\'s main world only',
  files: 'it hands local files to the page; use interact({action:"upload"}), which checks the folders they come from',
  cookiesRead: 'reading cookies hands the user\'s logins over; the user may allow it in tabsight\'s settings file',
  cookiesWrite: 'writing cookies changes the user\'s logins; the user may allow it in tabsight\'s settings file',
  otherSite: 'it writes cookies of another site than the tab\'s',
  ownOnly: 'it changes the whole profile, which in the user\'s browser is theirs',
  cookieHeader: 'a Cookie or Authorization header sends credentials the browser would not',
};

// The reason a step is refused, or null. `context`: { kind: 'own'|'user', tabUrl,
// fileRoots, allow: { read_cookies, write_cookies } }.
export function stepRefusal(method, params, context) {
  const [domain, name] = method.split('.');
  if (COOKIE_READS.has(method)) return context.allow.read_cookies ? null : WHY.cookiesRead;
  if (COOKIE_WRITES.has(method)) return cookieWriteRefusal(method, params, context);
  const allowed = ALLOWED[domain];
  if (!allowed || (allowed !== ALL && !allowed.includes(name))) return WHY.domain;
  if (OWN_BROWSER_ONLY.has(method) && context.kind !== 'own') return WHY.ownOnly;
  if (CONTEXT_PARAMS.some((key) => params[key] !== undefined)) return WHY.context;
  if (method === 'DOM.setFileInputFiles' || method === 'DOM.getFileInfo') return WHY.files;
  if (method === 'Input.dispatchDragEvent' && params.data?.files?.length) return WHY.files;
  if (method === 'Network.setExtraHTTPHeaders' && Object.keys(params.headers ?? {})
    .some((header) => /^(cookie|authorization|proxy-authorization)$/i.test(header))) return WHY.cookieHeader;
  if (method === 'Page.navigate') return navigationRefusal(params.url, context.fileRoots);
  return null;
}

function cookieWriteRefusal(method, params, context) {
  if (!context.allow.write_cookies) return WHY.cookiesWrite;
  if (COOKIE_WRITES_EVERYWHERE.has(method)) return WHY.otherSite;
  const cookies = method.endsWith('setCookies') ? params.cookies ?? [] : [params];
  const site = hostOf(context.tabUrl);
  const foreign = cookies.some((cookie) => {
    const host = (cookie.domain ?? hostOf(cookie.url) ?? site ?? '').replace(/^\./, '').toLowerCase();
    return !site || !host || !(site === host || site.endsWith(`.${host}`));
  });
  return foreign ? WHY.otherSite : null;
}

function hostOf(url) {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

// The one scheme rule of every navigation: the reason `url` may not be opened,
// or null. http(s), data: and about:blank; file: only under `fileRoots` (the
// MCP client's folders, which the front sends); never chrome:, chrome-extension:,
// devtools: or any other scheme.
export function navigationRefusal(url, fileRoots = []) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(String(url).slice(0, 200))} is not an absolute URL`;
  }
  const { protocol } = parsed;
  if (protocol === 'http:' || protocol === 'https:' || protocol === 'data:') return null;
  if (protocol === 'about:') return parsed.pathname === 'blank' ? null : 'only about:blank of the about: pages may be opened';
  if (protocol !== 'file:') {
    return `tabsight opens http(s), data:, about:blank and file: URLs under the allowed folders, not ${protocol} ones`;
  }
  const path = filePath(parsed);
  if (path !== null && fileRoots.some((root) => inside(path, root))) return null;
  const roots = fileRoots.length ? fileRoots.join(', ') : 'none';
  return `${url.slice(0, 200)} is outside the folders local files may be opened from (${roots}): the MCP ` +
    'client\'s working folder or roots, tabsight\'s temp folder, and TABSIGHT_UPLOAD_ROOTS';
}

// Throws not_allowed where the rule refuses `url`: what `navigate`, `open_tab` and `screenshot({url})` ask for.
export function refuseNavigation(url, fileRoots = []) {
  const why = navigationRefusal(url, fileRoots);
  if (why) throw new TabsightError(Code.NOT_ALLOWED, `Refused to open ${url.slice(0, 200)}: ${why}.`);
}

// The local path a file: URL names, or null where it could name another than it
// seems to (a host, an encoded separator or dot segment, a NUL).
function filePath(parsed) {
  if (parsed.hostname && parsed.hostname !== 'localhost') return null;
  let path;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\') || /(^|\/)\.\.?(\/|$)/.test(path)) return null;
  if (/%2f|%5c|%2e/i.test(parsed.pathname)) return null;
  return path;
}

function inside(path, root) {
  const folder = root.endsWith('/') ? root : `${root}/`;
  return path === root || path.startsWith(folder);
}
