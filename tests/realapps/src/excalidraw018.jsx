// Excalidraw 0.18 (npm alias excalidraw018), an ES-module-only package: bundled by build.mjs for
// unseen/excalidraw018.html. A rectangle is drawn and selected once the app is up, so the
// properties panel (stroke, background, fill, stroke width...) shows; then window.pageReady.
import {createRoot} from 'react-dom/client';
import {Excalidraw, convertToExcalidrawElements} from 'excalidraw018';
import 'excalidraw018/index.css';

const elements = convertToExcalidrawElements([
  {type: 'rectangle', id: 'box', x: 420, y: 260, width: 220, height: 120, backgroundColor: '#a5d8ff'},
]);

function whenShown(test, then) {
  if (test()) then(); else requestAnimationFrame(() => whenShown(test, then));
}

function ready(api) {
  if (!api || window.excalidrawAPI) return;
  window.excalidrawAPI = api;
  // selected once the scene is in (the initial data's appState is not kept), until the panel shows
  const select = () => {
    const box = api.getSceneElements().find((element) => element.type === 'rectangle');
    if (!api.getAppState().selectedElementIds[box.id]) api.updateScene({appState: {selectedElementIds: {[box.id]: true}}});
    return document.querySelector('.App-menu__left');
  };
  whenShown(() => api.getSceneElements().length && select(), () => { window.pageReady = true; });
}

createRoot(document.getElementById('app')).render(
  <Excalidraw initialData={{elements, appState: {viewBackgroundColor: '#ffffff'}}} excalidrawAPI={ready} />,
);
