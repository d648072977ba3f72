// Quasar 2.34.0 (Vue 3.5.45, @quasar/extras 2.1.0 Material Icons): a KANBAN board (header with
// search and icon-only buttons, a mini drawer, tabs, four columns of cards with chips, avatars,
// checkbox toggles and icon-only buttons) with a card's "more" menu OPEN.
import { createApp, onMounted, ref } from "vue";
import * as Q from "quasar";
import { ready } from "./lib/ready.js";

const columns = [
  ["Backlog", [["Audit cookie banner", "legal", 1], ["Dark mode for settings", "design", 3], ["Rate-limit the export API", "backend", 2]]],
  ["In progress", [["Checkout: Apple Pay", "payments", 5], ["Migrate to Postgres 16", "infra", 8]]],
  ["Review", [["New onboarding e-mails", "growth", 2], ["Fix flaky upload test", "qa", 1]]],
  ["Done", [["SSO with Okta", "auth", 5], ["Invoice PDF redesign", "design", 3], ["Status page", "infra", 2]]],
];
const App = {
  setup() {
    const menu = ref(false);
    onMounted(() => setTimeout(() => { menu.value = true; ready(400); }, 150));
    return { columns, menu, tab: ref("board"), left: ref(true), q: ref("") };
  },
  template: `
  <q-layout view="hHh LpR fFf">
    <q-header elevated class="bg-indigo-8 text-white">
      <q-toolbar>
        <q-btn flat dense round icon="menu" aria-label="Menu" />
        <q-toolbar-title>Sprint 14 · Web team</q-toolbar-title>
        <q-input v-model="q" dense standout="bg-indigo-6" input-class="text-white" placeholder="Filter cards" style="width: 260px"><template #prepend><q-icon name="search" /></template></q-input>
        <q-btn flat round dense icon="notifications" aria-label="Notifications" class="q-ml-sm"><q-badge color="red" floating>3</q-badge></q-btn>
        <q-btn flat round dense icon="settings" aria-label="Settings" />
      </q-toolbar>
      <q-tabs v-model="tab" align="left" dense>
        <q-tab name="board" label="Board" /><q-tab name="list" label="List" /><q-tab name="timeline" label="Timeline" disable />
      </q-tabs>
    </q-header>
    <q-drawer v-model="left" side="left" bordered mini :width="220">
      <q-list>
        <q-item clickable v-ripple:false aria-label="Boards"><q-item-section avatar><q-icon name="dashboard" /></q-item-section></q-item>
        <q-item clickable aria-label="Issues" active><q-item-section avatar><q-icon name="bug_report" /></q-item-section></q-item>
        <q-item clickable aria-label="Calendar"><q-item-section avatar><q-icon name="event" /></q-item-section></q-item>
        <q-item clickable aria-label="Team"><q-item-section avatar><q-icon name="group" /></q-item-section></q-item>
      </q-list>
    </q-drawer>
    <q-page-container>
      <q-page class="q-pa-md row no-wrap q-gutter-md items-start bg-grey-2">
        <div v-for="([title, cards], c) in columns" :key="title" class="col bg-grey-3 rounded-borders q-pa-sm">
          <div class="row items-center q-mb-sm"><b class="col">{{ title }} ({{ cards.length }})</b><q-btn flat dense round size="sm" icon="add" :aria-label="'Add card to ' + title" /></div>
          <q-card v-for="([name, tag, pts], n) in cards" :key="name" flat bordered class="q-mb-sm">
            <q-card-section class="q-pb-xs row items-start no-wrap">
              <div class="col text-body2">{{ name }}</div>
              <q-btn flat dense round size="sm" icon="more_vert" :aria-label="'More for ' + name">
                <q-menu v-if="c === 1 && n === 0" v-model="menu" anchor="bottom right" self="top right" transition-duration="0">
                  <q-list dense style="min-width: 170px">
                    <q-item clickable><q-item-section>Edit</q-item-section></q-item>
                    <q-item clickable><q-item-section>Move to…</q-item-section></q-item>
                    <q-item clickable><q-item-section>Copy link</q-item-section></q-item>
                    <q-item clickable disable><q-item-section>Convert to epic</q-item-section></q-item>
                    <q-separator />
                    <q-item clickable class="text-negative"><q-item-section>Archive</q-item-section></q-item>
                  </q-list>
                </q-menu>
              </q-btn>
            </q-card-section>
            <q-card-section class="q-pt-none row items-center q-gutter-xs">
              <q-chip dense size="sm" color="indigo-1" clickable>{{ tag }}</q-chip>
              <q-chip dense size="sm" icon="bolt">{{ pts }}</q-chip>
              <q-space />
              <q-checkbox dense size="sm" :model-value="c === 3" :aria-label="'Done: ' + name" />
              <q-avatar size="22px" color="teal" text-color="white">{{ name[0] }}</q-avatar>
            </q-card-section>
          </q-card>
        </div>
      </q-page>
    </q-page-container>
  </q-layout>`,
};
const app = createApp(App);
app.use(Q.Quasar, { plugins: {} });
for (const [name, value] of Object.entries(Q)) {
  if (/^Q[A-Z]/.test(name) && value && (value.setup || value.render || value.name)) app.component(name, value);
}
app.directive("ripple", Q.Ripple);
app.mount("#root");
