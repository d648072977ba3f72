// Mantine (@mantine/dates 9.8.1): a room booking page: an inline range calendar (March 2024,
// 12–15 March picked), a stepper, accordion (one panel open), chips and a time input.
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, Container, Title, Group, Stack, Stepper, Accordion, Chip, Button, Paper, Text, Rating, Radio, Pagination, Breadcrumbs, Anchor } from "@mantine/core";
import { DatePicker, TimeInput, DatePickerInput } from "@mantine/dates";
import { ready } from "./lib/ready.js";

function App() {
  useEffect(() => ready(300), []);
  return (
    <MantineProvider>
      <Container size={1180} py="md">
        <Breadcrumbs mb="xs"><Anchor href="#">Hotels</Anchor><Anchor href="#">Porto</Anchor><Text>Casa Ribeira</Text></Breadcrumbs>
        <Title order={3} mb="sm">Book your stay</Title>
        <Stepper active={1} size="sm" mb="md" allowNextStepsSelect={false}>
          <Stepper.Step label="Room" /><Stepper.Step label="Dates" /><Stepper.Step label="Guests" /><Stepper.Step label="Payment" />
        </Stepper>
        <Group align="flex-start" gap="xl">
          <Paper withBorder p="md">
            <DatePicker type="range" numberOfColumns={2} defaultDate="2024-03-01" defaultValue={["2024-03-12", "2024-03-15"]}
              minDate="2024-03-05" maxDate="2024-04-30" excludeDate={d => d === "2024-03-20" || d === "2024-03-21"} />
          </Paper>
          <Stack w={330}>
            <DatePickerInput label="Check-in" defaultValue="2024-03-12" valueFormat="D MMM YYYY" />
            <TimeInput label="Arrival time" defaultValue="15:30" />
            <Text size="sm" fw={500}>Extras</Text>
            <Chip.Group multiple defaultValue={["breakfast"]}>
              <Group gap="xs"><Chip value="breakfast">Breakfast</Chip><Chip value="parking">Parking</Chip><Chip value="spa" disabled>Spa</Chip></Group>
            </Chip.Group>
            <Radio.Group label="Bed" defaultValue="double"><Group mt={4}><Radio value="double" label="Double" /><Radio value="twin" label="Twin" /></Group></Radio.Group>
            <Group><Button>Continue</Button><Button variant="default">Back</Button></Group>
          </Stack>
        </Group>
        <Accordion defaultValue="cancel" mt="md" maw={900}>
          <Accordion.Item value="cancel"><Accordion.Control>Cancellation policy</Accordion.Control><Accordion.Panel>Free cancellation until 48 hours before check-in.</Accordion.Panel></Accordion.Item>
          <Accordion.Item value="rules"><Accordion.Control>House rules</Accordion.Control><Accordion.Panel>No parties.</Accordion.Panel></Accordion.Item>
          <Accordion.Item value="reviews"><Accordion.Control>Reviews (128)</Accordion.Control><Accordion.Panel><Rating defaultValue={4} /></Accordion.Panel></Accordion.Item>
        </Accordion>
        <Pagination total={6} defaultValue={1} mt="md" />
      </Container>
    </MantineProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
