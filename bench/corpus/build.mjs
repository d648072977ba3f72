// Bundles every src/<page>.jsx|.js into build/<page>.js (and build/<page>.css when it imports
// styles), for the browser, with React and Vue in their production builds. Run by install.sh.
// Prints how many entries it bundled.
import { build } from "esbuild";
import { readdirSync, mkdirSync } from "node:fs";

const entries = readdirSync("src").filter(f => /\.(jsx?|mjs)$/.test(f)).map(f => `src/${f}`);
mkdirSync("build", { recursive: true });
await build({
  entryPoints: entries,
  outdir: "build",
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  jsx: "automatic",
  logLevel: "error",
  define: {
    "process.env.NODE_ENV": '"production"',
    __VUE_OPTIONS_API__: "true",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
  loader: { ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".svg": "file", ".png": "file", ".gif": "file" },
  assetNames: "assets/[name]-[hash]",
  publicPath: "/build",  // assets (tldraw's icons and fonts) are fetched from the corpus server's root
  // Vue pages write their templates inline: the full build, with the template compiler
  alias: { vue: "vue/dist/vue.esm-bundler.js" },
});
console.log(`${entries.length} entries`);
