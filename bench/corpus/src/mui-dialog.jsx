// MUI (@mui/material 9.5.0): an invoices table (selection checkboxes, sortable headers,
// pagination) under a MODAL "New invoice" dialog (text fields, a select, an autocomplete, a
// checkbox, a disabled field, Cancel/Create buttons).
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import {
  ThemeProvider, createTheme, CssBaseline, Box, Typography, Button, Table, TableHead, TableRow, TableCell,
  TableBody, TableSortLabel, TablePagination, Checkbox, Dialog, DialogTitle, DialogContent, DialogActions,
  TextField, MenuItem, Autocomplete, FormControlLabel, Paper, Tabs, Tab,
} from "@mui/material";
import { ready } from "./lib/ready.js";

const theme = createTheme({
  transitions: { create: () => "none" },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
});
const rows = Array.from({ length: 10 }, (_, i) => ({
  id: `INV-${1041 + i}`, client: ["Globex", "Initech", "Umbrella", "Hooli", "Stark Ind."][i % 5],
  amount: (1234.5 + i * 311.25).toFixed(2), status: ["Paid", "Overdue", "Draft"][i % 3], due: `2024-03-${String(10 + i).padStart(2, "0")}`,
}));
const clients = ["Globex", "Initech", "Umbrella", "Hooli", "Stark Ind.", "Wayne Enterprises"];

function App() {
  useEffect(() => ready(200), []);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ p: 3 }}>
        <Box sx={{ display: "flex", alignItems: "center", mb: 1 }}>
          <Typography variant="h5" sx={{ flexGrow: 1 }}>Invoices</Typography>
          <Button variant="contained">New invoice</Button>
        </Box>
        <Tabs value={0} sx={{ mb: 1 }}><Tab label="All" /><Tab label="Unpaid" /><Tab label="Drafts" /></Tabs>
        <Paper>
          <Table size="small">
            <TableHead><TableRow>
              <TableCell padding="checkbox"><Checkbox inputProps={{ "aria-label": "select all" }} /></TableCell>
              <TableCell><TableSortLabel active direction="asc">Invoice</TableSortLabel></TableCell>
              <TableCell><TableSortLabel>Client</TableSortLabel></TableCell>
              <TableCell align="right"><TableSortLabel>Amount</TableSortLabel></TableCell>
              <TableCell>Status</TableCell><TableCell>Due</TableCell>
            </TableRow></TableHead>
            <TableBody>{rows.map(r => (
              <TableRow key={r.id} hover>
                <TableCell padding="checkbox"><Checkbox inputProps={{ "aria-label": `select ${r.id}` }} /></TableCell>
                <TableCell>{r.id}</TableCell><TableCell>{r.client}</TableCell><TableCell align="right">€{r.amount}</TableCell>
                <TableCell>{r.status}</TableCell><TableCell>{r.due}</TableCell>
              </TableRow>))}
            </TableBody>
          </Table>
          <TablePagination component="div" count={124} page={0} rowsPerPage={10} onPageChange={() => {}} onRowsPerPageChange={() => {}} />
        </Paper>
      </Box>
      <Dialog open transitionDuration={0} maxWidth="sm" fullWidth>
        <DialogTitle>New invoice</DialogTitle>
        <DialogContent sx={{ display: "grid", gap: 2, pt: "8px !important" }}>
          <Autocomplete options={clients} defaultValue="Initech" renderInput={p => <TextField {...p} label="Client" />} />
          <TextField label="Invoice number" defaultValue="INV-1051" disabled />
          <TextField label="Amount (€)" type="number" defaultValue="980.00" />
          <TextField select label="Payment terms" defaultValue="30">
            <MenuItem value="15">Net 15</MenuItem><MenuItem value="30">Net 30</MenuItem><MenuItem value="60">Net 60</MenuItem>
          </TextField>
          <TextField label="Notes" multiline rows={3} defaultValue="Consulting, February 2024" />
          <FormControlLabel control={<Checkbox defaultChecked />} label="E-mail the invoice to the client" />
        </DialogContent>
        <DialogActions><Button>Cancel</Button><Button variant="contained">Create</Button></DialogActions>
      </Dialog>
    </ThemeProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
