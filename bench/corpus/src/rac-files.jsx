// React Aria Components (react-aria-components 1.22.1): a file manager: a folder tree (some
// folders expanded), a toolbar of icon-only buttons and a toggle button, breadcrumbs, a search
// field, and a sortable table with multiple selection (checkboxes) and per-row menu buttons.
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { Tree, TreeItem, TreeItemContent, Button, Toolbar, ToggleButton, Group, Separator, Breadcrumbs, Breadcrumb, Link,
  SearchField, Input, Label, Table, TableHeader, Column, TableBody, Row, Cell, Checkbox, ResizableTableContainer } from "react-aria-components";
import { ready } from "./lib/ready.js";

const I = ({ d }) => <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d={d} /></svg>;
const Box = () => <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 12l5 5L20 6" stroke="currentColor" strokeWidth="3" fill="none" /></svg>;

function Item({ id, title, children }) {
  return (
    <TreeItem id={id} textValue={title} className="titem">
      <TreeItemContent>{({ hasChildItems }) => <div className="trow">
        {hasChildItems ? <Button slot="chevron" className="chev">▸</Button> : <span className="chev" />}<svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h7l2 2h9v11H3z" fill="#9ca3af" /></svg> {title}</div>}</TreeItemContent>
      {children}
    </TreeItem>
  );
}
const files = [
  ["Budget 2024.xlsx", "Spreadsheet", "84 KB", "2024-03-11"], ["Brand guidelines.pdf", "PDF", "4.2 MB", "2024-03-08"],
  ["Kickoff notes.md", "Markdown", "6 KB", "2024-03-07"], ["Logo final.svg", "Image", "12 KB", "2024-03-05"],
  ["Roadmap.key", "Presentation", "18.9 MB", "2024-02-28"], ["Contract – Globex.pdf", "PDF", "311 KB", "2024-02-20"],
  ["Interview recordings", "Folder", "—", "2024-02-18"], ["Invoice 0042.pdf", "PDF", "96 KB", "2024-02-02"],
];

function App() {
  useEffect(() => ready(200), []);
  return (
    <div className="app">
      <aside>
        <h2>Drive</h2>
        <Tree aria-label="Folders" selectionMode="single" defaultSelectedKeys={["q1"]} defaultExpandedKeys={["work", "projects"]} className="tree">
          <Item id="work" title="Work">
            <Item id="projects" title="Projects"><Item id="q1" title="Q1 launch" /><Item id="website" title="Website" /><Item id="mobile" title="Mobile app" /></Item>
            <Item id="hr" title="HR"><Item id="hiring" title="Hiring" /></Item>
            <Item id="finance" title="Finance" />
          </Item>
          <Item id="personal" title="Personal"><Item id="photos" title="Photos" /></Item>
          <Item id="shared" title="Shared with me" />
        </Tree>
      </aside>
      <main>
        <div className="bar">
          <Breadcrumbs className="crumbs"><Breadcrumb><Link href="#">Work</Link></Breadcrumb><Breadcrumb><Link href="#">Projects</Link></Breadcrumb><Breadcrumb>Q1 launch</Breadcrumb></Breadcrumbs>
          <SearchField className="search" defaultValue=""><Label className="sr">Search files</Label><Input placeholder="Search files" /><Button className="clear">✕</Button></SearchField>
        </div>
        <Toolbar aria-label="File actions" className="toolbar">
          <Group aria-label="Create" className="tgroup">
            <Button aria-label="New folder" className="ibtn"><I d="M3 7h6l2 2h10v10H3zM12 12v5M9.5 14.5h5" /></Button>
            <Button aria-label="Upload" className="ibtn"><I d="M12 16V4M7 9l5-5 5 5M4 20h16" /></Button>
          </Group>
          <Separator orientation="vertical" className="vsep" />
          <Group aria-label="Selection" className="tgroup">
            <Button aria-label="Download" className="ibtn"><I d="M12 4v12M7 11l5 5 5-5M4 20h16" /></Button>
            <Button aria-label="Share" className="ibtn"><I d="M4 12v8h16v-8M12 3v13M8 7l4-4 4 4" /></Button>
            <Button aria-label="Delete" className="ibtn" isDisabled><I d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" /></Button>
          </Group>
          <Separator orientation="vertical" className="vsep" />
          <ToggleButton aria-label="Grid view" className="ibtn" defaultSelected={false}><I d="M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z" /></ToggleButton>
          <ToggleButton aria-label="Show details" className="ibtn" defaultSelected><I d="M12 8v0M12 11v6M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z" /></ToggleButton>
        </Toolbar>
        <ResizableTableContainer className="tablewrap">
        <Table aria-label="Files" selectionMode="multiple" defaultSelectedKeys={["Budget 2024.xlsx"]} sortDescriptor={{ column: "modified", direction: "descending" }} className="table">
          <TableHeader>
            <Column className="col check"><Checkbox slot="selection" className="cb"><Box /></Checkbox></Column>
            <Column id="name" isRowHeader allowsSorting className="col">Name</Column>
            <Column id="kind" allowsSorting className="col">Kind</Column>
            <Column id="size" allowsSorting className="col">Size</Column>
            <Column id="modified" allowsSorting className="col">Modified ▾</Column>
            <Column className="col"><span className="sr">Actions</span></Column>
          </TableHeader>
          <TableBody>
            {files.map(([n, k, s, m]) => (
              <Row key={n} id={n} className="row">
                <Cell><Checkbox slot="selection" className="cb"><Box /></Checkbox></Cell>
                <Cell>{n}</Cell><Cell>{k}</Cell><Cell>{s}</Cell><Cell>{m}</Cell>
                <Cell><Button aria-label={`More actions for ${n}`} className="ibtn">⋯</Button></Cell>
              </Row>))}
          </TableBody>
        </Table>
        </ResizableTableContainer>
      </main>
    </div>
  );
}
createRoot(document.getElementById("root")).render(<App />);
