// Cookies for one capture only: added to the Cookie header of the owned
// tab's matching requests through the debugger's Fetch domain, never written
// to the profile's cookie store, so the user's own cookies for the site are
// untouched and nothing outlives the capture. Page scripts therefore do not
// see them in document.cookie: server-rendered sessions work, tokens read by
// scripts do not. Values are secrets: they appear in no log and no error.

import { onEvent, send } from './cdp.js';

// Starts adding `cookies` to the tab's requests; resolves to a function that
// stops it. The caller holds the debugger attachment.
export async function sendCookies(tabId, cookies, signal) {
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
