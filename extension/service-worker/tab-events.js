// One-shot events per tab ("a dialog opened", "it crashed") that a call in
// flight can wait for, and stop waiting for when it ends.

export class TabEvent {
  // tabId -> callbacks of those waiting
  #waiting = new Map();

  // { happened: a promise that resolves when the event fires on the tab, stop }
  wait(tabId) {
    let stop;
    const happened = new Promise((resolve) => {
      this.#waiting.set(tabId, [...(this.#waiting.get(tabId) ?? []), resolve]);
      stop = () => {
        const left = (this.#waiting.get(tabId) ?? []).filter((callback) => callback !== resolve);
        if (left.length) this.#waiting.set(tabId, left);
        else this.#waiting.delete(tabId);
      };
    });
    return { happened, stop };
  }

  fire(tabId) {
    for (const callback of this.#waiting.get(tabId) ?? []) callback();
    this.#waiting.delete(tabId);
  }

  forget(tabId) {
    this.#waiting.delete(tabId);
  }
}
