// React Aria Components (react-aria-components 1.22.1): an event form with its Date picker
// OPEN (popover calendar, March 2024, 2024-03-14 picked), plus segmented date fields, number
// field, select, radio group, slider, switch, checkbox and a disabled text field.
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { parseDate } from "@internationalized/date";
import { DatePicker, DateInput, DateSegment, Group, Button, Popover, Dialog, Calendar, CalendarGrid, CalendarCell, Heading, Label,
  NumberField, Input, Select, SelectValue, ListBox, ListBoxItem, RadioGroup, Radio, Slider, SliderTrack, SliderThumb, SliderOutput, Switch,
  Checkbox, TextField, TimeField, Form } from "react-aria-components";
import { ready } from "./lib/ready.js";

function App() {
  useEffect(() => ready(300), []);
  return (
    <div className="page">
      <h1>New event</h1>
      <Form className="form">
        <TextField className="field" defaultValue="Design review"><Label>Title</Label><Input /></TextField>
        <TextField className="field" defaultValue="Room 4.12" isDisabled><Label>Location (from calendar)</Label><Input /></TextField>
        <DatePicker className="field" defaultValue={parseDate("2024-03-14")} defaultOpen>
          <Label>Date</Label>
          <Group className="dgroup"><DateInput className="dinput">{s => <DateSegment segment={s} className="seg" />}</DateInput><Button className="ibtn">▾</Button></Group>
          <Popover className="popover" placement="bottom start">
            <Dialog className="dialog" aria-label="Choose date">
              <Calendar>
                <header className="calhead"><Button slot="previous" className="ibtn">◀</Button><Heading /><Button slot="next" className="ibtn">▶</Button></header>
                <CalendarGrid className="grid">{d => <CalendarCell date={d} className="cell" />}</CalendarGrid>
              </Calendar>
            </Dialog>
          </Popover>
        </DatePicker>
        <TimeField className="field" defaultValue={null}><Label>Start time</Label><DateInput className="dinput">{s => <DateSegment segment={s} className="seg" />}</DateInput></TimeField>
        <NumberField className="field" defaultValue={45} minValue={15} step={15}><Label>Duration (min)</Label>
          <Group className="dgroup"><Button slot="decrement" className="ibtn">−</Button><Input /><Button slot="increment" className="ibtn">+</Button></Group></NumberField>
        <Select className="field" defaultSelectedKey="team"><Label>Visibility</Label><Button className="selbtn"><SelectValue /> ▾</Button>
          <Popover><ListBox><ListBoxItem id="me">Only me</ListBoxItem><ListBoxItem id="team">Team</ListBoxItem></ListBox></Popover></Select>
        <RadioGroup className="field" defaultValue="video"><Label>Format</Label>
          <div className="radios"><Radio value="room" className="radio">In person</Radio><Radio value="video" className="radio">Video call</Radio><Radio value="phone" className="radio" isDisabled>Phone</Radio></div></RadioGroup>
        <Slider className="field" defaultValue={6}><Label>Attendees</Label><SliderOutput /><SliderTrack className="track"><SliderThumb className="thumb" /></SliderTrack></Slider>
        <Switch className="sw" defaultSelected><div className="swtrack" />Send invitations</Switch>
        <Checkbox className="chk"><div className="box" />Repeat weekly</Checkbox>
        <div className="actions"><Button className="btn">Cancel</Button><Button type="submit" className="btn primary">Save</Button></div>
      </Form>
    </div>
  );
}
createRoot(document.getElementById("root")).render(<App />);
