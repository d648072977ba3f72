// Cookies for one capture only, the way that suits the profile:
//
// - In a profile tabsight owns (the embedded browser), they are set in its
//   cookie store for the capture and removed afterwards, with any cookie of
//   the same name, domain and path put back as it was: the page sees them as
//   in BrowserLoop's fresh browser context, in document.cookie too (unless
//   httpOnly). Captures that set cookies take turns, so that two of them
//   never see each other's.
// - In the user's own profile, the store is never written: they are added
//   to the Cookie header of the owned tab's matching requests through the
//   debugger's Fetch domain, so the user's own cookies for the site are
//   untouched and nothing outlives the capture. Page scripts therefore do not
//   see them in document.cookie.
//
// Values are secrets: they appear in no log and no error.

import { onEvent, send } from './cdp.js';

export const Via = Object.freeze({ STORE: 'cookie store', HEADERS: 'request headers' });

let storeIsOurs = false;

// Whether the profile is tabsight's own (the host says so in its hello).
export function ownCookieStore(owned) {
  storeIsOurs = owned;
}

// Applies `cookies` to what the tab loads next; resolves to { via, undo,
// refused }: undo() ends it; refused names the cookies the store did not
// take. The caller holds the debugger attachment.
export async function applyCookies(tabId, cookies, signal) {
  if (!storeIsOurs) return { via: Via.HEADERS, undo: await sendCookies(tabId, cookies, signal), refused: [] };
  const release = await storeTurn(signal);
  try {
    const { undo, refused } = await setCookies(tabId, cookies, signal);
    const undoAndRelease = async () => {
      try {
        await undo();
      } finally {
        release();
      }
    };
    return { via: Via.STORE, undo: undoAndRelease, refused };
  } catch (err) {
    release();
    throw err;
  }
}

// One capture at a time sets cookies in the store: resolves to the function
// that hands the turn on.
let storeQueue = Promise.resolve();
async function storeTurn(signal) {
  let release;
  const turn = new Promise((resolve) => {
    release = resolve;
  });
  const before = storeQueue;
  storeQueue = storeQueue.then(() => turn);
  const aborted = new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  try {
    await Promise.race([before, aborted]);
  } catch (err) {
    before.then(release); // our turn still comes: pass it on at once
    throw err;
  }
  return release;
}

// Sets the cookies in the store, keeping the ones they replace; resolves to
// { undo, refused }: the function that removes them and puts those back, and
// the names of those the store did not take (SameSite=None without Secure,
// for one: Chrome drops such a cookie without a word).
async function setCookies(tabId, cookies, signal) {
  const keys = cookies.map(storedKey);
  const urls = keys.flatMap(keyUrls);
  const stored = async () => (await send(tabId, 'Network.getCookies', { urls }, signal)).cookies;
  const replaced = (await stored()).filter((cookie) => keys.some((key) => sameKey(key, cookie)));
  const undo = async () => {
    await Promise.all(keys.map(({ name, domain, path }) =>
      send(tabId, 'Network.deleteCookies', { name, domain, path }).catch(() => {}))); // the tab may be gone
    if (replaced.length) {
      await send(tabId, 'Network.setCookies', { cookies: replaced.map(restoredParam) }).catch(() => {});
    }
  };
  try {
    const params = cookies.map(cookieParam);
    // One call for all; if Chrome finds one invalid it takes none: then each alone, and what it still
    // refuses is reported rather than failing the capture.
    await send(tabId, 'Network.setCookies', { cookies: params }, signal).catch(() => Promise.all(
      params.map((param) => send(tabId, 'Network.setCookie', param, signal).catch(() => {}))));
    const now = await stored();
    const refused = cookies.filter((cookie, n) => !now.some((found) => sameKey(keys[n], found) &&
      found.value === cookie.value)).map((cookie) => cookie.name);
    return { undo, refused };
  } catch (err) {
    await undo();
    throw err;
  }
}

// A cookie's name, domain and path as the store keeps them: a host-only
// cookie's domain is the bare host, a domain cookie's starts with a dot.
function storedKey(cookie) {
  const bare = cookie.domain.replace(/^\./, '').toLowerCase();
  return { name: cookie.name, domain: cookie.host_only ? bare : `.${bare}`, path: cookie.path ?? '/' };
}

