// Vuetify 4.3.0 (Vue 3.5.45): an e-mail client: app bar (search, icon-only buttons), navigation
// drawer of folders and labels, a message list with checkboxes and star toggles, a toolbar of
// icon-only actions, and the "Move to" menu OPEN.
import { createApp, onMounted } from "vue";
import { createVuetify } from "vuetify/dist/vuetify.esm.js";
import { aliases, mdi } from "vuetify/iconsets/mdi-svg";
import * as icons from "@mdi/js";
import { ready } from "./lib/ready.js";

const vuetify = createVuetify({ icons: { defaultSet: "mdi", aliases, sets: { mdi } }, defaults: { global: { ripple: false } } });
const mails = [
  ["Stripe", "Your March invoice is ready", "Invoice #IN-0311 for €49.00 is now available.", "9:41", true, false],
  ["Lena from Figma", "Comments on 'Checkout v3'", "Lena left 4 comments on your file.", "8:12", false, true],
  ["GitHub", "[tabsight] PR #212 merged", "Merged into main by octocat.", "Yesterday", false, false],
  ["Marta Silva", "Lunch on Thursday?", "There's a new ramen place near the office…", "Yesterday", true, true],
  ["Booking.com", "Your stay in Porto", "Check-in: Tue 12 Mar 2024, from 15:00.", "11 Mar", false, false],
  ["HR Team", "Updated holiday calendar", "Please review the 2024 public holidays.", "10 Mar", false, false],
  ["Sam Okoye", "Re: Q2 planning", "Agree on moving the launch to May.", "9 Mar", false, true],
  ["Linear", "5 issues assigned to you", "ENG-412 Fix flaky upload test, and 4 more.", "8 Mar", false, false],
];
const App = {
  setup() {
    onMounted(() => ready(300));
    return { i: icons, mails, folders: [["Inbox", icons.mdiInbox, 12], ["Starred", icons.mdiStar, 0], ["Sent", icons.mdiSend, 0], ["Drafts", icons.mdiFileOutline, 2], ["Spam", icons.mdiAlertOctagonOutline, 0], ["Trash", icons.mdiDeleteOutline, 0]] };
  },
  template: `
  <v-app>
    <v-app-bar density="compact" color="primary" flat>
      <v-app-bar-nav-icon aria-label="Toggle navigation"></v-app-bar-nav-icon>
      <v-app-bar-title>Mail</v-app-bar-title>
      <v-text-field density="compact" variant="solo-filled" flat hide-details single-line placeholder="Search mail" :prepend-inner-icon="i.mdiMagnify" style="max-width: 420px" class="mx-4"></v-text-field>
      <v-spacer></v-spacer>
      <v-btn :icon="i.mdiHelpCircleOutline" aria-label="Help"></v-btn>
      <v-btn :icon="i.mdiCogOutline" aria-label="Settings"></v-btn>
      <v-btn :icon="i.mdiApps" aria-label="Apps"></v-btn>
      <v-avatar color="surface" size="32" class="mr-3">AK</v-avatar>
    </v-app-bar>
    <v-navigation-drawer permanent width="230">
      <div class="pa-3"><v-btn block color="primary" :prepend-icon="i.mdiPencil">Compose</v-btn></div>
      <v-list density="compact" nav>
        <v-list-item v-for="(f, n) in folders" :key="f[0]" :prepend-icon="f[1]" :title="f[0]" :active="n === 0" link>
          <template #append><v-badge v-if="f[2]" :content="f[2]" inline color="primary"></v-badge></template>
        </v-list-item>
        <v-list-subheader>Labels</v-list-subheader>
        <v-list-item link :prepend-icon="i.mdiLabel" title="Work"></v-list-item>
        <v-list-item link :prepend-icon="i.mdiLabel" title="Travel"></v-list-item>
      </v-list>
    </v-navigation-drawer>
    <v-main>
      <v-toolbar density="compact" color="surface" border="b">
        <v-checkbox-btn aria-label="Select all" class="ml-1"></v-checkbox-btn>
        <v-btn :icon="i.mdiRefresh" aria-label="Refresh" size="small"></v-btn>
        <v-btn :icon="i.mdiArchiveOutline" aria-label="Archive" size="small"></v-btn>
        <v-btn :icon="i.mdiDeleteOutline" aria-label="Delete" size="small" disabled></v-btn>
        <v-menu :model-value="true" :persistent="true" :no-click-animation="true" location="bottom start" :transition="false">
          <template #activator="{ props }"><v-btn v-bind="props" :append-icon="i.mdiMenuDown" variant="text" size="small">Move to</v-btn></template>
          <v-list density="compact">
            <v-list-item link title="Work" :prepend-icon="i.mdiLabel"></v-list-item>
            <v-list-item link title="Travel" :prepend-icon="i.mdiLabel"></v-list-item>
            <v-list-item link title="Receipts" :prepend-icon="i.mdiLabel"></v-list-item>
            <v-divider></v-divider>
            <v-list-item link title="Create new label…"></v-list-item>
            <v-list-item title="Manage labels" disabled></v-list-item>
          </v-list>
        </v-menu>
        <v-spacer></v-spacer>
        <span class="text-body-2 mr-2">1–50 of 1,284</span>
        <v-btn :icon="i.mdiChevronLeft" aria-label="Newer" size="small" disabled></v-btn>
        <v-btn :icon="i.mdiChevronRight" aria-label="Older" size="small"></v-btn>
      </v-toolbar>
      <v-tabs density="compact" color="primary" model-value="primary">
        <v-tab value="primary" :prepend-icon="i.mdiInbox">Primary</v-tab><v-tab value="promotions" :prepend-icon="i.mdiTagOutline">Promotions</v-tab><v-tab value="social" :prepend-icon="i.mdiAccountMultipleOutline">Social</v-tab>
      </v-tabs>
      <v-list lines="two" density="compact" class="py-0">
        <v-list-item v-for="m in mails" :key="m[1]" link :class="m[4] ? 'font-weight-bold' : ''" border="b">
          <template #prepend><v-checkbox-btn :aria-label="'Select ' + m[1]"></v-checkbox-btn>
            <v-btn :icon="m[5] ? i.mdiStar : i.mdiStarOutline" :color="m[5] ? 'amber' : undefined" variant="text" size="small" :aria-label="'Star ' + m[1]"></v-btn></template>
          <v-list-item-title>{{ m[0] }} — {{ m[1] }}</v-list-item-title>
          <v-list-item-subtitle>{{ m[2] }}</v-list-item-subtitle>
          <template #append><span class="text-caption">{{ m[3] }}</span></template>
        </v-list-item>
      </v-list>
    </v-main>
  </v-app>`,
};
createApp(App).use(vuetify).mount("#root");
