// The native-messaging port to the tabsight host: hello, request dispatch,
// cancellation, events, and reconnection. Frames are those of
// docs/wire-protocol.md; Chrome does the length-prefix framing.

import { Code, TabsightError, badRequest, toWireError } from './errors.js';
import { getBrowserInfo, getBrowserRun, getLastActive, getProfileId } from './identity.js';
import { PROTOCOL_VERSION } from './limits.js';

const HOST_NAME = 'dev.tabsight.host';
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 5000;

let handlers = {};
// what the host tells: onHello(hello), and event name -> (data) => void
let hostHooks = { onHello: () => {}, events: {} };
let port = null;
// Set while the hello is being assembled (it needs async lookups), so a
// second connect() or an early event waits instead of racing it.
let connecting = null;
let retryTimer = null;
let retryDelayMs = FIRST_RETRY_DELAY_MS;
// After a protocol mismatch, reconnecting every few seconds would only
// relaunch the same incompatible host; the caller's periodic check retries.
let hostIncompatible = false;
// request id -> AbortController of the handler answering it
const inFlight = new Map();

// Starts serving `methodHandlers` (method name -> async (params, signal) =>
// result object) to the host; `hooks` hear the host's hello and events.
export function serve(methodHandlers, hooks = {}) {
  handlers = methodHandlers;
  hostHooks = { ...hostHooks, ...hooks };
  connect();
}

// Reconnects now if the port is down. Timers do not keep an MV3 service
// worker alive, so a pending backoff timer may never fire; this is the
// backstop, called from an alarm.
export function ensureConnected() {
  if (port || connecting) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  connect();
}

export async function sendEvent(event, data) {
  // An event that woke the worker arrives before its hello has gone out.
  await connecting;
  if (port) post(port, { kind: 'event', event, data });
}

function connect() {
  if (port || connecting) return;
  connecting = openPort()
    .catch((err) => {
      console.error('tabsight: could not connect to the native host', err);
      scheduleReconnect();
    })
    .finally(() => {
      connecting = null;
      // the port dropped while its hello was made, and the reconnect timer fired meanwhile, in vain
      if (!port && !retryTimer && !hostIncompatible) scheduleReconnect();
    });
}

async function openPort() {
  // The port first: Chrome starts the host process now, and the host (a Python interpreter) takes far longer
  // to start than the lookups below, which it waits for as the hello it reads first.
  const nativePort = chrome.runtime.connectNative(HOST_NAME);
  port = nativePort;
  nativePort.onMessage.addListener((frame) => onFrame(frame, nativePort));
  nativePort.onDisconnect.addListener(() => {
    // Reading lastError also keeps Chrome from logging it as unchecked.
    const reason = chrome.runtime.lastError?.message ?? 'the host closed the port';
    console.warn(`tabsight: native host disconnected: ${reason}`);
    dropPort(nativePort);
  });
  const [browser, profileId, browserRun, lastActive] = await Promise.all([
    getBrowserInfo(), getProfileId(), getBrowserRun(), getLastActive(),
  ]);
  const hello = {
    kind: 'hello',
    protocol: PROTOCOL_VERSION,
    role: 'extension',
    // tabsight's version: a copy `tabsight install` packed has a fourth number in `version` (what makes the
    // browser update it) and tabsight's in `version_name`
    version: chrome.runtime.getManifest().version_name ?? chrome.runtime.getManifest().version,
    browser,
    profile_id: profileId,
    browser_run: browserRun,
  };
  if (lastActive !== undefined) hello.last_active = lastActive;
  if (port === nativePort) nativePort.postMessage(hello); // else it dropped meanwhile, and a reconnect is due
}

function dropPort(droppedPort) {
  if (port !== droppedPort) return;
  port = null;
  // Nobody can receive these answers any more: stop the work and release
  // what it holds (debugger attachments, listeners).
  for (const controller of inFlight.values()) {
    controller.abort(new TabsightError(Code.CANCELLED, 'The native host disconnected'));
  }
  inFlight.clear();
  if (!hostIncompatible) scheduleReconnect();
}

function scheduleReconnect() {
  if (retryTimer) return;
  const delay = retryDelayMs;
  retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_DELAY_MS);
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, delay);
}

