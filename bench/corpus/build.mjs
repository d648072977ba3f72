// Bundles every src/<page>.jsx|.js into build/<page>.js (and build/<page>.css when it imports
// styles), for the browser, with React and Vue in their production builds. Run by install.sh.
// Prints how many entries it bundled.
import { build } from "esbuild";
import { readdirSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";

const entries = readdirSync("src").filter(f => /\.(jsx?|mjs)$/.test(f)).map(f => `src/${f}`);
mkdirSync("build", { recursive: true });

// @tldraw/assets/imports imports its translations (.json) for their URLs, as it does its fonts and icons
const tldrawAssets = {
  name: "tldraw-assets",
  setup(b) {
    b.onLoad({ filter: /@tldraw[\\/]assets[\\/].*\.json$/ }, async args => ({
      contents: await readFile(args.path), loader: "file",
    }));
  },
};
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
    "process.env": '{"NODE_ENV":"production"}',  // Vuetify's dist also reads process.env.VITE_LOGGER_ENABLED
    __VUE_OPTIONS_API__: "true",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
  loader: { ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".svg": "file", ".png": "file", ".gif": "file" },
  assetNames: "assets/[name]-[hash]",
  publicPath: "/build",  // assets (tldraw's icons and fonts) are fetched from the corpus server's root
  // Vue pages write their templates inline: the full build, with the template compiler
  plugins: [tldrawAssets],
  alias: { vue: "vue/dist/vue.esm-bundler.js" },
});
console.log(`${entries.length} entries`);
