// MUI (@mui/material 9.5.0): a CRM contacts page with its app bar's account menu open.
import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import {
  AppBar, Toolbar, IconButton, Typography, InputBase, Badge, Menu, MenuItem, ListItemIcon, ListItemText,
  Divider, Drawer, List, ListItemButton, Box, Card, CardContent, CardActions, Button, Avatar, Chip,
  ThemeProvider, createTheme, CssBaseline, SvgIcon, Switch, FormControlLabel, Checkbox, Link,
} from "@mui/material";
import { ready } from "./lib/ready.js";

const icon = d => props => <SvgIcon {...props}><path d={d} /></SvgIcon>;
const MenuIcon = icon("M3 18h18v-2H3v2zm0-5h18v-2H3v2zm0-7v2h18V6H3z");
const SearchIcon = icon("M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z");
const BellIcon = icon("M12 22c1.1 0 2-.9 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4a1.5 1.5 0 0 0-3 0v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1l-2-2z");
const MailIcon = icon("M20 4H4c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z");
const PersonIcon = icon("M12 12c2.21 0 4-1.79 4-4s-1.79-4-4-4-4 1.79-4 4 1.79 4 4 4zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z");
const SettingsIcon = icon("M19.14 12.94a7.49 7.49 0 0 0 0-1.88l2.03-1.58-1.92-3.32-2.39.96a7.03 7.03 0 0 0-1.63-.94L14.87 3.6h-3.84l-.36 2.58c-.59.24-1.13.56-1.63.94l-2.39-.96-1.92 3.32 2.03 1.58a7.49 7.49 0 0 0 0 1.88l-2.03 1.58 1.92 3.32 2.39-.96c.5.38 1.04.7 1.63.94l.36 2.58h3.84l.36-2.58c.59-.24 1.13-.56 1.63-.94l2.39.96 1.92-3.32-2.03-1.58zM12.95 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z");
const LogoutIcon = icon("M17 7l-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2H4V5z");
const MoreIcon = icon("M12 8c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2zm0 2c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2z");

const theme = createTheme({
  transitions: { create: () => "none" },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
});

const contacts = [
  ["Ada Lovelace", "Analytical Engines Ltd", "Lead"], ["Grace Hopper", "Navy Computing", "Customer"],
  ["Alan Turing", "Bletchley Systems", "Customer"], ["Katherine Johnson", "Langley Research", "Prospect"],
  ["Edsger Dijkstra", "Eindhoven Tech", "Lead"], ["Barbara Liskov", "CLU Labs", "Customer"],
];

function App() {
  const anchor = useRef(null);
  const [el, setEl] = useState(null);
  useEffect(() => { setEl(anchor.current); ready(); }, []);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AppBar position="fixed" sx={{ zIndex: t => t.zIndex.drawer + 1 }}>
        <Toolbar>
          <IconButton color="inherit" edge="start" aria-label="open navigation"><MenuIcon /></IconButton>
          <Typography variant="h6" sx={{ mr: 3 }}>Acme CRM</Typography>
          <Box sx={{ display: "flex", alignItems: "center", bgcolor: "rgba(255,255,255,.15)", borderRadius: 1, px: 1 }}>
            <SearchIcon /><InputBase placeholder="Search contacts…" sx={{ color: "inherit", ml: 1, width: 260 }} inputProps={{ "aria-label": "search" }} />
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <IconButton color="inherit" aria-label="4 new mails"><Badge badgeContent={4} color="error"><MailIcon /></Badge></IconButton>
          <IconButton color="inherit" aria-label="17 new notifications"><Badge badgeContent={17} color="error"><BellIcon /></Badge></IconButton>
          <IconButton color="inherit" ref={anchor} aria-label="account of current user" aria-controls="account-menu" aria-haspopup="true" aria-expanded="true"><Avatar sx={{ width: 32, height: 32 }}>JD</Avatar></IconButton>
        </Toolbar>
      </AppBar>
      <Drawer variant="permanent" sx={{ width: 220, "& .MuiDrawer-paper": { width: 220, top: 64 } }}>
        <List>
          {["Dashboard", "Contacts", "Deals", "Tasks", "Reports", "Settings"].map((t, i) => (
            <ListItemButton key={t} selected={i === 1}><ListItemText primary={t} /></ListItemButton>
          ))}
        </List>
      </Drawer>
      <Box component="main" sx={{ ml: "220px", mt: "64px", p: 3 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, mb: 2 }}>
          <Typography variant="h5">Contacts</Typography>
          <Button variant="contained">New contact</Button>
          <Button variant="outlined">Import</Button>
          <Button disabled>Export</Button>
          <FormControlLabel control={<Switch defaultChecked />} label="Show archived" />
        </Box>
        <Box sx={{ display: "grid", gridTemplateColumns: "repeat(3, 1fr)", gap: 2 }}>
          {contacts.map(([name, company, stage]) => (
            <Card key={name} variant="outlined">
              <CardContent sx={{ display: "flex", gap: 2, alignItems: "center" }}>
                <Checkbox inputProps={{ "aria-label": `select ${name}` }} />
                <Avatar>{name.split(" ").map(w => w[0]).join("")}</Avatar>
                <Box sx={{ flexGrow: 1 }}>
                  <Link href="#" underline="hover">{name}</Link>
                  <Typography variant="body2" color="text.secondary">{company}</Typography>
                </Box>
                <Chip label={stage} size="small" onClick={() => {}} />
                <IconButton aria-label={`more actions for ${name}`}><MoreIcon /></IconButton>
              </CardContent>
              <CardActions><Button size="small">Call</Button><Button size="small">E-mail</Button></CardActions>
            </Card>
          ))}
        </Box>
      </Box>
      <Menu id="account-menu" anchorEl={el} open={Boolean(el)} transitionDuration={0}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        <MenuItem><ListItemIcon><PersonIcon fontSize="small" /></ListItemIcon>Profile</MenuItem>
        <MenuItem><ListItemIcon><SettingsIcon fontSize="small" /></ListItemIcon>Account settings</MenuItem>
        <MenuItem disabled>Billing (admins only)</MenuItem>
        <Divider />
        <MenuItem><ListItemIcon><LogoutIcon fontSize="small" /></ListItemIcon>Log out</MenuItem>
      </Menu>
    </ThemeProvider>
  );
}
createRoot(document.getElementById("root")).render(<App />);