// Never throws: an exception here would be lost in Chrome's event dispatch
// and the request would never be answered.
function onFrame(frame, framePort) {
  try {
    if (!isPlainObject(frame)) {
      console.warn('tabsight: dropped a frame that is not a JSON object', frame);
      return;
    }
    switch (frame.kind) {
      case 'hello':
        onHostHello(frame, framePort);
        break;
      case 'request':
        answerRequest(frame, framePort);
        break;
      case 'event':
        hostHooks.events[frame.event]?.(isPlainObject(frame.data) ? frame.data : {});
        break;
      case 'cancel':
        inFlight.get(frame.id)?.abort(new TabsightError(Code.CANCELLED, 'The request was cancelled'));
        break;
      case 'error':
        onHostError(frame);
        break;
      default:
        if (typeof frame.id === 'string') {
          post(framePort, errorFrame(frame.id, badRequest(`Unknown frame kind: ${JSON.stringify(frame.kind)}`)));
        } else {
          console.warn('tabsight: dropped a frame of unknown kind', frame);
        }
    }
  } catch (err) {
    console.error('tabsight: failed to handle a frame from the host', frame, err);
  }
}

function onHostHello(hello, helloPort) {
  if (hello.protocol === PROTOCOL_VERSION) {
    retryDelayMs = FIRST_RETRY_DELAY_MS;
    hostIncompatible = false;
    console.info(`tabsight: connected to native host ${hello.version} (protocol ${hello.protocol})`);
    hostHooks.onHello(hello);
    return;
  }
  const fix = hello.protocol > PROTOCOL_VERSION
    ? 'update the tabsight extension and reload it at chrome://extensions'
    : 'update tabsight and restart the browser';
  const message = `tabsight protocol mismatch: the host speaks ${hello.protocol}, ` +
    `the extension speaks ${PROTOCOL_VERSION}; ${fix}`;
  console.warn(message);
  hostIncompatible = true;
  post(helloPort, { kind: 'error', id: null, error: { code: Code.VERSION_MISMATCH, message } });
  helloPort.disconnect();
  dropPort(helloPort); // disconnect() does not fire our own onDisconnect
}

function onHostError({ id, error }) {
  if (error?.code === Code.VERSION_MISMATCH) {
    // The host closes right after; keep it from being relaunched in a loop.
    hostIncompatible = true;
    console.warn(`tabsight: ${error.message}`);
    return;
  }
  console.warn(`tabsight: host reported an error${id ? ` for ${id}` : ''}`, error);
}

async function answerRequest({ id, method, params = {} }, requestPort) {
  try {
    if (typeof id !== 'string') {
      post(requestPort, errorFrame(null, badRequest('A request needs a string id')));
      return;
    }
    if (typeof method !== 'string' || !Object.hasOwn(handlers, method)) {
      post(requestPort, errorFrame(id, badRequest(`Unknown method: ${JSON.stringify(method)}`)));
      return;
    }
    if (!isPlainObject(params)) {
      post(requestPort, errorFrame(id, badRequest(`params of ${method} must be an object`)));
      return;
    }
    if (inFlight.has(id)) {
      post(requestPort, errorFrame(id, badRequest(`Request id ${id} is already in flight`)));
      return;
    }
    const controller = new AbortController();
    inFlight.set(id, controller);
    try {
      const result = await handlers[method](params, controller.signal);
      controller.signal.throwIfAborted(); // a cancelled request's result is unwanted
      const failure = post(requestPort, { kind: 'response', id, result });
      // Typically a result over the 64 MiB cap: say so rather than go silent.
      if (failure && port === requestPort) {
        post(requestPort, errorFrame(id, new Error(`Could not send the result: ${failure.message}`)));
      }
    } catch (err) {
      post(requestPort, errorFrame(id, controller.signal.aborted ? controller.signal.reason : err));
    } finally {
      if (inFlight.get(id) === controller) inFlight.delete(id);
    }
  } catch (err) {
    console.error(`tabsight: failed to answer request ${id}`, err);
  }
}

function errorFrame(id, err) {
  return { kind: 'error', id, error: toWireError(err) };
}

// Returns the error instead of throwing: the port may have closed meanwhile.
function post(targetPort, frame) {
  try {
    targetPort.postMessage(frame);
    return null;
  } catch (err) {
    console.warn(`tabsight: could not send a ${frame.kind} frame to the host`, err);
    return err;
  }
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// At the worker's start (install, browser start, every wake), before the rest of the worker is evaluated:
// the host's start overlaps it. Nothing arrives before serve() has set the handlers: the host sends requests
// only after this side's hello, which goes out once the whole worker has been evaluated.
connect();
