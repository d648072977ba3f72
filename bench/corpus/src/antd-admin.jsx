// Ant Design (antd 6.6.8): an admin "Orders" page (sider menu with a submenu open, header with
// search and icon buttons, breadcrumb, filters, a table with row selection, sorters, tags,
// row actions and pagination) with the header's user dropdown OPEN. Motion off (theme token).
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { ConfigProvider, Layout, Menu, Dropdown, Avatar, Badge, Button, Input, Breadcrumb, Table, Tag, Space, Select, Segmented, Typography } from "antd";
import { DashboardOutlined, ShoppingCartOutlined, UserOutlined, SettingOutlined, BellOutlined, QuestionCircleOutlined,
  AppstoreOutlined, LogoutOutlined, EditOutlined, DeleteOutlined, MoreOutlined, ReloadOutlined, DownloadOutlined } from "@ant-design/icons";
import { ready } from "./lib/ready.js";

const { Header, Sider, Content } = Layout;
const data = Array.from({ length: 10 }, (_, i) => ({
  key: i, order: `#SO-${20240 + i}`, customer: ["Mia Chen", "Liam Patel", "Noah Kim", "Emma Rossi", "Ava Novak"][i % 5],
  total: 49.9 + i * 17.35, status: ["paid", "shipped", "pending", "refunded"][i % 4], date: `2024-03-${String(1 + i).padStart(2, "0")}`,
}));
const colour = { paid: "green", shipped: "blue", pending: "gold", refunded: "volcano" };
const columns = [
  { title: "Order", dataIndex: "order", render: t => <a href="#">{t}</a> },
  { title: "Customer", dataIndex: "customer", sorter: (a, b) => a.customer.localeCompare(b.customer) },
  { title: "Date", dataIndex: "date", sorter: (a, b) => a.date.localeCompare(b.date), defaultSortOrder: "descend" },
  { title: "Total", dataIndex: "total", align: "right", sorter: (a, b) => a.total - b.total, render: v => `$${v.toFixed(2)}` },
  { title: "Status", dataIndex: "status", filters: Object.keys(colour).map(s => ({ text: s, value: s })), onFilter: (v, r) => r.status === v,
    render: s => <Tag color={colour[s]}>{s}</Tag> },
  { title: "", key: "actions", render: (_, r) => <Space>
      <Button type="text" icon={<EditOutlined />} aria-label={`edit ${r.order}`} />
      <Button type="text" danger icon={<DeleteOutlined />} aria-label={`delete ${r.order}`} disabled={r.status === "refunded"} />
      <Button type="text" icon={<MoreOutlined />} aria-label="more" /></Space> },
];

function App() {
  // opened once mounted: a popup open at its first render stays unaligned, off screen
  const [open, setOpen] = useState(false);
  useEffect(() => { setTimeout(() => { setOpen(true); ready(400); }, 100); }, []);
  return (
    <ConfigProvider theme={{ token: { motion: false } }} wave={{ disabled: true }}>
      <Layout style={{ height: "100vh" }}>
        <Sider width={210} theme="dark">
          <div style={{ color: "#fff", fontWeight: 600, padding: "18px 24px" }}>ShopAdmin</div>
          <Menu theme="dark" mode="inline" defaultSelectedKeys={["orders"]} defaultOpenKeys={["sales"]} items={[
            { key: "dash", icon: <DashboardOutlined />, label: "Dashboard" },
            { key: "sales", icon: <ShoppingCartOutlined />, label: "Sales", children: [
              { key: "orders", label: "Orders" }, { key: "returns", label: "Returns" }, { key: "invoices", label: "Invoices" }] },
            { key: "catalog", icon: <AppstoreOutlined />, label: "Catalog", children: [{ key: "products", label: "Products" }] },
            { key: "customers", icon: <UserOutlined />, label: "Customers" },
            { key: "settings", icon: <SettingOutlined />, label: "Settings", disabled: true },
          ]} />
        </Sider>
        <Layout>
          <Header style={{ background: "#fff", display: "flex", alignItems: "center", gap: 16, padding: "0 24px" }}>
            <Input.Search placeholder="Search orders" style={{ width: 300 }} />
            <div style={{ flex: 1 }} />
            <Button type="text" icon={<QuestionCircleOutlined />} aria-label="help" />
            <Badge count={5}><Button type="text" icon={<BellOutlined />} aria-label="notifications" /></Badge>
            <Dropdown open={open} placement="bottomRight" menu={{ items: [
              { key: "profile", icon: <UserOutlined />, label: "My profile" },
              { key: "settings", icon: <SettingOutlined />, label: "Account settings" },
              { key: "team", label: "Switch team", children: [{ key: "t1", label: "Retail" }, { key: "t2", label: "Wholesale" }] },
              { type: "divider" },
              { key: "logout", icon: <LogoutOutlined />, label: "Sign out", danger: true },
            ] }}>
              <a href="#" onClick={e => e.preventDefault()} style={{ display: "flex", alignItems: "center", gap: 8 }}><Avatar icon={<UserOutlined />} /> Jane Doe</a>
            </Dropdown>
          </Header>
          <Content style={{ padding: 24, overflow: "auto" }}>
            <Breadcrumb items={[{ title: <a href="#">Home</a> }, { title: <a href="#">Sales</a> }, { title: "Orders" }]} />
            <Space style={{ margin: "16px 0", width: "100%", justifyContent: "space-between" }}>
              <Space>
                <Segmented options={["All", "Open", "Closed"]} defaultValue="All" />
                <Select defaultValue="30d" style={{ width: 150 }} options={[{ value: "7d", label: "Last 7 days" }, { value: "30d", label: "Last 30 days" }]} />
              </Space>
              <Space>
                <Button icon={<ReloadOutlined />} aria-label="reload" />
                <Button icon={<DownloadOutlined />}>Export</Button>
                <Button type="primary">Create order</Button>
              </Space>
            </Space>
            <Table size="small" rowSelection={{ defaultSelectedRowKeys: [1, 2] }} columns={columns} dataSource={data}
              pagination={{ total: 85, pageSize: 10, showSizeChanger: true }} />
          </Content>
        </Layout>
      </Layout>
    </ConfigProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
