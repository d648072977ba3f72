// Radix UI primitives (radix-ui 1.8.1), styled shadcn-like: a team members list under an OPEN
// MODAL "Invite member" dialog (text fields, radio group, checkbox, slider, select trigger,
// switch, close icon button, Cancel/Send).
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { Dialog, Checkbox, RadioGroup, Slider, Select, Switch, Label, Avatar, DropdownMenu } from "radix-ui";
import { ready } from "./lib/ready.js";

const people = [["Olivia Martin", "olivia@acme.test", "Owner"], ["Jackson Lee", "jackson@acme.test", "Member"], ["Isabella Nguyen", "isabella@acme.test", "Member"],
  ["William Kim", "will@acme.test", "Billing"], ["Sofia Davis", "sofia@acme.test", "Member"], ["Lucas Brown", "lucas@acme.test", "Viewer"]];

function App() {
  useEffect(() => ready(200), []);
  return (
    <>
      <header className="top"><strong>Acme workspace</strong><div style={{ flex: 1 }} /><button className="primary">Invite member</button></header>
      <div className="list">
        {people.map(([n, e, r]) => (
          <div className="list-row" key={e}>
            <Avatar.Root className="avatar"><Avatar.Fallback>{n.split(" ").map(w => w[0]).join("")}</Avatar.Fallback></Avatar.Root>
            <div style={{ flex: 1 }}><div>{n}</div><a href="#" style={{ color: "#71717a" }}>{e}</a></div>
            <button className="secondary">{r} ▾</button>
            <button className="tbtn" aria-label={`remove ${n}`}>✕</button>
          </div>
        ))}
      </div>
      <Dialog.Root defaultOpen>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title style={{ margin: 0 }}>Invite a team member</Dialog.Title>
            <Dialog.Description style={{ color: "#71717a" }}>They will get an e-mail with a link to join.</Dialog.Description>
            <div className="field"><Label.Root htmlFor="email">E-mail</Label.Root><input id="email" defaultValue="noah@acme.test" /></div>
            <div className="field"><Label.Root htmlFor="msg">Message</Label.Root><textarea id="msg" rows={2} defaultValue="Welcome aboard!" /></div>
            <Label.Root>Role</Label.Root>
            <RadioGroup.Root defaultValue="member" className="row" aria-label="Role">
              {["admin", "member", "viewer"].map(v => (
                <span key={v} className="row" style={{ margin: 0 }}>
                  <RadioGroup.Item className="radio-item" value={v} id={`r-${v}`} disabled={v === "admin"} />
                  <Label.Root htmlFor={`r-${v}`}>{v[0].toUpperCase() + v.slice(1)}</Label.Root>
                </span>))}
            </RadioGroup.Root>
            <div className="row"><Label.Root>Team</Label.Root>
              <Select.Root defaultValue="design"><Select.Trigger className="select-trigger" aria-label="Team"><Select.Value /><Select.Icon>▾</Select.Icon></Select.Trigger>
                <Select.Portal><Select.Content><Select.Viewport>
                  <Select.Item value="design"><Select.ItemText>Design</Select.ItemText></Select.Item>
                  <Select.Item value="eng"><Select.ItemText>Engineering</Select.ItemText></Select.Item>
                </Select.Viewport></Select.Content></Select.Portal></Select.Root>
            </div>
            <div className="row"><Label.Root>Seats</Label.Root>
              <Slider.Root className="slider" defaultValue={[3]} max={10} step={1}><Slider.Track className="track"><Slider.Range className="range" /></Slider.Track><Slider.Thumb className="sthumb" aria-label="Seats" /></Slider.Root></div>
            <div className="row"><Checkbox.Root className="checkbox" id="notify" defaultChecked><Checkbox.Indicator>✓</Checkbox.Indicator></Checkbox.Root><Label.Root htmlFor="notify">Notify the team</Label.Root></div>
            <div className="row"><Switch.Root className="switch" id="sso"><Switch.Thumb className="thumb" /></Switch.Root><Label.Root htmlFor="sso">Require SSO</Label.Root></div>
            <div className="row" style={{ justifyContent: "flex-end" }}>
              <Dialog.Close asChild><button className="secondary">Cancel</button></Dialog.Close>
              <button className="primary">Send invite</button>
            </div>
            <Dialog.Close asChild><button className="close" aria-label="Close">✕</button></Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
createRoot(document.getElementById("root")).render(<App />);
