// Naive UI 2.45 on Vue 3.5 (full build: the components are written as templates): bundled by
// build.mjs for unseen/naive.html. Mounts the app into #app, then window.pageReady.
import {createApp, ref, h} from 'vue';
import naive from 'naive-ui';

const rows = [
  {key: 1, name: 'Ada Lovelace', age: 36, city: 'London'},
  {key: 2, name: 'Grace Hopper', age: 85, city: 'New York'},
  {key: 3, name: 'Alan Turing', age: 41, city: 'Wilmslow'},
  {key: 4, name: 'Edsger Dijkstra', age: 72, city: 'Nuenen'},
];

const app = createApp({
  setup() {
    return {
      tab: ref('profile'),
      page: ref(1),
      plan: ref(null),
      rows,
      columns: [
        {title: 'Name', key: 'name', sorter: 'default'},
        {title: 'Age', key: 'age', sorter: (a, b) => a.age - b.age},
        {title: 'City', key: 'city'},
      ],
      plans: [
        {label: 'Free', value: 'free'},
        {label: 'Team', value: 'team'},
        {label: 'Enterprise', value: 'enterprise'},
      ],
    };
  },
  template: `
    <n-config-provider>
      <div class="layout">
        <div class="left">
          <n-tabs id="tabs" v-model:value="tab" type="line">
            <n-tab-pane name="profile" tab="Profile"><p class="pane">Profile settings</p></n-tab-pane>
            <n-tab-pane name="billing" tab="Billing"><p class="pane">Billing settings</p></n-tab-pane>
            <n-tab-pane name="security" tab="Security"><p class="pane">Security settings</p></n-tab-pane>
          </n-tabs>
          <n-data-table id="people" :columns="columns" :data="rows" :bordered="true" size="small" />
          <n-pagination id="pager" v-model:page="page" :page-count="5" />
        </div>
        <div class="right">
          <p>Plan</p>
          <n-select id="plan" v-model:value="plan" :options="plans" placeholder="Choose a plan" :show="true" />
        </div>
      </div>
    </n-config-provider>`,
});
app.use(naive);
app.mount('#app');
requestAnimationFrame(() => requestAnimationFrame(() => { window.pageReady = true; }));
