// Every request of every tab, as chrome.webRequest sees it: reported to the
// host as a `network` telemetry report when it ends (method, URL, status or
// error, type, duration, size; no headers, no bodies), and kept here, the
// last MAX_KEPT_REQUESTS of them, with their headers and request body, for
// network.detail: an agent's question about one request, by its id.
//
// Response bodies are out of webRequest's reach. They come from the
// debugger: every attachment enables CDP's Network domain (cdp.js), and the
// bodies of documents, fetches and XHRs that finish while tabsight is
// attached to their tab (a navigate, an action, execute, and the idle time
// after) are read at once and kept, since Chrome drops them with the
// attachment: so the tab's detach, whatever asks for it, waits until the
// reads it would cut short are done (cdp.js afterAttached). A request made
// while nothing was attached has no body here, and the detail says so.
//
// Bounded: MAX_KEPT_REQUESTS requests; bodies (request and response alike)
// for the last MAX_KEPT_BODIES, each cut at MAX_BODY_CHARS and a margin.
// Nothing is redacted here: the host redacts a detail before it reaches a
// front. A page cannot add to any of this: it all comes from the browser.

import { afterAttached, send } from './cdp.js';
import { badRequest } from './errors.js';
import { cut } from './execute.js';
import { MAX_BODY_CHARS } from './limits.js';
import { sendEvent } from './native.js';
import { boolParam, intParam, tabIdParam } from './params.js';

const MAX_KEPT_REQUESTS = 2000;
const MAX_KEPT_BODIES = 100;
// Past MAX_BODY_CHARS a text is kept this much longer, so that the host,
// which redacts before it cuts at the agent's max_body_chars, never cuts a
// secret in half before its rules have seen it whole.
const CUT_MARGIN = 1000;
const KEPT_CHARS = MAX_BODY_CHARS + CUT_MARGIN;
// Responses larger than this are not read from the debugger at all.
const MAX_READ_BYTES = 5_000_000;
// The CDP resource types whose response bodies are read while attached.
const BODY_TYPES = new Set(['Document', 'XHR', 'Fetch']);
const PARTS = ['request_headers', 'response_headers', 'request_body', 'response_body'];
const MAX_CDP_REQUESTS = 1000;

// webRequest's requestId -> { id, tabId, url, method, type, start, end?, status?, error?, fromCache,
// requestHeaders?, responseHeaders?, requestBody?, responseBody? }
const requests = new Map();
// records holding a body, oldest first (a record may be in it twice: once per body)
const withBodies = [];
// `${tabId} ${CDP requestId}` -> { tabId, url, method, type, wallTime, mimeType? }
const cdpRequests = new Map();

export function startNetwork() {
  const pages = { urls: ['<all_urls>'] };
  chrome.webRequest.onBeforeRequest.addListener((details) => {
    const own = ownRequest(details);
    if (details.tabId < 0 || (own && details.type !== 'main_frame')) return;
    if (requests.size >= MAX_KEPT_REQUESTS) requests.delete(requests.keys().next().value);
    const record = {
      id: Number(details.requestId), tabId: details.tabId, url: details.url, method: details.method,
      type: details.type, start: details.timeStamp, fromCache: false, byTabsight: own,
    };
    requests.set(details.requestId, record);
    const body = requestBody(details.requestBody);
    if (body) keepBody(record, 'requestBody', body);
  }, pages, ['requestBody']);
  chrome.webRequest.onSendHeaders.addListener(({ requestId, requestHeaders }) => {
    const record = requests.get(requestId);
    if (record) record.requestHeaders = headerLines(requestHeaders);
  }, pages, ['requestHeaders', 'extraHeaders']);
  chrome.webRequest.onBeforeRedirect.addListener(({ requestId, redirectUrl }) => {
    const record = requests.get(requestId);
    if (record) record.url = redirectUrl;
  }, pages);
  chrome.webRequest.onCompleted.addListener((details) => {
    finish(details, { status: details.statusCode, responseHeaders: headerLines(details.responseHeaders) });
  }, pages, ['responseHeaders', 'extraHeaders']);
  chrome.webRequest.onErrorOccurred.addListener((details) => {
    finish(details, { error: details.error });
  }, pages);
  chrome.debugger.onEvent.addListener(onDebuggerEvent);
}

// The extension's own requests are not the page's; but a page tabsight loads (navigate) is the tab's
// document, listed as such (by_tabsight: the navigate's answer said how it went, so no failure is raised).
function ownRequest(details) {
  return details.initiator?.startsWith('chrome-extension://') ?? false;
}

