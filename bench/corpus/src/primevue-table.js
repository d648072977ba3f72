// PrimeVue 4.5.5 (Aura preset of @primeuix/themes 2.0.3, primeicons 8.0.2, Vue 3.5.45): a
// customers DataTable (selection checkboxes, sortable headers, per-column filter inputs, tags,
// icon-only row buttons, paginator) under a menubar, with the Columns multiselect OPEN.
import { createApp, onMounted, ref } from "vue";
import PrimeVue from "primevue/config";
import Aura from "@primeuix/themes/aura";
import DataTable from "primevue/datatable";
import Column from "primevue/column";
import Menubar from "primevue/menubar";
import InputText from "primevue/inputtext";
import Tag from "primevue/tag";
import Button from "primevue/button";
import MultiSelect from "primevue/multiselect";
import Toolbar from "primevue/toolbar";
import IconField from "primevue/iconfield";
import InputIcon from "primevue/inputicon";
import Select from "primevue/select";
import { ready } from "./lib/ready.js";

const countries = ["Portugal", "Germany", "Japan", "Brazil", "Kenya", "Canada", "Poland", "India"];
const customers = Array.from({ length: 40 }, (_, n) => ({
  id: 1000 + n, name: ["Amy Elsner", "Anna Fali", "Asiya Javayant", "Bernardo Dominic", "Elwin Sharvill", "Ioni Bowcher", "Ivan Magalhaes", "Onyama Limba", "Stephen Shaw", "Xuxue Feng"][n % 10],
  country: countries[(n * 3) % 8], status: ["qualified", "new", "negotiation", "unqualified"][n % 4], balance: 1200 + ((n * 7919) % 90000),
}));
const severity = { qualified: "success", new: "info", negotiation: "warn", unqualified: "danger" };
const cols = [{ field: "country", header: "Country" }, { field: "status", header: "Status" }, { field: "balance", header: "Balance" }];

const App = {
  components: { DataTable, Column, Menubar, InputText, Tag, Button, MultiSelect, Toolbar, IconField, InputIcon, Select },
  setup() {
    const ms = ref(null);
    onMounted(() => setTimeout(() => { ms.value.show(); ready(400); }, 150));
    const items = [{ label: "Home", icon: "pi pi-home" }, { label: "Customers", icon: "pi pi-users", items: [{ label: "List" }, { label: "Segments" }] },
      { label: "Reports", icon: "pi pi-chart-bar" }, { label: "Settings", icon: "pi pi-cog", disabled: true }];
    return { ms, items, customers, severity, cols, shown: ref(cols.slice()), selected: ref([customers[1], customers[3]]),
      filters: ref({ name: "", country: "" }), sortField: "balance" };
  },
  template: `
  <Menubar :model="items"><template #end><IconField><InputIcon class="pi pi-search" /><InputText placeholder="Search" size="small" /></IconField></template></Menubar>
  <div style="padding: 12px 16px">
    <Toolbar style="margin-bottom: 8px">
      <template #start><Button label="New" icon="pi pi-plus" size="small" style="margin-right: 8px" /><Button label="Delete" icon="pi pi-trash" severity="danger" outlined size="small" disabled /></template>
      <template #end><MultiSelect ref="ms" v-model="shown" :options="cols" optionLabel="header" display="chip" placeholder="Columns" style="width: 320px" /><Button icon="pi pi-upload" aria-label="Export" severity="secondary" text /></template>
    </Toolbar>
    <DataTable v-model:selection="selected" :value="customers" dataKey="id" paginator :rows="8" :rowsPerPageOptions="[8, 20, 50]" size="small"
      sortField="balance" :sortOrder="-1" removableSort>
      <Column selectionMode="multiple" headerStyle="width: 3rem" />
      <Column field="name" header="Name" sortable />
      <Column v-for="c in shown" :key="c.field" :field="c.field" :header="c.header" sortable>
        <template #body="{ data }">
          <Tag v-if="c.field === 'status'" :value="data.status" :severity="severity[data.status]" />
          <span v-else-if="c.field === 'balance'">{{ data.balance.toLocaleString('en-US', { style: 'currency', currency: 'USD' }) }}</span>
          <span v-else>{{ data[c.field] }}</span>
        </template>
      </Column>
      <Column headerStyle="width: 7rem"><template #body="{ data }">
        <Button icon="pi pi-pencil" text rounded :aria-label="'Edit ' + data.name" /><Button icon="pi pi-trash" text rounded severity="danger" :aria-label="'Delete ' + data.name" />
      </template></Column>
    </DataTable>
  </div>`,
};
createApp(App).use(PrimeVue, { theme: { preset: Aura }, ripple: false }).mount("#root");
