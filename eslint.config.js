// ESLint for the extension's JavaScript: `tests/lint/node_modules/.bin/eslint extension` (installers/install.sh
// --test runs it; tests/lint/install.sh installs ESLint, pinned in tests/lint/package.json).
//
// Two kinds of file. The service worker's are ES modules (manifest.json: "type": "module"). Whatever runs in a
// page is a classic script, which cannot import: the manifest's content scripts, in the page's main world or
// the extension's isolated world, and the page library the service worker injects into the isolated world
// (chrome.scripting.executeScript with files), whose parts share globalThis.__tabsightParts. Each kind is
// named by its folder (service-worker/, content-scripts/, page-library/) or, in the flat layout, by its name.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// ESLint's packages are in tests/lint/node_modules, not beside this file
const lint = createRequire(new URL('./tests/lint/package.json', import.meta.url));
const load = async (name) => (await import(pathToFileURL(lint.resolve(name)).href)).default;
const js = await load('@eslint/js');
const globals = await load('globals');

const CLASSIC = [
  'extension/content-scripts/**/*.js',
  'extension/page-library/**/*.js',
  // the flat layout
  'extension/inpage*.js',
  'extension/*-page.js',
  'extension/*-relay.js',
  'extension/picker-target.js',
];
// the service worker's, for all their names: its calls into the page library
const NOT_CLASSIC = ['extension/inpage-call.js'];

export default [
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      // the service worker's functions that chrome.scripting.executeScript runs in a page use the page's globals
      globals: { ...globals.browser, ...globals.webextensions },
    },
    rules: {
      ...js.configs.recommended.rules,
      // `const { omitted, ...rest } = value` is how the code drops a property
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // beyond the recommended: likely defects, each absent from the code today
      'array-callback-return': 'error',
      'eqeqeq': ['error', 'smart'],
      'no-constructor-return': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-throw-literal': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-unused-expressions': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['extension/**/*.js'],
    ignores: [...CLASSIC, ...NOT_CLASSIC.map((name) => `!${name}`)],
    languageOptions: { sourceType: 'module', globals: globals.serviceworker },
  },
  {
    files: CLASSIC,
    ignores: NOT_CLASSIC,
    languageOptions: { sourceType: 'script' },
    rules: {
      // a classic script's top-level names would be the page's (or the isolated world's) globals
      'no-implicit-globals': 'error',
    },
  },
];
