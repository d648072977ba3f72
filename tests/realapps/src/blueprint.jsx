// Blueprint 6 (@blueprintjs/core on React 18.3): bundled by build.mjs for unseen/blueprint.html. A
// file Tree whose folders expand and collapse by their carets (spans with no role); then
// window.pageReady.
import {useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Tree} from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';

const initial = [
  {id: 'src', label: 'src', icon: 'folder-close', hasCaret: true, isExpanded: false, childNodes: [
    {id: 'app', label: 'app.tsx', icon: 'document'},
    {id: 'index', label: 'index.ts', icon: 'document'},
  ]},
  {id: 'docs', label: 'docs', icon: 'folder-close', hasCaret: true, isExpanded: false, childNodes: [
    {id: 'guide', label: 'guide.md', icon: 'document'},
  ]},
  {id: 'tests', label: 'tests', icon: 'folder-close', hasCaret: true, isExpanded: false, childNodes: [
    {id: 'unit', label: 'unit.test.ts', icon: 'document'},
  ]},
  {id: 'readme', label: 'README.md', icon: 'document'},
];

const setExpanded = (nodes, id, isExpanded) => nodes.map((node) => ({
  ...node,
  ...(node.id === id ? {isExpanded, icon: isExpanded ? 'folder-open' : 'folder-close'} : {}),
  ...(node.childNodes ? {childNodes: setExpanded(node.childNodes, id, isExpanded)} : {}),
}));

function Files() {
  const [nodes, setNodes] = useState(initial);
  return (
    <Tree
      contents={nodes}
      onNodeExpand={(node) => setNodes((now) => setExpanded(now, node.id, true))}
      onNodeCollapse={(node) => setNodes((now) => setExpanded(now, node.id, false))}
    />
  );
}

createRoot(document.getElementById('app')).render(<Files />);
requestAnimationFrame(() => requestAnimationFrame(() => { window.pageReady = true; }));
