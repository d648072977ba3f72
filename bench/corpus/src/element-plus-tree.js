// Element Plus 2.14.8 (Vue 3.5.45): a permissions console: a checkable TREE (some nodes
// expanded and checked), a filter input, a table with selection, sortable columns, switches and
// link buttons, pagination, and the "Bulk actions" dropdown OPEN.
import { createApp, onMounted, ref } from "vue";
import ElementPlus from "element-plus";
import { ready } from "./lib/ready.js";

const tree = [
  { id: 1, label: "Acme Corp", children: [
    { id: 2, label: "Engineering", children: [{ id: 3, label: "Platform" }, { id: 4, label: "Mobile" }, { id: 5, label: "Data" }] },
    { id: 6, label: "Sales", children: [{ id: 7, label: "EMEA" }, { id: 8, label: "Americas" }] },
    { id: 9, label: "Finance", disabled: true, children: [{ id: 10, label: "Payroll" }] },
  ] },
  { id: 11, label: "Contractors", children: [{ id: 12, label: "Agency A" }] },
];
const rows = ["Read repos", "Write repos", "Deploy staging", "Deploy production", "View billing", "Manage users", "Export data", "Audit log"]
  .map((p, n) => ({ perm: p, scope: ["org", "team", "project"][n % 3], granted: `2024-0${1 + (n % 3)}-1${n}`, on: n % 3 !== 1 }));

const App = {
  setup() {
    const dd = ref(null);
    onMounted(() => setTimeout(() => { dd.value.handleOpen(); ready(400); }, 100));
    return { dd, tree, rows, filter: ref(""), page: ref(1) };
  },
  template: `
  <div style="display: flex; height: 100vh">
    <aside style="width: 280px; border-right: 1px solid #eee; padding: 12px">
      <el-input v-model="filter" placeholder="Filter groups" clearable style="margin-bottom: 8px" />
      <el-tree :data="tree" node-key="id" show-checkbox :default-expanded-keys="[2, 6]" :default-checked-keys="[3, 7]" :current-node-key="3" highlight-current :expand-on-click-node="false" />
    </aside>
    <main style="flex: 1; padding: 12px 20px; overflow: hidden">
      <el-breadcrumb separator="/" style="margin-bottom: 12px"><el-breadcrumb-item :to="{ path: '/' }">Acme Corp</el-breadcrumb-item><el-breadcrumb-item>Engineering</el-breadcrumb-item><el-breadcrumb-item>Platform</el-breadcrumb-item></el-breadcrumb>
      <div style="display: flex; gap: 8px; margin-bottom: 12px; align-items: center">
        <el-tabs model-value="perms" style="flex: 1"><el-tab-pane label="Permissions" name="perms" /><el-tab-pane label="Members" name="members" /><el-tab-pane label="Activity" name="activity" disabled /></el-tabs>
        <el-dropdown ref="dd" trigger="click" split-button type="primary">Bulk actions
          <template #dropdown><el-dropdown-menu>
            <el-dropdown-item>Grant selected</el-dropdown-item><el-dropdown-item>Revoke selected</el-dropdown-item>
            <el-dropdown-item disabled>Transfer ownership</el-dropdown-item><el-dropdown-item divided>Export CSV</el-dropdown-item>
          </el-dropdown-menu></template>
        </el-dropdown>
      </div>
      <el-table :data="rows" border size="small" :default-sort="{ prop: 'granted', order: 'descending' }">
        <el-table-column type="selection" width="44" />
        <el-table-column prop="perm" label="Permission" sortable />
        <el-table-column prop="scope" label="Scope" sortable width="120" />
        <el-table-column prop="granted" label="Granted" sortable width="140" />
        <el-table-column label="Enabled" width="100"><template #default="s"><el-switch v-model="s.row.on" /></template></el-table-column>
        <el-table-column label="" width="150"><template #default><el-button link type="primary" size="small">Edit</el-button><el-button link type="danger" size="small">Remove</el-button></template></el-table-column>
      </el-table>
      <el-pagination v-model:current-page="page" :total="64" :page-size="8" layout="prev, pager, next, jumper" style="margin-top: 12px" />
    </main>
  </div>`,
};
createApp(App).use(ElementPlus).mount("#root");
