// The `upload` action: sets files on a file input, or on the file chooser a
// click opens (see upload below); the browser reads the files, from the
// paths the front checked (host/tabsight/uploads.py).

import { onEvent, send, withDebugger } from '../cdp.js';
import { Code, TabsightError, badRequest } from '../errors.js';
import { inPage, inPageIfLoaded } from '../page-library-calls.js';
import { MAX_UPLOAD_FILES } from '../limits.js';
import { LEFT_CLICK } from './input-events.js';
import { aimAndPress } from './pointer.js';
import { targetName, viewportParam } from './targets.js';
import { abortable, exclusive, within } from './waits.js';

// This family's row of act.js's table (see POINTER_ACTIONS in pointer.js).
export const UPLOAD_ACTIONS = { upload: { handler: uploadAction } };

async function uploadAction(tabId, { selector, point }, params, signal) {
  if (!selector && !point) throw badRequest('upload needs a target: label, selector, or x and y');
  const files = filesParam(params);
  const viewport = viewportParam(params);
  return exclusive(tabId, () => withDebugger(tabId, () => upload(tabId, selector, point, files, viewport, signal)));
}

// upload: the files go to the target's <input type=file> (or its <label>'s)
// directly, by DOM.setFileInputFiles, hidden or not, as the page's own
// button would have put them there. Any other target (a button, a drop
// zone, a point) is clicked as click does, guarded, with file choosers
// intercepted (Page.setInterceptFileChooserDialog): the chooser the click
// opens never shows, it comes back as Page.fileChooserOpened, naming its
// input, and the files are set on that. Either way the page gets its input
// and change events (trusted) as from a chooser, and what the input holds
// then is read back. Interception is switched off again whatever happens.
// (Chromium 156 takes DOM.setFileInputFiles from an extension's debugger
// directly, chooser or not, if the extension has file access: an unpacked
// extension has it unless the user turned it off.)
async function upload(tabId, selector, point, files, viewport, signal) {
  signal?.throwIfAborted(); // cancelled while it waited its turn
  if (!(await chrome.extension.isAllowedFileSchemeAccess())) {
    throw new TabsightError(Code.NO_FILE_ACCESS, 'The browser gives files to the debugger of an extension allowed ' +
      'file access only, and tabsight\'s is not: its "Allow access to file URLs" is off');
  }
  const input = selector ? await abortable(inPage(tabId, 'markFileInput', selector), signal) : { mark: null };
  if (input.error) throw new TabsightError(input.error, input.message);
  if (!input.mark) return uploadThroughChooser(tabId, selector, point, files, viewport, signal);
  let backendNodeId;
  try {
    if (!input.multiple && files.length > 1) {
      throw badRequest(`${targetName(selector)} (an <input type=file> without multiple) takes one file, not ${files.length}`);
    }
    backendNodeId = await markedNode(tabId, input.mark, signal);
  } finally {
    await inPageIfLoaded(tabId, 'unmarkFileInput');
  }
  const held = await setFiles(tabId, backendNodeId, files, signal);
  return { did: `set ${filesCount(files)} on the file input`, target: input.target, via: 'input', ...held };
}