function sameKey(key, cookie) {
  return key.name === cookie.name && key.domain === cookie.domain && key.path === cookie.path;
}

// URLs whose requests a cookie with this key goes with, secure or not.
function keyUrls({ domain, path }) {
  const host = domain.replace(/^\./, '');
  return [`http://${host}${path}`, `https://${host}${path}`];
}

function cookieParam(cookie) {
  const { domain, path } = storedKey(cookie);
  const param = { name: cookie.name, value: cookie.value, path, secure: !!cookie.secure, httpOnly: !!cookie.httpOnly };
  // A host-only cookie is set through a URL: a domain attribute would make it a domain cookie.
  if (cookie.host_only) param.url = `${cookie.secure ? 'https' : 'http'}://${domain}${path}`;
  else param.domain = domain;
  if (cookie.sameSite) param.sameSite = cookie.sameSite;
  if (cookie.expires !== undefined && cookie.expires >= 0) param.expires = cookie.expires;
  return param;
}

// Network.Cookie back into the Network.CookieParam that recreates it.
function restoredParam(cookie) {
  const param = {
    name: cookie.name, value: cookie.value, path: cookie.path, secure: cookie.secure, httpOnly: cookie.httpOnly,
    priority: cookie.priority, sourceScheme: cookie.sourceScheme,
  };
  if (cookie.domain.startsWith('.')) param.domain = cookie.domain;
  else param.url = `${cookie.secure ? 'https' : 'http'}://${cookie.domain}${cookie.path}`;
  if (cookie.sameSite) param.sameSite = cookie.sameSite;
  if (!cookie.session) param.expires = cookie.expires;
  if (cookie.partitionKey) param.partitionKey = cookie.partitionKey;
  return param;
}

// Starts adding `cookies` to the tab's requests; resolves to a function that
// stops it. The caller holds the debugger attachment.
async function sendCookies(tabId, cookies, signal) {
  const stopListening = onEvent(tabId, (method, paused) => {
    if (method !== 'Fetch.requestPaused') return;
    const header = cookieHeader(cookies, new URL(paused.request.url));
    const resume = { requestId: paused.requestId };
    if (header) resume.headers = withCookies(paused.request.headers, header);
    // Fails only when the request was cancelled meanwhile: nothing to resume.
    send(tabId, 'Fetch.continueRequest', resume).catch(() => {});
  });
  try {
    await send(tabId, 'Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, signal);
  } catch (err) {
    stopListening();
    throw err;
  }
  return async () => {
    stopListening();
    await send(tabId, 'Fetch.disable').catch(() => {}); // the tab may be gone already
  };
}

// `name=value; ...` of the cookies a request to `url` carries (RFC 6265
// domain, path, secure and expiry rules), or '' if none.
function cookieHeader(cookies, url) {
  const now = Date.now() / 1000;
  const secureContext = url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return cookies
    .filter((cookie) => domainMatches(cookie, url.hostname) &&
      pathMatches(cookie.path ?? '/', url.pathname) &&
      (!cookie.secure || secureContext) &&
      (cookie.expires === undefined || cookie.expires < 0 || cookie.expires > now))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
}

// A cookie with a domain attribute also goes to its subdomains; one without
// (host_only) only to the host it was given for.
function domainMatches(cookie, host) {
  const domain = cookie.domain.replace(/^\./, '').toLowerCase();
  return host === domain || (!cookie.host_only && host.endsWith(`.${domain}`));
}

function pathMatches(cookiePath, requestPath) {
  if (requestPath === cookiePath || cookiePath === '/') return true;
  const prefix = cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`;
  return requestPath.startsWith(prefix);
}

// The request's headers as Fetch.continueRequest takes them, with the cookies
// appended to any Cookie header the page set itself.
function withCookies(headers, header) {
  const entries = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'cookie');
  const existing = Object.entries(headers).find(([name]) => name.toLowerCase() === 'cookie')?.[1];
  entries.push(['Cookie', existing ? `${existing}; ${header}` : header]);
  return entries.map(([name, value]) => ({ name, value }));
}
