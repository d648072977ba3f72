// Carbon web components (@carbon/web-components 2.63.0): registers the elements the page's
// markup uses, then marks the page ready once they are defined and rendered.
import "@carbon/web-components/es/components/ui-shell/index.js";
import "@carbon/web-components/es/components/data-table/index.js";
import "@carbon/web-components/es/components/overflow-menu/index.js";
import "@carbon/web-components/es/components/button/index.js";
import "@carbon/web-components/es/components/checkbox/index.js";
import "@carbon/web-components/es/components/search/index.js";
import "@carbon/web-components/es/components/tag/index.js";
import "@carbon/web-components/es/components/breadcrumb/index.js";
import "@carbon/web-components/es/components/tabs/index.js";
import "@carbon/web-components/es/components/toggle/index.js";
import "@carbon/web-components/es/components/pagination/index.js";
import "@carbon/web-components/es/components/select/index.js";
import { ready } from "./lib/ready.js";

const names = ["cds-header", "cds-side-nav", "cds-table", "cds-overflow-menu", "cds-button", "cds-tabs", "cds-pagination"];
Promise.all(names.map(n => customElements.whenDefined(n))).then(() => setTimeout(() => ready(300), 300));
