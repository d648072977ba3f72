// The `emulation.set` method: a tab's emulated viewport (device metrics,
// touch, user agent), colour scheme and network, kept until reset, the
// tab closes or the last MCP session ends.
//
// What the debugger sets lasts only as long as its attachment, and cdp.js
// drops an idle attachment after a few seconds. So an emulated tab is held
// attached (cdp.js hold) for as long as it is emulated, and every new
// attachment of it (after the user's Cancel on the debugging bar and the
// agent's configure({action:'debugger'}), or any other detach) gets the
// emulation again before its first user runs (cdp.js onAttach).
//
// Which tabs may be emulated is the front's rule (the user's tab only when
// the agent names it); this module applies what it is told.

import { hold, onAttach, send } from './cdp.js';
import { badRequest } from './errors.js';
import { boolParam, enumParam, intParam, numberParam, optionalStringParam, tabIdParam } from './params.js';

const COLOR_SCHEMES = ['light', 'dark', 'no-preference'];
const ASPECTS = ['viewport', 'color_scheme', 'network'];
const MIN_SIZE = 100;
const MAX_SIZE = 4000;
const MAX_LATENCY_MS = 60_000;
const MAX_BYTES_PER_S = 1_000_000_000;

// tabId -> { aspects: {viewport?, color_scheme?, network?}, kept: Promise | null, release: function | null }
const emulated = new Map();

// A new attachment has none of it: apply it again, and hold the tab again.
// Not awaited (a command behind an open dialog may never answer); the
// attachment's users come after, and CDP runs a tab's commands in order.
onAttach((tabId) => {
  const entry = emulated.get(tabId);
  if (!entry) return;
  apply(tabId, entry.aspects, ASPECTS).catch((err) => console.warn('tabsight: could not emulate again', err));
  keep(tabId, entry).catch(() => {}); // the tab is going away, or the user cancelled: said when next asked
});
chrome.debugger.onDetach.addListener(({ tabId }) => {
  const entry = emulated.get(tabId);
  if (!entry) return;
  entry.kept = null; // what the attachment set went with it
  entry.release = null;
});
chrome.tabs.onRemoved.addListener((tabId) => {
  const entry = emulated.get(tabId);
  if (entry) end(tabId, entry);
});

// `emulation.set`: {tab_id, viewport?, color_scheme?, network?} sets the
// aspects given (a null ends one), or {tab_id, reset: true} ends them all;
// -> {emulation}: what the tab has now (emulationOf).
export async function setEmulation(params) {
  const tabId = tabIdParam(params);
  const changes = boolParam(params, 'reset', false) ? null : changesParam(params);
  await chrome.tabs.get(tabId); // no_tab for a tab that is gone
  const entry = emulated.get(tabId) ?? { aspects: {}, kept: null, release: null };
  const before = entry.aspects;
  const touched = changes ? Object.keys(changes) : Object.keys(before);
  const after = changes ? withChanges(before, changes) : {};
  if (Object.keys(after).length === 0) {
    if (entry.release) await apply(tabId, after, touched);
    end(tabId, entry);
    return { emulation: null };
  }
  entry.aspects = after;
  emulated.set(tabId, entry);
  try {
    await keep(tabId, entry);
    await apply(tabId, after, touched);
  } catch (err) {
    entry.aspects = before; // as it was, or nothing
    if (Object.keys(before).length === 0) end(tabId, entry);
    else if (entry.release) apply(tabId, before, touched).catch(() => {});
    throw err;
  }
  return { emulation: emulationOf(tabId) };
}

// What the tab is emulated as (null: nothing), and whether it is in effect
// now (it is not while no attachment holds it).
export function emulationOf(tabId) {
  const entry = emulated.get(tabId);
  if (!entry) return null;
  return {
    ...entry.aspects,
    in_effect: entry.release !== null,
    ...(entry.release === null && {
      note: 'Not in effect: tabsight\'s debugger is not attached to the tab (the user cancelled its debugging ' +
        'bar?). It is applied again when tabsight next attaches.',
    }),
  };
}

// The emulated device metrics of the tab, as Emulation.setDeviceMetricsOverride
// takes them, or null: a capture that changes them must put these back.
export function metricsOverride(tabId) {
  const viewport = emulated.get(tabId)?.aspects.viewport;
  return viewport ? metrics(viewport) : null;
}

