// Material Web (@material/web 2.5, Lit elements, ES modules only): bundled by build.mjs for
// unseen/material.html. Defines every md-* element and adopts the typescale styles.
import '@material/web/all.js';
import {styles as typescale} from '@material/web/typography/md-typescale-styles.js';

document.adoptedStyleSheets.push(typescale.styleSheet);
customElements.whenDefined('md-slider').then(() => requestAnimationFrame(() => { window.pageReady = true; }));
