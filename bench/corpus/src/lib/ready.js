// The page's state is reached: the harness (data-ready-when="corpusReady") waits for this global.
export function ready(delay = 50) {
  requestAnimationFrame(() => setTimeout(() => { window.corpusReady = true; }, delay));
}
