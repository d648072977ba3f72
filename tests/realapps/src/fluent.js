// Fluent UI web components 3.1 (@fluentui/web-components: FAST elements in shadow DOM, ES modules
// only): bundled by build.mjs for unseen/fluent.html. Defines the elements the page uses and sets
// the web light theme (its design tokens as CSS custom properties).
import {setTheme} from '@fluentui/web-components';
import {webLightTheme} from '@fluentui/tokens';
import '@fluentui/web-components/button.js';
import '@fluentui/web-components/checkbox.js';
import '@fluentui/web-components/field.js';
import '@fluentui/web-components/label.js';
import '@fluentui/web-components/link.js';
import '@fluentui/web-components/text-input.js';

setTheme(webLightTheme);
requestAnimationFrame(() => { window.pageReady = true; });
