// Chakra UI (@chakra-ui/react 3.38.0): a support-tickets dashboard (stat cards, tabs, a table
// with checkboxes, switches, a native select, icon buttons, pagination) with the "Actions"
// menu OPEN (items, a disabled item, a danger item).
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { ChakraProvider, defaultSystem, Box, Flex, Heading, Text, Button, IconButton, Input, Menu, Portal, Tabs, Table, Badge,
  Checkbox, Switch, NativeSelect, Stat, SimpleGrid, Avatar, Link, ButtonGroup, Pagination } from "@chakra-ui/react";
import { ready } from "./lib/ready.js";

const I = ({ d }) => <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d={d} /></svg>;
const tickets = [
  ["#3012", "Cannot reset password", "Priya S.", "open", "high"], ["#3011", "Invoice shows wrong VAT", "Marco B.", "pending", "medium"],
  ["#3010", "Export to CSV times out", "Lena K.", "open", "high"], ["#3009", "Add SSO for Okta", "Tomás R.", "closed", "low"],
  ["#3008", "Dark mode contrast", "Yuki T.", "open", "low"], ["#3007", "Webhook retries", "Omar F.", "pending", "medium"],
];
const colour = { open: "green", pending: "orange", closed: "gray" };

function App() {
  useEffect(() => ready(400), []);
  return (
    <ChakraProvider value={defaultSystem}>
      <Flex as="header" align="center" gap="3" px="6" py="3" borderBottomWidth="1px">
        <Heading size="md">Helpdesk</Heading>
        <Input placeholder="Search tickets" maxW="320px" size="sm" ml="6" />
        <Box flex="1" />
        <IconButton aria-label="Notifications" variant="ghost" size="sm"><I d="M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9" /></IconButton>
        <IconButton aria-label="Settings" variant="ghost" size="sm"><I d="M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" /></IconButton>
        <Avatar.Root size="sm"><Avatar.Fallback name="Dana Scully" /></Avatar.Root>
      </Flex>
      <Box px="6" py="4">
        <SimpleGrid columns={4} gap="4" mb="4">
          {[["Open", "128"], ["Pending", "42"], ["Solved today", "37"], ["Avg. first reply", "1h 12m"]].map(([l, v]) => (
            <Stat.Root key={l} borderWidth="1px" p="3" rounded="md"><Stat.Label>{l}</Stat.Label><Stat.ValueText>{v}</Stat.ValueText></Stat.Root>))}
        </SimpleGrid>
        <Flex align="center" gap="3" mb="2">
          <Tabs.Root defaultValue="all" variant="line"><Tabs.List>
            <Tabs.Trigger value="all">All tickets</Tabs.Trigger><Tabs.Trigger value="mine">Assigned to me</Tabs.Trigger><Tabs.Trigger value="spam" disabled>Spam</Tabs.Trigger>
          </Tabs.List></Tabs.Root>
          <Box flex="1" />
          <Switch.Root defaultChecked size="sm"><Switch.HiddenInput /><Switch.Control><Switch.Thumb /></Switch.Control><Switch.Label>Auto-refresh</Switch.Label></Switch.Root>
          <NativeSelect.Root size="sm" width="160px"><NativeSelect.Field defaultValue="new" aria-label="Sort by">
            <option value="new">Newest first</option><option value="old">Oldest first</option></NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
          <Menu.Root defaultOpen>
            <Menu.Trigger asChild><Button size="sm" variant="outline">Actions ▾</Button></Menu.Trigger>
            <Portal><Menu.Positioner><Menu.Content>
              <Menu.Item value="assign">Assign to…</Menu.Item>
              <Menu.Item value="merge">Merge tickets</Menu.Item>
              <Menu.Item value="tag">Add tag</Menu.Item>
              <Menu.Item value="macro" disabled>Run macro (none selected)</Menu.Item>
              <Menu.Separator />
              <Menu.Item value="delete" color="fg.error">Delete</Menu.Item>
            </Menu.Content></Menu.Positioner></Portal>
          </Menu.Root>
          <Button size="sm" colorPalette="blue">New ticket</Button>
        </Flex>
        <Table.Root size="sm" variant="outline">
          <Table.Header><Table.Row>
            <Table.ColumnHeader w="6"><Checkbox.Root aria-label="Select all"><Checkbox.HiddenInput /><Checkbox.Control /></Checkbox.Root></Table.ColumnHeader>
            <Table.ColumnHeader>Ticket</Table.ColumnHeader><Table.ColumnHeader>Subject</Table.ColumnHeader><Table.ColumnHeader>Requester</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader><Table.ColumnHeader>Priority</Table.ColumnHeader><Table.ColumnHeader />
          </Table.Row></Table.Header>
          <Table.Body>{tickets.map(([id, s, r, st, p]) => (
            <Table.Row key={id}>
              <Table.Cell><Checkbox.Root aria-label={`Select ${id}`} defaultChecked={id === "#3010"}><Checkbox.HiddenInput /><Checkbox.Control /></Checkbox.Root></Table.Cell>
              <Table.Cell>{id}</Table.Cell><Table.Cell><Link href="#">{s}</Link></Table.Cell><Table.Cell>{r}</Table.Cell>
              <Table.Cell><Badge colorPalette={colour[st]}>{st}</Badge></Table.Cell><Table.Cell>{p}</Table.Cell>
              <Table.Cell><IconButton aria-label={`Reply to ${id}`} size="xs" variant="ghost"><I d="M9 14 4 9l5-5M4 9h11a5 5 0 0 1 5 5v6" /></IconButton></Table.Cell>
            </Table.Row>))}
          </Table.Body>
        </Table.Root>
        <Pagination.Root count={128} pageSize={6} defaultPage={1} mt="3">
          <ButtonGroup size="sm" variant="ghost">
            <Pagination.PrevTrigger asChild><IconButton aria-label="Previous page">‹</IconButton></Pagination.PrevTrigger>
            <Pagination.Items render={page => <IconButton variant={{ base: "ghost", _selected: "outline" }}>{page.value}</IconButton>} />
            <Pagination.NextTrigger asChild><IconButton aria-label="Next page">›</IconButton></Pagination.NextTrigger>
          </ButtonGroup>
        </Pagination.Root>
      </Box>
    </ChakraProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
