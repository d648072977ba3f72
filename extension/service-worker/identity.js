// Who this extension is, for its hello: the browser it runs in, a stable
// id for the browser profile, an id for this run of the browser, and when the
// user last used it.

const PROFILE_ID_KEY = 'profile_id';
const LAST_ACTIVE_KEY = 'last_active';

// A headless browser (the embedded one, by default) says so in its user agent.
export const HEADLESS = /HeadlessChrome/.test(navigator.userAgent);
const BROWSER_RUN_KEY = 'browser_run';

let profileId = null;

// A random id minted once per profile and kept in chrome.storage.local, so the
// host and fronts can tell profiles apart across restarts.
export async function getProfileId() {
  if (profileId) return profileId;
  const stored = (await chrome.storage.local.get(PROFILE_ID_KEY))[PROFILE_ID_KEY];
  if (stored) return (profileId = stored);
  profileId = crypto.randomUUID();
  await chrome.storage.local.set({ [PROFILE_ID_KEY]: profileId });
  return profileId;
}

// A random id for this run of the browser, kept in chrome.storage.session:
// it outlives the service worker's restarts and ends with the browser, so a
// front can tell a restarted browser (whose tab ids are all new) from a
// host or service worker that merely reconnected.
export async function getBrowserRun() {
  const stored = (await chrome.storage.session.get(BROWSER_RUN_KEY))[BROWSER_RUN_KEY];
  if (stored) return stored;
  const run = crypto.randomUUID();
  await chrome.storage.session.set({ [BROWSER_RUN_KEY]: run });
  return run;
}

// The user activated a tab or focused a window of this browser: remember when,
// in chrome.storage.local (it outlives the worker and the browser), for the
// hellos to come. Never throws: a listener calls it.
export async function noteActivity() {
  try {
    await chrome.storage.local.set({ [LAST_ACTIVE_KEY]: Date.now() / 1000 });
  } catch (err) {
    console.warn('tabsight: could not remember the last activity', err);
  }
}

// When the user last used this browser, in unix seconds, for the hello: now if
// one of its normal windows has the focus, else the last activation or focus
// remembered, else undefined (never, as far as this profile knows). Hosts
// start with their browser, so this, not the host's start, says which of
// several browsers is the user's current one.
export async function getLastActive() {
  try {
    const last = await chrome.windows.getLastFocused({ windowTypes: ['normal'] });
    if (last?.focused) return Date.now() / 1000;
  } catch {
    // no window at all
  }
  try {
    const stored = (await chrome.storage.local.get(LAST_ACTIVE_KEY))[LAST_ACTIVE_KEY];
    return typeof stored === 'number' && Number.isFinite(stored) ? stored : undefined;
  } catch (err) {
    console.warn('tabsight: could not read the last activity', err);
    return undefined;
  }
}

// The user agent string says "Chrome" for every Chromium browser; the
// userAgentData brands name the real one (Google Chrome, Microsoft Edge,
// Brave, ...) next to "Chromium" and a deliberately bogus GREASE brand.
export async function getBrowserInfo() {
  const userAgent = navigator.userAgent;
  let name = 'Chromium';
  let version = /(?:Chrome|Chromium)\/([\d.]+)/.exec(userAgent)?.[1] ?? 'unknown';
  try {
    const { fullVersionList = [] } =
      (await navigator.userAgentData?.getHighEntropyValues(['fullVersionList'])) ?? {};
    const real = fullVersionList.filter(({ brand }) => !/not.?a.?brand/i.test(brand));
    const pick = real.find(({ brand }) => brand !== 'Chromium') ?? real[0];
    if (pick) ({ brand: name, version } = pick);
  } catch (err) {
    console.warn('tabsight: userAgentData unavailable, naming the browser from the user agent', err);
  }
  return { name, version, user_agent: userAgent };
}