async function uploadThroughChooser(tabId, selector, point, files, viewport, signal) {
  let opened = null;
  const chooser = new Promise((resolve) => { opened = resolve; });
  const stopListening = onEvent(tabId, (method, event) => {
    if (method === 'Page.fileChooserOpened') opened(event);
  });
  try {
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true }, signal);
    const { did, ...clicked } = await aimAndPress(tabId, 'click', selector, point, viewport, LEFT_CLICK, signal);
    const event = await abortable(within(chooser, CHOOSER_WAIT_MS), signal);
    const named = selector ? targetName(selector) : `(${Math.round(point.x)}, ${Math.round(point.y)})`;
    if (!event) {
      throw badRequest(`The click on ${named} opened no file chooser within ${CHOOSER_WAIT_MS} ms (${did}); ` +
        'target the <input type=file> itself, or the button or drop zone that opens it');
    }
    // (the protocol names the input of every chooser that has one)
    if (event.backendNodeId === undefined) {
      throw badRequest(`The click on ${named} opened a file chooser of no <input type=file>: upload cannot answer it`);
    }
    if (event.mode === 'selectSingle' && files.length > 1) {
      throw badRequest(`The file chooser the click on ${named} opened takes one file, not ${files.length}`);
    }
    const held = await setFiles(tabId, event.backendNodeId, files, signal);
    return { did: `${did}, and set ${filesCount(files)} on the file chooser it opened`, ...clicked, via: 'chooser', ...held };
  } finally {
    stopListening();
    await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => {});
  }
}

// How long a click may take to open its chooser (a page may open it after
// a step of its own; the click's user activation lasts 5 s).
const CHOOSER_WAIT_MS = 1500;
// The group of the debugger's handles on the input (released after the read).
const UPLOAD_OBJECTS = 'tabsight-upload';

const filesCount = (files) => (files.length === 1 ? '1 file' : `${files.length} files`);

// The backend node of the element the page side marked (page-library/act.js
// markFileInput: its attribute UPLOAD_MARK).
async function markedNode(tabId, mark, signal) {
  await send(tabId, 'DOM.getDocument', { depth: 0 }, signal);
  try {
    const query = `[data-tabsight-upload="${mark}"]`;
    const { searchId, resultCount } = await send(tabId, 'DOM.performSearch', { query }, signal);
    try {
      if (resultCount !== 1) {
        throw new TabsightError(Code.ELEMENT_NOT_FOUND, 'The file input went from the page before its files could be set');
      }
      const { nodeIds } = await send(tabId, 'DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: 1 }, signal);
      const { node } = await send(tabId, 'DOM.describeNode', { nodeId: nodeIds[0] }, signal);
      return node.backendNodeId;
    } finally {
      send(tabId, 'DOM.discardSearchResults', { searchId }).catch(() => {});
    }
  } finally {
    // DOM.getDocument switched the DOM domain on: off again, or it reports every change of the page while attached
    send(tabId, 'DOM.disable').catch(() => {});
  }
}

// Sets the files on the input, and reads back what it holds then
// ({input_files: [{name, size}]}; a page that takes the files and empties
// its input shows none).
async function setFiles(tabId, backendNodeId, files, signal) {
  await send(tabId, 'DOM.setFileInputFiles', { files, backendNodeId }, signal);
  try {
    const { object } = await send(tabId, 'DOM.resolveNode', { backendNodeId, objectGroup: UPLOAD_OBJECTS }, signal);
    const { result } = await send(tabId, 'Runtime.callFunctionOn',
      { objectId: object.objectId, functionDeclaration: heldFiles.toString(), returnByValue: true }, signal);
    return { input_files: Array.isArray(result.value) ? result.value : null };
  } finally {
    send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: UPLOAD_OBJECTS }).catch(() => {});
  }
}

// Run on the input, in the page: the files it holds.
function heldFiles() {
  return Array.from(this.files ?? [], (file) => ({ name: file.name, size: file.size }));
}

// The files an upload sets: absolute paths, which the front has checked
// against its allowed folders (host/tabsight/uploads.py).
function filesParam(params) {
  const { files } = params;
  const absolute = (path) => typeof path === 'string' && (path.startsWith('/') || /^[A-Za-z]:[\\/]|^\\\\/.test(path));
  if (!Array.isArray(files) || files.length < 1 || files.length > MAX_UPLOAD_FILES || !files.every(absolute)) {
    throw badRequest(`Invalid files: ${JSON.stringify(files)?.slice(0, 200)} (allowed: 1 to ${MAX_UPLOAD_FILES} absolute paths)`);
  }
  return files;
}
