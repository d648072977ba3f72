// Bundles each entry of src/ (src/<name>.js or .jsx) with esbuild into build/<name>.js (and
// build/<name>.css when it imports CSS): the pages of unseen/ load them as ES modules. Run by
// install.sh after the packages are installed; a bundle newer than its entry, this file and
// package-lock.json is left as it is. Prints one line saying what it did.
import {build} from 'esbuild';
import {readdirSync, statSync, existsSync} from 'node:fs';
import {join, dirname, parse} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
const inputs = Math.max(mtime(join(here, 'package-lock.json')), mtime(fileURLToPath(import.meta.url)));
const entries = readdirSync(join(here, 'src')).filter((file) => /\.jsx?$/.test(file)).sort();
const stale = entries.filter((file) => {
  const output = join(here, 'build', parse(file).name + '.js');
  return mtime(output) <= Math.max(inputs, mtime(join(here, 'src', file)));
});
if (!stale.length) {
  console.log(`realapps: build/ is up to date (${entries.length} bundles)`);
} else {
  const started = Date.now();
  for (const file of stale) {
    await build({
      entryPoints: [join(here, 'src', file)],
      outfile: join(here, 'build', parse(file).name + '.js'),
      bundle: true, minify: true, format: 'esm', target: 'es2022', logLevel: 'error',
      // aliases resolve from the working directory: this folder's, whatever folder install.sh was run from
      absWorkingDir: here,
      jsx: 'automatic',
      // Vue's full build: the Naive UI page writes its components as templates
      alias: {vue: 'vue/dist/vue.esm-bundler.js'},
      define: {'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false',
               __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false'},
      conditions: ['production'],
      loader: {'.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file', '.png': 'file'},
      assetNames: 'assets/[name]-[hash]',
    });
  }
  console.log(`realapps: bundled ${stale.join(', ')} into build/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
