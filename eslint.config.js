// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Process boundaries, enforced: the renderer is a sandboxed web page, shared/ is imported by both sides.
const nodeOnly = [
  { group: ['node:*'], message: 'The renderer and shared/ run in a browser: no Node built-ins.' },
  { group: ['electron'], message: 'Only electron/ may import Electron.' },
  { group: ['**/electron/**', '../electron', '../../electron'], message: 'The renderer and shared/ never import the main process.' },
];

export default tseslint.config(
  { ignores: ['out/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Dexie hands until()'s callback `undefined` when the collection is then deleted, modified or
      // read as keys (a key-only cursor): it bricked every restart once. Use an index range or filter().
      'no-restricted-properties': ['error', { property: 'until', message: "Dexie's until() gets no value on key-only walks (delete, modify, keys): use a key range, or filter() with first()/limit()." }],
    },
  },
  {
    files: ['electron/**', 'test/**', 'bin/**', 'scripts/**', '*.config.ts', '*.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: nodeOnly }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...nodeOnly, { group: ['**/renderer/**', '../renderer'], message: 'shared/ never imports the renderer.' }] },
      ],
    },
  },
);
