// Mantine (@mantine/core 9.8.1): account settings with tabs, its Timezone autocomplete OPEN
// (dropdownOpened), switches, a segmented control, number input, disabled fields and buttons.
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, AppShell, Tabs, TextInput, Autocomplete, Switch, SegmentedControl, NumberInput, Button, Group,
  Stack, Title, Text, Checkbox, ActionIcon, Avatar, NavLink, PasswordInput, Select, Textarea, Badge, Divider } from "@mantine/core";
import { ready } from "./lib/ready.js";

const Icon = ({ d }) => <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d={d} /></svg>;
const zones = ["Europe/Amsterdam", "Europe/Athens", "Europe/Berlin", "Europe/Brussels", "Europe/Bucharest", "Europe/Budapest", "Europe/Lisbon", "Europe/London"];

function App() {
  useEffect(() => ready(300), []);
  return (
    <MantineProvider>
      <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 0 }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Title order={4}>Helio</Title>
            <Group gap="xs">
              <ActionIcon variant="subtle" aria-label="Search"><Icon d="M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm10 2-4.35-4.35" /></ActionIcon>
              <ActionIcon variant="subtle" aria-label="Notifications"><Icon d="M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" /></ActionIcon>
              <Avatar radius="xl" color="blue">KB</Avatar>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <NavLink href="#" label="Overview" />
          <NavLink href="#" label="Projects" />
          <NavLink href="#" label="Settings" active defaultOpened childrenOffset={20}>
            <NavLink href="#" label="Account" active />
            <NavLink href="#" label="Billing" />
            <NavLink href="#" label="Security" />
          </NavLink>
          <NavLink href="#" label="Audit log" disabled />
        </AppShell.Navbar>
        <AppShell.Main>
          <Title order={3} mb="sm">Account settings</Title>
          <Tabs defaultValue="general">
            <Tabs.List>
              <Tabs.Tab value="general">General</Tabs.Tab><Tabs.Tab value="notifications">Notifications</Tabs.Tab>
              <Tabs.Tab value="api">API keys</Tabs.Tab><Tabs.Tab value="danger" disabled>Danger zone</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="general" pt="md">
              <Group align="flex-start" grow maw={980}>
                <Stack>
                  <TextInput label="Display name" defaultValue="Kim Bauer" />
                  <TextInput label="E-mail" defaultValue="kim@helio.test" disabled description="Managed by your organisation" />
                  <Autocomplete label="Timezone" defaultValue="Europe/B" data={zones} dropdownOpened comboboxProps={{ transitionProps: { duration: 0 } }} />
                  <Textarea label="Bio" defaultValue="Product designer." autosize minRows={2} />
                </Stack>
                <Stack>
                  <Select label="Language" defaultValue="en" data={[{ value: "en", label: "English" }, { value: "de", label: "Deutsch" }]} />
                  <Text size="sm" fw={500}>Theme</Text>
                  <SegmentedControl data={["Light", "Dark", "System"]} defaultValue="System" />
                  <NumberInput label="Session timeout (minutes)" defaultValue={30} min={5} max={240} />
                  <PasswordInput label="Current password" defaultValue="hunter2hunter2" />
                  <Switch label="Two-factor authentication" defaultChecked />
                  <Switch label="Beta features" disabled />
                  <Checkbox label="Send me the monthly product digest" defaultChecked />
                </Stack>
              </Group>
              <Divider my="md" maw={980} />
              <Group><Button>Save changes</Button><Button variant="default">Cancel</Button><Button color="red" variant="light" disabled>Delete account</Button><Badge>Pro plan</Badge></Group>
            </Tabs.Panel>
          </Tabs>
        </AppShell.Main>
      </AppShell>
    </MantineProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
