// Vuetify 4.3.0 (Vue 3.5.45): a tasks page under an OPEN MODAL dialog "Schedule task" holding
// a date picker (March 2024, 2024-03-14 selected), a select, a text field, a switch, a
// disabled field and Cancel/Save.
import { createApp, onMounted, ref } from "vue";
import { createVuetify } from "vuetify/dist/vuetify.esm.js";
import { aliases, mdi } from "vuetify/iconsets/mdi-svg";
import * as icons from "@mdi/js";
import { ready } from "./lib/ready.js";

const vuetify = createVuetify({ icons: { defaultSet: "mdi", aliases, sets: { mdi } }, defaults: { global: { ripple: false } } });
const App = {
  setup() {
    onMounted(() => ready(400));
    return { i: icons, date: ref(new Date(2024, 2, 14)), tasks: ["Renew SSL certificates", "Quarterly access review", "Rotate API keys", "Backup restore drill", "Update runbooks", "Vendor security questionnaire"] };
  },
  template: `
  <v-app>
    <v-app-bar density="compact" title="Ops scheduler"><template #append><v-btn :icon="i.mdiBellOutline" aria-label="Notifications"></v-btn></template></v-app-bar>
    <v-main><v-container>
      <v-table density="compact">
        <thead><tr><th>Task</th><th>Owner</th><th>Due</th><th></th></tr></thead>
        <tbody><tr v-for="(t, n) in tasks" :key="t"><td>{{ t }}</td><td>Team {{ n % 3 + 1 }}</td><td>2024-03-{{ 10 + n }}</td>
          <td><v-btn size="small" variant="text" :icon="i.mdiPencil" :aria-label="'Edit ' + t"></v-btn></td></tr></tbody>
      </v-table>
    </v-container></v-main>
    <v-dialog :model-value="true" persistent width="760" :transition="false">
      <v-card title="Schedule task">
        <v-card-text class="d-flex ga-4">
          <v-date-picker v-model="date" :first-day-of-week="1" show-adjacent-months elevation="0" border></v-date-picker>
          <div class="flex-grow-1">
            <v-text-field label="Task" model-value="Backup restore drill" density="compact"></v-text-field>
            <v-select label="Owner" :items="['Team 1', 'Team 2', 'Team 3']" model-value="Team 2" density="compact"></v-select>
            <v-text-field label="Runbook" model-value="RB-17" density="compact" disabled></v-text-field>
            <v-textarea label="Notes" rows="2" model-value="Restore last night's snapshot into staging." density="compact"></v-textarea>
            <v-switch label="Remind me the day before" :model-value="true" color="primary" density="compact" hide-details></v-switch>
            <v-radio-group inline :model-value="'once'" density="compact" hide-details label="Repeat">
              <v-radio label="Once" value="once"></v-radio><v-radio label="Monthly" value="monthly"></v-radio><v-radio label="Yearly" value="yearly" disabled></v-radio>
            </v-radio-group>
          </div>
        </v-card-text>
        <v-card-actions><v-spacer></v-spacer><v-btn>Cancel</v-btn><v-btn color="primary" variant="flat">Save</v-btn></v-card-actions>
      </v-card>
    </v-dialog>
  </v-app>`,
};
createApp(App).use(vuetify).mount("#root");
