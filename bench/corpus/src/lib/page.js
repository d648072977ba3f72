// Page helpers shared by the corpus entries.
export { ready } from "./ready.js";
export function mount(id = "root") {
  return document.getElementById(id);
}
