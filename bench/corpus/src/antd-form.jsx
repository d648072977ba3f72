// Ant Design (antd 6.6.8): a "New project" form with its Team select OPEN (multiple-mode
// listbox with a disabled option), plus a cascader, date range, number input, radio buttons,
// switch, slider, checkboxes, upload button and a disabled submit. Motion off (theme token).
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import dayjs from "dayjs";
import { ConfigProvider, Form, Input, Select, Cascader, DatePicker, InputNumber, Radio, Switch, Slider, Checkbox, Upload, Button, Card, Typography, Rate, Steps } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { ready } from "./lib/ready.js";

function App() {
  // opened once mounted: a popup open at its first render stays unaligned, off screen
  const [open, setOpen] = useState(false);
  useEffect(() => { setTimeout(() => { setOpen(true); ready(400); }, 100); }, []);
  return (
    <ConfigProvider theme={{ token: { motion: false } }} wave={{ disabled: true }}>
      <div style={{ padding: 24, background: "#f5f5f5", minHeight: "100vh" }}>
        <Card style={{ maxWidth: 1000, margin: "0 auto" }} title="New project">
          <Steps size="small" current={0} items={[{ title: "Details" }, { title: "Team" }, { title: "Review" }]} style={{ marginBottom: 24 }} />
          <Form layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 16 }}
            initialValues={{ name: "Website relaunch", team: ["ana", "ben"], priority: "high", budget: 12000 }}>
            <Form.Item label="Project name" name="name" rules={[{ required: true }]}><Input /></Form.Item>
            <Form.Item label="Team" name="team">
              <Select mode="multiple" open={open} placeholder="Pick people" options={[
                { value: "ana", label: "Ana Souza" }, { value: "ben", label: "Ben Okafor" }, { value: "chen", label: "Chen Wei" },
                { value: "dana", label: "Dana Levi (on leave)", disabled: true }, { value: "eli", label: "Eli Novak" }, { value: "fay", label: "Fay Moreau" }]} />
            </Form.Item>
            <Form.Item label="Department"><Cascader placeholder="Select department" options={[{ value: "eng", label: "Engineering", children: [{ value: "web", label: "Web" }] }]} /></Form.Item>
            <Form.Item label="Schedule"><DatePicker.RangePicker defaultValue={[dayjs("2024-03-04"), dayjs("2024-05-31")]} /></Form.Item>
            <Form.Item label="Budget (€)" name="budget"><InputNumber min={0} step={500} style={{ width: 180 }} /></Form.Item>
            <Form.Item label="Priority" name="priority"><Radio.Group optionType="button" options={[
              { value: "low", label: "Low" }, { value: "medium", label: "Medium" }, { value: "high", label: "High" }, { value: "urgent", label: "Urgent", disabled: true }]} /></Form.Item>
            <Form.Item label="Public"><Switch defaultChecked /></Form.Item>
            <Form.Item label="Completion"><Slider defaultValue={20} /></Form.Item>
            <Form.Item label="Confidence"><Rate defaultValue={3} /></Form.Item>
            <Form.Item label="Notify"><Checkbox.Group options={["E-mail", "Slack", { label: "SMS", value: "SMS", disabled: true }]} defaultValue={["E-mail"]} /></Form.Item>
            <Form.Item label="Brief"><Upload><Button icon={<UploadOutlined />}>Upload file</Button></Upload></Form.Item>
            <Form.Item wrapperCol={{ offset: 5 }}><Button type="primary" disabled>Create project</Button> <Button>Save draft</Button></Form.Item>
          </Form>
        </Card>
      </div>
    </ConfigProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