function finish(details, outcome) {
  const record = requests.get(details.requestId);
  if (!record) return;
  Object.assign(record, outcome, { url: details.url, end: details.timeStamp, fromCache: details.fromCache ?? false });
  const size = Number(record.responseHeaders?.find(([name]) => name.toLowerCase() === 'content-length')?.[1]);
  sendEvent('telemetry', {
    tab_id: record.tabId,
    origin: 'browser',
    events: [{
      type: 'network',
      id: record.id,
      method: record.method,
      url: record.url,
      resource_type: record.type,
      duration_ms: record.end - record.start,
      ...(record.status === undefined ? {} : { status: record.status }),
      ...(record.error === undefined ? {} : { error: record.error }),
      ...(Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
      ...(record.fromCache ? { from_cache: true } : {}),
      ...(record.byTabsight ? { by_tabsight: true } : {}),
    }],
  });
}

const headerLines = (headers) => (headers ?? []).map(({ name, value, binaryValue }) => (
  [name, value ?? `(binary, ${binaryValue?.length ?? 0} bytes)`]));

// What webRequest gives of a request's body: form fields (Chrome parses
// form posts), or raw bytes (text when they decode as UTF-8).
function requestBody(body) {
  if (!body) return null;
  if (body.error) return { note: `not given by the browser (${body.error})` };
  if (body.formData) {
    const fields = new URLSearchParams();
    for (const [name, values] of Object.entries(body.formData)) for (const value of values) fields.append(name, value);
    return textBody(fields.toString(), 'application/x-www-form-urlencoded');
  }
  const parts = body.raw ?? [];
  const files = parts.filter((part) => part.file !== undefined).map((part) => part.file);
  const chunks = parts.filter((part) => part.bytes).map((part) => new Uint8Array(part.bytes));
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const kept = bytesBody(bytes, null);
  return files.length ? { ...kept, files } : kept;
}

function bytesBody(bytes, mimeType) {
  try {
    return textBody(new TextDecoder('utf-8', { fatal: true }).decode(bytes), mimeType);
  } catch {
    let binary = '';
    for (const byte of bytes.subarray(0, KEPT_CHARS)) binary += String.fromCharCode(byte);
    return binaryBody(btoa(binary), bytes.length, mimeType);
  }
}

const textBody = (text, mimeType) => ({ text: cut(text, KEPT_CHARS), chars: text.length, mimeType });
// base64 kept up to a whole number of 4-character groups
const binaryBody = (base64, bytes, mimeType) => ({
  base64: base64.slice(0, Math.floor(KEPT_CHARS / 4) * 4), bytes, mimeType,
});

function keepBody(record, key, body) {
  record[key] = body;
  withBodies.push([record, key]);
  while (withBodies.length > MAX_KEPT_BODIES) {
    const [old, oldKey] = withBodies.shift();
    old[oldKey] = { note: `no longer kept: tabsight keeps the bodies of the last ${MAX_KEPT_BODIES} requests` };
  }
}

// -- response bodies, from the debugger ---------------------------------------

function onDebuggerEvent({ tabId }, method, params) {
  if (tabId === undefined) return;
  const key = `${tabId} ${params.requestId}`;
  if (method === 'Network.requestWillBeSent') {
    if (cdpRequests.size >= MAX_CDP_REQUESTS) cdpRequests.delete(cdpRequests.keys().next().value);
    cdpRequests.set(key, {
      tabId, url: params.request.url, method: params.request.method, type: params.type, wallTime: params.wallTime * 1000,
    });
  } else if (method === 'Network.responseReceived') {
    const seen = cdpRequests.get(key);
    if (seen) Object.assign(seen, { mimeType: params.response.mimeType, type: params.type });
  } else if (method === 'Network.loadingFinished') {
    const seen = cdpRequests.get(key);
    cdpRequests.delete(key);
    // The tab's detach waits for the read (Chrome drops the body with the attachment), whatever detaches it.
    if (seen && BODY_TYPES.has(seen.type)) afterAttached(tabId, readBody(seen, params).catch(() => {}));
  } else if (method === 'Network.loadingFailed') {
    cdpRequests.delete(key);
  }
}

async function readBody(seen, { requestId, encodedDataLength }) {
  const record = matching(seen);
  if (!record) return;
  if (encodedDataLength > MAX_READ_BYTES) {
    record.responseBody = { note: `not kept: ${encodedDataLength} bytes, over the ${MAX_READ_BYTES} tabsight reads` };
    return;
  }
  const { body, base64Encoded } = await send(seen.tabId, 'Network.getResponseBody', { requestId });
  keepBody(record, 'responseBody', base64Encoded
    ? binaryBody(body, Math.floor((body.length * 3) / 4) - (body.match(/=*$/)[0].length), seen.mimeType)
    : textBody(body, seen.mimeType));
}

// The webRequest record of a request the debugger saw: the two name requests
// by ids of their own, so the same tab, method and URL, started closest in time.
function matching(seen) {
  let best = null;
  for (const record of requests.values()) {
    if (record.tabId !== seen.tabId || record.method !== seen.method || record.url !== seen.url
        || record.responseBody) continue;
    if (!best || Math.abs(record.start - seen.wallTime) < Math.abs(best.start - seen.wallTime)) best = record;
  }
  return best;
}

// -- network.detail ------------------------------------------------------------

// One request's detail: { id, url, method, resource_type, state, status?, error?, duration_ms?, and the parts
// asked for }. A text body is cut at max_body_chars and a margin (the host redacts it, then cuts it at
// max_body_chars); a binary one is left out unless binary_bodies, then base64 cut at max_body_chars.
export async function networkDetail(params) {
  const tabId = tabIdParam(params);
  const id = intParam(params, 'request_id', 0, Number.MAX_SAFE_INTEGER);
  const maxChars = intParam(params, 'max_body_chars', 0, MAX_BODY_CHARS);
  const binary = boolParam(params, 'binary_bodies', false);
  const include = params.include ?? PARTS;
  if (!Array.isArray(include) || include.some((part) => !PARTS.includes(part))) {
    throw badRequest(`Invalid include: ${JSON.stringify(include)} (allowed: a list of ${PARTS.join(', ')})`);
  }
  const record = requests.get(String(id));
  if (!record || record.tabId !== tabId) {
    throw badRequest(
      `Request ${id} is not known on tab ${tabId}: the browser keeps the details of its last ${MAX_KEPT_REQUESTS} ` +
      'requests (observe network with requests "all" lists the ids of the latest)');
  }
  const state = record.end === undefined ? 'pending' : record.error === undefined ? 'complete' : 'failed';
  const detail = {
    id: record.id, url: record.url, method: record.method, resource_type: record.type, state,
    ...(record.status === undefined ? {} : { status: record.status }),
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(record.end === undefined ? {} : { duration_ms: Math.round(record.end - record.start) }),
    ...(record.fromCache ? { from_cache: true } : {}),
  };
  if (include.includes('request_headers')) detail.request_headers = record.requestHeaders ?? [];
  if (include.includes('response_headers')) {
    detail.response_headers = record.responseHeaders
      ?? (state === 'pending' ? 'not yet: the response has not come' : 'none: no response came');
  }
  if (include.includes('request_body')) {
    detail.request_body = record.requestBody ? shown(record.requestBody, maxChars, binary) : 'none';
  }
  if (include.includes('response_body')) {
    detail.response_body = record.responseBody ? shown(record.responseBody, maxChars, binary)
      : { note: missingResponse(record, state) };
  }
  return detail;
}

// A kept body as an answer gives it: { mime_type?, chars, content } for text; for binary { mime_type?, bytes }
// and a note, or with binary_bodies its base64 (and what was cut).
function shown(body, maxChars, binary) {
  if (body.note) return { note: body.note };
  const mime = body.mimeType ? { mime_type: body.mimeType } : {};
  if (body.text !== undefined) return { ...mime, chars: body.chars, content: cut(body.text, maxChars + CUT_MARGIN) };
  if (!binary) return { ...mime, bytes: body.bytes, note: 'binary: not shown (binary_bodies: true gives it as base64)' };
  const base64 = body.base64.slice(0, Math.floor(maxChars / 4) * 4);
  const whole = Math.ceil(body.bytes / 3) * 4;
  return { ...mime, bytes: body.bytes, base64,
    ...(base64.length < whole ? { cut: `the first ${base64.length} of ${whole} base64 characters` } : {}) };
}

function missingResponse(record, state) {
  if (state === 'pending') return 'not yet: the response has not finished';
  if (record.error !== undefined) return `none: the request failed (${record.error})`;
  if (!['main_frame', 'sub_frame', 'xmlhttprequest'].includes(record.type)) {
    return `not kept: tabsight keeps the response bodies of documents, fetch and XHR only (this is ${record.type})`;
  }
  return 'not kept: it came while tabsight was not attached to the tab. Response bodies are read while tabsight ' +
    'acts on the tab (interact: navigate, click, type..., execute) and a few seconds after: make the request ' +
    'again that way (a navigate reloads a page) and ask again';
}
