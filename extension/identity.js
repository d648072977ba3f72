// Who this extension is, for its hello: the browser it runs in and a stable
// id for the browser profile.

const PROFILE_ID_KEY = 'profile_id';

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
