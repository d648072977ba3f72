// Headless UI (@headlessui/react 2.2.10), Tailwind-like styles: a "Ship order" form with its
// Assignee combobox OPEN (static options list, an active and a disabled option), a listbox
// button, radio group, switch, disclosure panels (one open) and tabs.
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { Combobox, ComboboxInput, ComboboxButton, ComboboxOptions, ComboboxOption, Listbox, ListboxButton,
  RadioGroup, Radio, Switch, Field, Label, Disclosure, DisclosureButton, DisclosurePanel, TabGroup, TabList, Tab,
  TabPanels, TabPanel, Checkbox, Input, Textarea } from "@headlessui/react";
import { ready } from "./lib/ready.js";

const people = [
  { id: 1, name: "Wade Cooper" }, { id: 2, name: "Arlene McCoy" }, { id: 3, name: "Devon Webb", disabled: true },
  { id: 4, name: "Tom Cook" }, { id: 5, name: "Tanya Fox" }, { id: 6, name: "Hellen Schmidt" },
];

function App() {
  const [person, setPerson] = useState(people[1]);
  const [plan, setPlan] = useState("express");
  const [on, setOn] = useState(true);
  const [gift, setGift] = useState(false);
  useEffect(() => ready(200), []);
  return (
    <div className="page">
      <h1>Ship order #4821</h1>
      <TabGroup defaultIndex={0}>
        <TabList className="tabs"><Tab className="tab">Shipping</Tab><Tab className="tab">Items (3)</Tab><Tab className="tab" disabled>Returns</Tab></TabList>
        <TabPanels><TabPanel>
          <div className="grid">
            <div>
              <Field className="field"><Label>Assignee</Label>
                <Combobox value={person} onChange={setPerson} by="id">
                  <div className="cb">
                    <ComboboxInput className="input" displayValue={p => p?.name} defaultValue="" />
                    <ComboboxButton className="cb-btn" aria-label="Show people">▾</ComboboxButton>
                  </div>
                  <ComboboxOptions static className="options">
                    {people.map(p => <ComboboxOption key={p.id} value={p} disabled={p.disabled} className="option">{p.name}</ComboboxOption>)}
                  </ComboboxOptions>
                </Combobox>
              </Field>
              <Field className="field"><Label>Tracking note</Label><Textarea className="input" rows={2} defaultValue="Leave at reception." /></Field>
            </div>
            <div>
              <Field className="field"><Label>Carrier</Label>
                <Listbox defaultValue="DHL"><ListboxButton className="input left">DHL Express ▾</ListboxButton></Listbox>
              </Field>
              <Field className="field"><Label>Reference</Label><Input className="input" defaultValue="PO-2024-0311" disabled /></Field>
              <div className="lbl" id="speed">Speed</div>
              <RadioGroup value={plan} onChange={setPlan} className="radios" aria-labelledby="speed">
                {[["standard", "Standard · 5 days"], ["express", "Express · 2 days"], ["overnight", "Overnight"]].map(([v, l]) => (
                  <Field key={v} className="radio-row" disabled={v === "overnight"}><Radio value={v} className="radio" /><Label>{l}</Label></Field>))}
              </RadioGroup>
              <Field className="switch-row"><Switch checked={on} onChange={setOn} className="switch"><span className="knob" /></Switch><Label>Notify customer by SMS</Label></Field>
              <Field className="switch-row"><Checkbox checked={gift} onChange={setGift} className="check" /><Label>Gift wrap</Label></Field>
            </div>
          </div>
        </TabPanel></TabPanels>
      </TabGroup>
      <div className="disclosures">
        <Disclosure defaultOpen><DisclosureButton className="disc">Delivery address ▴</DisclosureButton>
          <DisclosurePanel className="panel">Rua Augusta 120, 1100-053 Lisboa, Portugal · <a href="#">Edit</a></DisclosurePanel></Disclosure>
        <Disclosure><DisclosureButton className="disc">Customs information ▾</DisclosureButton><DisclosurePanel className="panel">HS codes</DisclosurePanel></Disclosure>
      </div>
      <div className="actions"><button className="btn">Cancel</button><button className="btn primary">Create shipment</button></div>
    </div>
  );
}
createRoot(document.getElementById("root")).render(<App />);
