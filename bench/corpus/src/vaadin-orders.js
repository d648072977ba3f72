// Vaadin web components 25.3.0 (Lumo theme): registers the elements of the page's markup, fills
// the virtualised grid with 2,000 orders and opens the date picker on 2024-03-14.
import "@vaadin/menu-bar";
import "@vaadin/grid";
import "@vaadin/grid/vaadin-grid-selection-column.js";
import "@vaadin/grid/vaadin-grid-sort-column.js";
import "@vaadin/date-picker";
import "@vaadin/combo-box";
import "@vaadin/text-field";
import "@vaadin/button";
import { ready } from "./lib/ready.js";

const customers = ["Ada Byron", "Linus Berg", "Mina Sato", "Omar Haddad", "Zoe Novak", "Ravi Menon", "Elif Kaya", "João Reis"];
const grid = document.querySelector("vaadin-grid");
grid.items = Array.from({ length: 2000 }, (_, n) => ({
  id: `ORD-${String(50000 + n)}`, customer: customers[(n * 5) % 8], total: (19.9 + ((n * 7919) % 50000) / 100).toFixed(2),
  status: ["Open", "Shipped", "Cancelled", "Delivered"][n % 4], date: `2024-03-${String(1 + (n % 28)).padStart(2, "0")}`,
}));
grid.selectedItems = [grid.items[1], grid.items[4]];
document.querySelector("vaadin-menu-bar").items = [
  { text: "Orders", children: [{ text: "New order" }, { text: "Import…" }, { component: "hr" }, { text: "Archive", disabled: true }] },
  { text: "Customers" }, { text: "Reports", children: [{ text: "Sales" }, { text: "Returns" }] }, { text: "Admin", disabled: true },
];
document.querySelector("vaadin-combo-box").items = ["Open", "Shipped", "Cancelled", "Delivered"];
const picker = document.querySelector("vaadin-date-picker");
picker.value = "2024-03-14";
customElements.whenDefined("vaadin-grid").then(() => setTimeout(() => { picker.opened = true; ready(600); }, 200));
