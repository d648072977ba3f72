// Tabs whose first load Chrome dropped when it loaded this extension.
//
// Loading an extension with the webRequest permission, when none was loaded
// before, makes Chrome reset the profile's URL loader factories so that
// webRequest sees every later request (WebRequestAPI::OnExtensionLoaded ->
// UpdateMayHaveProxies -> StoragePartition::ResetURLLoaderFactories). A
// navigation whose request is on its way at that moment is dropped without
// an error page, and a tab that showed nothing yet keeps the URL as its
// pending entry: pendingUrl set, url '' (nothing committed), status
// 'complete' (nothing loading), titled "Untitled", and no request ever
// leaves. That is the tab given on the command line beside --load-extension,
// which loads the extension while that tab starts its load (in a profile
// that already has the extension too: it is loaded again). Navigating such a
// tab to its pending URL loads it.
//
// Only then: when the extension was installed or reloaded (onInstalled;
// --load-extension is an install each time), not at a browser start that
// loads it from the profile before any tab loads; and only tabs opened or
// looked at in the last minute. A tab whose only load answered 204 or became
// a download looks the same: one seen still loading is revived only if no
// response of its own came, one that ended before the worker could look is
// asked once more.

const WATCH_MS = 10_000;
// lastAccessed is when a tab was opened or last became active (Chrome 121+).
const RECENT_MS = 60_000;
const POLL_MS = 200;
// What the reset drops: requests of the network stack (not file:, chrome:, about:).
const NETWORK_URL = /^https?:/i;

// Called at the worker's top level (the listener must be there to wake it).
export function reviveStartupTabs() {
  chrome.runtime.onInstalled.addListener(({ reason }) => {
    if (reason === 'install' || reason === 'update') reviveStalledTabs();
  });
}

async function reviveStalledTabs() {
  try {
    const tabs = await chrome.tabs.query({});
    await Promise.all(tabs.filter(neverShown).map((tab) => (tab.status === 'loading' ? watch(tab) : revive(tab))));
  } catch (err) {
    console.warn('tabsight: could not check the tabs left unloaded when the extension loaded', err);
  }
}

// A tab opened or looked at lately that has committed nothing and waits for a network URL.
function neverShown(tab) {
  const recent = tab.lastAccessed === undefined || Date.now() - tab.lastAccessed <= RECENT_MS;
  return recent && !tab.url && NETWORK_URL.test(tab.pendingUrl ?? '');
}

async function revive(tab) {
  if (tab.status !== 'complete' || !neverShown(tab)) return;
  console.info(`tabsight: tab ${tab.id} never loaded ${tab.pendingUrl} (dropped when the extension loaded); loading it`);
  try {
    await chrome.tabs.update(tab.id, { url: tab.pendingUrl });
  } catch (err) {
    console.warn(`tabsight: could not load ${tab.pendingUrl} in tab ${tab.id}`, err);
  }
}

// A tab still loading when the worker looked: revived if it stops loading
// with nothing shown and no response of its own seen meanwhile. Polled:
// Chrome sends no tabs.onUpdated when it drops the load.
async function watch(tab) {
  let answered = false;
  const onResponse = () => { answered = true; };
  chrome.webRequest.onResponseStarted.addListener(onResponse, { urls: ['<all_urls>'], tabId: tab.id, types: ['main_frame'] });
  try {
    for (const deadline = Date.now() + WATCH_MS; Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const now = await chrome.tabs.get(tab.id);
      if (now.url || now.pendingUrl !== tab.pendingUrl) return; // it shows its page, or went elsewhere
      if (now.status === 'complete') {
        if (!answered) await revive(now);
        return;
      }
    }
  } catch {
    // the tab was closed
  } finally {
    chrome.webRequest.onResponseStarted.removeListener(onResponse);
  }
}
