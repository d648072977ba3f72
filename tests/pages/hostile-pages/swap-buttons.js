// Two buttons, Save and Delete, that trade places when the pointer does
// something: the page under test for interact's hit-target check.
//
// Query: ?swap=once (default: only the first time) | always | never,
// ?on=<event> (the page's default otherwise: mousemove, pointermove), and
// ?delay=<ms>: swap that long after the event (a timer), not in its handler.
// What each button really received is kept in window.record (read it with
// interact execute): clicks, pointer/mouse ups, hovers (mouseover), and the
// pointer entering the buttons' bar (#bar, when the page has one).
window.record = { clicks: [], ups: [], hovers: [], enters: [], swaps: 0 };

function swapPair(root, defaultEvent) {
  const params = new URLSearchParams(location.search);
  const when = params.get('swap') ?? 'once';
  const on = params.get('on') ?? defaultEvent;
  const save = root.querySelector('#save');
  const del = root.querySelector('#delete');
  const swap = () => {
    const left = save.style.left;
    save.style.left = del.style.left;
    del.style.left = left;
    record.swaps++;
  };
  const delay = params.get('delay');
  let pending = false;
  root.addEventListener(on, () => {
    if (pending || !(when === 'always' || (when === 'once' && record.swaps === 0))) return;
    if (delay === null) {
      swap();
      return;
    }
    pending = true;
    setTimeout(() => {
      pending = false;
      swap();
    }, Number(delay));
  }, true);
  root.querySelector('#bar')?.addEventListener('mouseenter', () => record.enters.push('bar'));
  for (const button of [save, del]) {
    button.addEventListener('click', () => record.clicks.push(button.id));
    button.addEventListener('pointerup', () => record.ups.push(button.id));
    button.addEventListener('mouseup', () => record.ups.push(button.id));
    button.addEventListener('mouseover', () => record.hovers.push(button.id));
  }
}
