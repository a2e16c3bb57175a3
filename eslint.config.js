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

// The station core's layers (docs/decisions/store-interface.md): api uses domain and the store's
// interface; domain and sync use only the store's interface (`store/index.ts`); domain never imports
// sync (its changes reach sync through the store: the outbox slot, the change events) and nothing
// below api imports api. Only store/ knows the engine (Dexie, fake-indexeddb, SQLite): no other file
// of electron/ (the station's own top-level files, the CLI, the Electron shell) imports it or the
// store's internals. (The renderer's own queue in the browser's IndexedDB is the renderer's Dexie.)
const engineOnlyInStore = [
  {
    group: ['dexie', 'fake-indexeddb', 'node:sqlite'],
    message: 'Only electron/station/store/ knows the engine: use the StationStore interface (store/index.ts).',
  },
  {
    // ./store/x (the station's top-level files), ../store/x, ../../store/x, ../station/store/x (the CLI, the shell).
    regex: String.raw`^(\./|(\.\./)+)(station/)?store/(?!index\.ts$)`,
    message: "Import the store's interface from store/index.ts, never its internals.",
  },
];
const notApi = { regex: String.raw`^(\.\./)+api/`, message: 'The API is the top layer: the layers below it (domain, sync, printing, site) never import it.' };
const notPrinting = {
  regex: String.raw`^(\.\./)+printing/`,
  message: 'domain never imports printing: the print queue is asked through PrintPort (domain/print-jobs.ts).',
};
const notSync = {
  regex: String.raw`^(\.\./)+sync/`,
  message: 'domain never imports sync: raise a change through the store (the outbox slot, change events) or ask through domain/sync-port.ts.',
};
// sync's folders (electron/station/sync/README.md): push and pull never import each other (what both
// need lives in links/, lists/ or upstream/), and upstream/ — talking to the upstream — knows nothing
// else of sync.
const syncImports = (...more) => ['error', { patterns: [...engineOnlyInStore, notApi, ...more] }];
const notPull = { regex: String.raw`^(\.\./)+pull/`, message: 'push never imports pull: what both need lives in links/, lists/ or upstream/.' };
const notPush = { regex: String.raw`^(\.\./)+push/`, message: 'pull never imports push: what both need lives in links/, lists/ or upstream/.' };
const neitherRound = {
  regex: String.raw`^(\.\./)+(pull|push)/`,
  message: 'links/ and lists/ serve both pull and push: they import neither.',
};
const onlyUpstream = {
  regex: String.raw`^\.\./(?!\.\./)`,
  message: 'upstream/ talks to the upstream and knows nothing else of sync: pass what it needs in.',
};
// `store.db` (Dexie) and `store.inMemory` (the engine's own records) are the store's insides: no file
// of api/, domain/ or sync/ reaches them. Reads go through the aggregates (`store.packages`,
// `store.returns`, ...) or the read-only tables (`store.tables`), writes through `store.write`.
const storeInsides = [
  {
    selector: 'MemberExpression[property.name=/^(db|inMemory)$/]',
    message: "store.db / store.inMemory are the store's insides: read through the store's per-aggregate interface.",
  },
  {
    selector: 'ObjectPattern > Property[key.name=/^(db|inMemory)$/]',
    message: "store.db / store.inMemory are the store's insides: read through the store's per-aggregate interface.",
  },
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
      'no-restricted-properties': [
        'error',
        {
          property: 'until',
          message: "Dexie's until() gets no value on key-only walks (delete, modify, keys): use a key range, or filter() with first()/limit().",
        },
      ],
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
    // Nothing outside the store knows the engine or reaches the store's insides: every file of
    // electron/ but store/ (the station's top-level files, site/, tls/, the CLI, the shell). The
    // blocks below add each layer's own rules to these.
    files: ['electron/**'],
    ignores: ['electron/station/store/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: engineOnlyInStore }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The processes that run the station (the command line, the station process's entry) reach it
    // through its interface, electron/station/index.ts, never its inside.
    files: ['electron/cli/**', 'electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engineOnlyInStore,
            {
              regex: String.raw`^(\.\./)+station/(?!index\.ts$)`,
              message: 'Reach the station through its interface, electron/station/index.ts (add what a command needs there).',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The site's stations and the demo data: below api, like sync.
    files: ['electron/station/site/**', 'electron/station/demo/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...engineOnlyInStore, notApi] }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    files: ['electron/station/api/**'],
    ignores: ['electron/station/api/routes/sync.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engineOnlyInStore,
            { ...notSync, message: 'api reaches sync only through its sync routes (api/routes/sync.ts) and domain/sync-port.ts.' },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The sync screen's routes are sync's own face: they read and change its settings and outbox.
    files: ['electron/station/api/routes/sync.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: engineOnlyInStore }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    files: ['electron/station/domain/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...engineOnlyInStore, notApi, notSync, notPrinting] }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The print queue and the label renderers: like sync, below api, over domain and the store's interface.
    files: ['electron/station/printing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...engineOnlyInStore, notApi, notSync] }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The evidence pack's PDF and zip: like printing, below api, over domain and the store's interface.
    files: ['electron/station/evidence/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...engineOnlyInStore, notApi, notSync] }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    // The scale's protocols and links: a device the API reads, below api and beside the store (it keeps nothing).
    files: ['electron/station/scale/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...engineOnlyInStore, notApi, notSync, notPrinting] }],
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  {
    files: ['electron/station/sync/**'],
    rules: {
      'no-restricted-imports': syncImports(),
      'no-restricted-syntax': ['error', ...storeInsides],
    },
  },
  { files: ['electron/station/sync/push/**'], rules: { 'no-restricted-imports': syncImports(notPull) } },
  { files: ['electron/station/sync/pull/**'], rules: { 'no-restricted-imports': syncImports(notPush) } },
  { files: ['electron/station/sync/links/**', 'electron/station/sync/lists/**'], rules: { 'no-restricted-imports': syncImports(neitherRound) } },
  { files: ['electron/station/sync/upstream/**'], rules: { 'no-restricted-imports': syncImports(onlyUpstream) } },
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
