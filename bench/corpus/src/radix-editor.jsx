// Radix UI primitives (radix-ui 1.8.1), styled shadcn-like: a document editor with a formatting
// toolbar (toggle groups of icon-only buttons, a separator, a link), tabs, and its "File"
// dropdown menu OPEN with checkbox and radio items, a submenu trigger and a disabled item.
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { DropdownMenu, Toolbar, Tabs, Tooltip, Avatar, Switch, Label } from "radix-ui";
import { ready } from "./lib/ready.js";

const I = ({ d }) => <svg width="15" height="15" viewBox="0 0 15 15" fill="currentColor" aria-hidden="true"><path d={d} /></svg>;
const BOLD = "M4 2h4.5a3 3 0 0 1 2 5.2A3.2 3.2 0 0 1 9 13H4zm2 2v3h2.5a1.5 1.5 0 0 0 0-3zm0 5v2h3a1 1 0 0 0 0-2z";
const ITALIC = "M6 2h6v2H9.7l-2 7H10v2H4v-2h2.3l2-7H6z";
const UNDER = "M4 2h2v5a1.5 1.5 0 0 0 3 0V2h2v5a3.5 3.5 0 0 1-7 0zm-1 10h9v1.5H3z";
const LEFT = "M2 3h11v1.5H2zm0 3h7v1.5H2zm0 3h11v1.5H2zm0 3h7v1.5H2z";
const CENTER = "M2 3h11v1.5H2zm2 3h7v1.5H4zm-2 3h11v1.5H2zm2 3h7v1.5H4z";
const RIGHT = "M2 3h11v1.5H2zm4 3h7v1.5H6zM2 9h11v1.5H2zm4 3h7v1.5H6z";

function App() {
  useEffect(() => ready(200), []);
  return (
    <Tooltip.Provider>
      <header className="top">
        <strong>Quarterly report.docx</strong>
        <nav className="menubar">
          <DropdownMenu.Root defaultOpen modal={false}>
            <DropdownMenu.Trigger className="menu-trigger">File</DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
                <DropdownMenu.Item className="item">New document <span className="kbd">Ctrl+N</span></DropdownMenu.Item>
                <DropdownMenu.Item className="item">Open… <span className="kbd">Ctrl+O</span></DropdownMenu.Item>
                <DropdownMenu.Sub>
                  <DropdownMenu.SubTrigger className="item">Open recent ›</DropdownMenu.SubTrigger>
                  <DropdownMenu.Portal><DropdownMenu.SubContent className="menu"><DropdownMenu.Item className="item">Budget 2024</DropdownMenu.Item></DropdownMenu.SubContent></DropdownMenu.Portal>
                </DropdownMenu.Sub>
                <DropdownMenu.Separator className="sep" />
                <DropdownMenu.CheckboxItem className="item" checked>✓ Autosave</DropdownMenu.CheckboxItem>
                <DropdownMenu.CheckboxItem className="item" checked={false}>Show word count</DropdownMenu.CheckboxItem>
                <DropdownMenu.Separator className="sep" />
                <DropdownMenu.Label className="label">Page size</DropdownMenu.Label>
                <DropdownMenu.RadioGroup value="a4">
                  <DropdownMenu.RadioItem className="item" value="a4">● A4</DropdownMenu.RadioItem>
                  <DropdownMenu.RadioItem className="item" value="letter">Letter</DropdownMenu.RadioItem>
                </DropdownMenu.RadioGroup>
                <DropdownMenu.Separator className="sep" />
                <DropdownMenu.Item className="item" disabled>Export as PDF (Pro)</DropdownMenu.Item>
                <DropdownMenu.Item className="item">Print… <span className="kbd">Ctrl+P</span></DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
          {["Edit", "View", "Insert", "Format"].map(m => <button key={m} className="menu-trigger">{m}</button>)}
        </nav>
        <div style={{ flex: 1 }} />
        <Label.Root className="switch-label" htmlFor="share">Shared</Label.Root>
        <Switch.Root className="switch" id="share" defaultChecked><Switch.Thumb className="thumb" /></Switch.Root>
        <Avatar.Root className="avatar"><Avatar.Fallback>RS</Avatar.Fallback></Avatar.Root>
        <button className="primary">Share</button>
      </header>
      <Toolbar.Root className="toolbar" aria-label="Formatting options">
        <Toolbar.ToggleGroup type="multiple" defaultValue={["bold"]} aria-label="Text formatting">
          <Toolbar.ToggleItem className="tbtn" value="bold" aria-label="Bold"><I d={BOLD} /></Toolbar.ToggleItem>
          <Toolbar.ToggleItem className="tbtn" value="italic" aria-label="Italic"><I d={ITALIC} /></Toolbar.ToggleItem>
          <Toolbar.ToggleItem className="tbtn" value="underline" aria-label="Underline"><I d={UNDER} /></Toolbar.ToggleItem>
        </Toolbar.ToggleGroup>
        <Toolbar.Separator className="tsep" />
        <Toolbar.ToggleGroup type="single" defaultValue="left" aria-label="Text alignment">
          <Toolbar.ToggleItem className="tbtn" value="left" aria-label="Align left"><I d={LEFT} /></Toolbar.ToggleItem>
          <Toolbar.ToggleItem className="tbtn" value="center" aria-label="Align center"><I d={CENTER} /></Toolbar.ToggleItem>
          <Toolbar.ToggleItem className="tbtn" value="right" aria-label="Align right"><I d={RIGHT} /></Toolbar.ToggleItem>
        </Toolbar.ToggleGroup>
        <Toolbar.Separator className="tsep" />
        <Toolbar.Link className="tlink" href="#">Edited 2 minutes ago</Toolbar.Link>
        <Toolbar.Button className="tbtn wide" disabled>Undo</Toolbar.Button>
        <Toolbar.Button className="tbtn wide">Redo</Toolbar.Button>
      </Toolbar.Root>
      <Tabs.Root className="tabs" defaultValue="doc">
        <Tabs.List className="tablist" aria-label="Views">
          <Tabs.Trigger className="tab" value="doc">Document</Tabs.Trigger>
          <Tabs.Trigger className="tab" value="comments">Comments (3)</Tabs.Trigger>
          <Tabs.Trigger className="tab" value="history" disabled>History</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="doc" className="doc">
          <h1>Q1 2024 report</h1>
          <p><b>Revenue</b> grew 14% quarter over quarter, led by the <a href="#">EMEA region</a>. Churn fell to 2.1%.</p>
          <p>Headcount stayed flat at 212. The hiring plan for Q2 is in the <a href="#">appendix</a>.</p>
        </Tabs.Content>
      </Tabs.Root>
    </Tooltip.Provider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
