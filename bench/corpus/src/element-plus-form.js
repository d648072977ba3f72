// Element Plus 2.14.8 (Vue 3.5.45): a leave-request form with its date-range picker OPEN
// (March–April 2024, 2024-03-11..2024-03-15 picked), plus select, cascader, radio buttons,
// input number, switch, checkboxes, rate, a disabled input and submit/reset buttons.
import { createApp, onMounted, ref } from "vue";
import ElementPlus from "element-plus";
import { ready } from "./lib/ready.js";

const App = {
  setup() {
    const picker = ref(null);
    const range = ref([new Date(2024, 2, 11), new Date(2024, 2, 15)]);
    onMounted(() => setTimeout(() => { picker.value.handleOpen(); ready(400); }, 100));
    return { picker, range, type: ref("annual"), days: ref(5), half: ref(false), notify: ref(["email"]), who: ref("mgr"),
      cascade: ref(["eng", "platform"]), options: [{ value: "eng", label: "Engineering", children: [{ value: "platform", label: "Platform" }, { value: "apps", label: "Apps" }] }] };
  },
  template: `
  <el-container style="height: 100vh">
    <el-header style="display: flex; align-items: center; border-bottom: 1px solid #eee; gap: 16px">
      <strong>People portal</strong>
      <el-menu mode="horizontal" default-active="leave" :ellipsis="false" style="flex: 1; border: 0">
        <el-menu-item index="home">Home</el-menu-item><el-menu-item index="leave">Leave</el-menu-item>
        <el-menu-item index="expenses">Expenses</el-menu-item><el-menu-item index="payroll" disabled>Payroll</el-menu-item>
      </el-menu>
      <el-button circle aria-label="Help">?</el-button>
    </el-header>
    <el-main>
      <el-card style="max-width: 900px; margin: 0 auto" header="Request leave">
        <el-form label-width="140px">
          <el-form-item label="Employee"><el-input model-value="Ines Carvalho (E-2291)" disabled /></el-form-item>
          <el-form-item label="Leave type"><el-radio-group v-model="type">
            <el-radio-button value="annual">Annual</el-radio-button><el-radio-button value="sick">Sick</el-radio-button>
            <el-radio-button value="unpaid">Unpaid</el-radio-button><el-radio-button value="parental" disabled>Parental</el-radio-button></el-radio-group></el-form-item>
          <el-form-item label="Dates"><el-date-picker ref="picker" v-model="range" type="daterange" range-separator="to" start-placeholder="Start" end-placeholder="End" /></el-form-item>
          <el-form-item label="Working days"><el-input-number v-model="days" :min="1" :max="30" /></el-form-item>
          <el-form-item label="Half day"><el-switch v-model="half" /></el-form-item>
          <el-form-item label="Team"><el-cascader v-model="cascade" :options="options" /></el-form-item>
          <el-form-item label="Approver"><el-select v-model="who" style="width: 240px"><el-option value="mgr" label="My manager" /><el-option value="hr" label="HR partner" /></el-select></el-form-item>
          <el-form-item label="Notify"><el-checkbox-group v-model="notify"><el-checkbox value="email">E-mail</el-checkbox><el-checkbox value="chat">Chat</el-checkbox><el-checkbox value="sms" disabled>SMS</el-checkbox></el-checkbox-group></el-form-item>
          <el-form-item label="Comment"><el-input type="textarea" model-value="Family trip." :rows="2" /></el-form-item>
          <el-form-item><el-button type="primary">Submit request</el-button><el-button>Reset</el-button></el-form-item>
        </el-form>
      </el-card>
    </el-main>
  </el-container>`,
};
createApp(App).use(ElementPlus).mount("#root");
