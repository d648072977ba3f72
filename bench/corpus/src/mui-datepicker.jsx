// MUI X (@mui/x-date-pickers 9.17.0 on @mui/material 9.5.0): a trip booking form with its
// departure date picker OPEN on March 2024 (value fixed at 2024-03-14).
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import dayjs from "dayjs";
import {
  ThemeProvider, createTheme, CssBaseline, Box, Paper, Typography, TextField, MenuItem, Button, Checkbox,
  FormControlLabel, Radio, RadioGroup, FormControl, FormLabel, Slider, Switch, Stepper, Step, StepLabel,
} from "@mui/material";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { DesktopDatePicker } from "@mui/x-date-pickers/DesktopDatePicker";
import { ready } from "./lib/ready.js";

const theme = createTheme({
  transitions: { create: () => "none" },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
});

function App() {
  useEffect(() => ready(200), []);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <Box sx={{ p: 3, maxWidth: 1100, mx: "auto" }}>
          <Typography variant="h5" gutterBottom>Book a trip</Typography>
          <Stepper activeStep={1} sx={{ mb: 3 }}>
            {["Destination", "Dates", "Travellers", "Payment"].map(s => <Step key={s}><StepLabel>{s}</StepLabel></Step>)}
          </Stepper>
          <Paper sx={{ p: 3, display: "grid", gridTemplateColumns: "1fr 1fr", gap: 3 }}>
            <TextField label="From" defaultValue="Lisbon (LIS)" />
            <TextField label="To" defaultValue="Oslo (OSL)" />
            <DesktopDatePicker label="Departure" defaultValue={dayjs("2024-03-14")} referenceDate={dayjs("2024-03-14")}
              open onClose={() => {}} slotProps={{ popper: { disablePortal: false } }} />
            <DesktopDatePicker label="Return" defaultValue={dayjs("2024-03-21")} disabled />
            <TextField select label="Cabin class" defaultValue="economy">
              <MenuItem value="economy">Economy</MenuItem><MenuItem value="premium">Premium economy</MenuItem>
              <MenuItem value="business">Business</MenuItem>
            </TextField>
            <FormControl>
              <FormLabel>Trip type</FormLabel>
              <RadioGroup row defaultValue="return">
                <FormControlLabel value="oneway" control={<Radio />} label="One way" />
                <FormControlLabel value="return" control={<Radio />} label="Return" />
                <FormControlLabel value="multi" control={<Radio />} label="Multi-city" disabled />
              </RadioGroup>
            </FormControl>
            <Box>
              <Typography gutterBottom>Max. price (€)</Typography>
              <Slider defaultValue={450} min={50} max={1500} valueLabelDisplay="auto" aria-label="Maximum price" />
            </Box>
            <Box>
              <FormControlLabel control={<Checkbox defaultChecked />} label="Flexible dates (±3 days)" />
              <FormControlLabel control={<Switch />} label="Direct flights only" />
            </Box>
          </Paper>
          <Box sx={{ mt: 2, display: "flex", gap: 2, justifyContent: "flex-end" }}>
            <Button>Back</Button><Button variant="contained">Search flights</Button>
          </Box>
        </Box>
      </LocalizationProvider>
    </ThemeProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