// No MCP session is left: nobody will reset what they emulated, so it ends now.
export function endAll() {
  for (const [tabId, entry] of emulated) {
    if (entry.release) apply(tabId, {}, Object.keys(entry.aspects)).catch(() => {});
    end(tabId, entry);
  }
}

function end(tabId, entry) {
  emulated.delete(tabId);
  entry.kept = null;
  const { release } = entry;
  entry.release = null;
  release?.();
}

// Holds the tab attached while it is emulated (once per attachment).
function keep(tabId, entry) {
  if (!entry.kept) {
    const kept = hold(tabId).then((release) => {
      if (entry.kept === kept && emulated.get(tabId) === entry) entry.release = release;
      else release(); // reset or detached meanwhile
    });
    kept.catch(() => {
      if (entry.kept === kept) entry.kept = null;
    });
    entry.kept = kept;
  }
  return entry.kept;
}

function withChanges(aspects, changes) {
  const merged = { ...aspects, ...changes };
  for (const name of ASPECTS) if (merged[name] === null) delete merged[name];
  return merged;
}

// Sends the commands that set the `names` aspects of `aspects` (an absent one: ends it), in order.
function apply(tabId, aspects, names) {
  return Promise.all(names.flatMap((name) => COMMANDS[name](aspects[name])
    .map(([method, params]) => send(tabId, method, params))));
}

const COMMANDS = {
  viewport: (viewport) => [
    viewport ? ['Emulation.setDeviceMetricsOverride', metrics(viewport)] : ['Emulation.clearDeviceMetricsOverride', {}],
    ['Emulation.setTouchEmulationEnabled', viewport?.mobile ? { enabled: true, maxTouchPoints: 5 } : { enabled: false }],
    ['Emulation.setUserAgentOverride', { userAgent: viewport?.user_agent ?? '' }], // '': the browser's own
  ],
  color_scheme: (scheme) => [
    ['Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme ?? '' }] }],
  ],
  // Requests are throttled (or failed, offline) only with the Network domain on.
  network: (network) => (network
    ? [
      ['Network.enable', {}],
      ['Network.emulateNetworkConditions', { offline: network.offline, latency: network.latency_ms,
        downloadThroughput: network.download_bytes_per_s, uploadThroughput: network.upload_bytes_per_s }],
    ]
    : [
      ['Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }],
      ['Network.disable', {}],
    ]),
};

function metrics({ width, height, device_scale_factor: deviceScaleFactor, mobile }) {
  return { width, height, deviceScaleFactor, mobile };
}

// The aspects the request sets (an object each) or ends (null); at least one.
function changesParam(params) {
  const changes = {};
  if (params.viewport !== undefined) changes.viewport = params.viewport === null ? null : viewportParam(params.viewport);
  if (params.color_scheme !== undefined) {
    changes.color_scheme = params.color_scheme === null ? null : enumParam(params, 'color_scheme', COLOR_SCHEMES);
  }
  if (params.network !== undefined) changes.network = params.network === null ? null : networkParam(params.network);
  if (Object.keys(changes).length === 0) {
    throw badRequest(`Invalid emulation: nothing to set (allowed: ${ASPECTS.join(', ')}, or reset: true)`);
  }
  return changes;
}

function viewportParam(viewport) {
  const object = objectParam(viewport, 'viewport');
  const device = optionalStringParam(object, 'device');
  const userAgent = optionalStringParam(object, 'user_agent');
  return {
    ...(device && { device }),
    width: intParam(object, 'width', MIN_SIZE, MAX_SIZE),
    height: intParam(object, 'height', MIN_SIZE, MAX_SIZE),
    device_scale_factor: numberParam(object, 'device_scale_factor', 0.5, 4, 1),
    mobile: boolParam(object, 'mobile', false),
    ...(userAgent && { user_agent: userAgent }),
  };
}

function networkParam(network) {
  const object = objectParam(network, 'network');
  return {
    name: optionalStringParam(object, 'name') ?? 'custom',
    offline: boolParam(object, 'offline', false),
    latency_ms: intParam(object, 'latency_ms', 0, MAX_LATENCY_MS, 0),
    download_bytes_per_s: intParam(object, 'download_bytes_per_s', -1, MAX_BYTES_PER_S, -1),
    upload_bytes_per_s: intParam(object, 'upload_bytes_per_s', -1, MAX_BYTES_PER_S, -1),
  };
}

function objectParam(value, name) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`Invalid ${name}: ${JSON.stringify(value)} (allowed: an object, or null to end it)`);
  }
  return value;
}
