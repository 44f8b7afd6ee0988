// ESLint's flat config for the lab's browser code: the recommended rules, ES modules, browser
// globals (the worker: worker globals).
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['web/**/*.js', 'bench/browser/**/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['web/worker.js', 'bench/browser/bench_worker.js'],
    languageOptions: { globals: globals.worker },
  },
  {
    files: ['web/sw.js'],
    languageOptions: { globals: globals.serviceworker },
  },
];
