import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * The layers of docs/architecture.md "Who may import whom", held by a rule rather than by review:
 * each zone lists the folders of src/ it must not import, with where the shared piece belongs
 * instead. Folders are matched in the import's resolved text (`../client/client.js`,
 * `../../shared/errors.js`), so a relative path of any depth is caught.
 */
const ADAPTERS = ['action', 'cli'];
const LAYERS = [
  {
    zone: 'src/shared/**',
    forbidden: [
      'client',
      'publish',
      'parsers',
      'emulator',
      'dashboard',
      'schema',
      'settings',
      ...ADAPTERS,
    ],
    why: 'src/shared is the leaf every layer imports: it imports nothing of ours.',
  },
  {
    zone: 'src/schema/**',
    forbidden: ['client', 'publish', 'parsers', 'emulator', 'dashboard', 'settings', ...ADAPTERS],
    why: 'src/schema is the API as data: only src/shared below it.',
  },
  {
    zone: 'src/parsers/**',
    forbidden: ['client', 'publish', 'emulator', 'dashboard', 'settings', ...ADAPTERS],
    why: 'parsing needs no service: errors and text helpers are in src/shared.',
  },
  {
    zone: 'src/client/**',
    forbidden: ['publish', 'parsers', 'emulator', 'dashboard', ...ADAPTERS],
    why: 'the client knows the service, not the pipeline; shared pieces are in src/shared.',
  },
  {
    zone: 'src/emulator/**',
    forbidden: ['client', 'publish', 'parsers', 'dashboard/service', 'settings', ...ADAPTERS],
    why: 'the emulator shares nothing with the client but src/schema (and src/shared, the dashboard’s pure renderers), so a bug in one is not mirrored in the other.',
  },
  {
    zone: ['src/dashboard/*.ts', '!src/dashboard/index.ts'],
    forbidden: [
      'client',
      'publish',
      'parsers',
      'emulator',
      'dashboard/service',
      'settings',
      ...ADAPTERS,
    ],
    why: 'the dashboard’s pure part (analysis and rendering, used by the emulator’s live page) reads no service: reading a series belongs in src/dashboard/service.',
    sibling: ['service'],
  },
  {
    zone: 'src/dashboard/service/**',
    forbidden: ['emulator', 'parsers', ...ADAPTERS],
    why: 'reading a series goes through the client, never the adapters or the emulator.',
  },
  {
    zone: 'src/publish/**',
    forbidden: ['emulator', 'dashboard', ...ADAPTERS],
    why: 'the pipeline knows no adapter, emulator or dashboard.',
  },
  {
    zone: 'src/settings/**',
    forbidden: ['client', 'publish', 'parsers', 'emulator', 'dashboard', ...ADAPTERS],
    why: 'the settings table serves every layer and adapter: the defaults it shows are in src/shared/defaults.ts, its readers in src/shared/setting-readers.ts.',
  },
  { zone: 'src/cli/**', forbidden: ['action'], why: 'one adapter never imports another.' },
  {
    zone: 'src/action/**',
    forbidden: ['cli', 'emulator'],
    why: 'the action bundles neither the CLI nor the emulator.',
  },
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** An import of src/<folder> from anywhere inside src/: one or more `../` (or `./` at src/). */
const folderImport = (folder) =>
  `^(?:\\.\\./)+(?:\\.\\/)?${escape(folder)}(?:/|\\.js$)|^\\./${escape(folder)}(?:/|\\.js$)`;

export const layerRules = LAYERS.map(({ zone, forbidden, why, sibling = [] }) => {
  const [files, ...negated] = Array.isArray(zone) ? zone : [zone];
  return {
    files: [files],
    ignores: negated.map((n) => n.slice(1)),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map((folder) => ({
              regex: folderImport(folder),
              message: `Bad layering: ${files} may not import src/${folder}; ${why} (docs/architecture.md "Who may import whom")`,
            })),
            ...sibling.map((folder) => ({
              regex: `^\\./${escape(folder)}/`,
              message: `Bad layering: ${files} may not import ./${folder}; ${why} (docs/architecture.md "Who may import whom")`,
            })),
            ...(files.startsWith('src/action')
              ? []
              : [{ group: ['@actions/*'], message: 'Only src/action may import @actions/*.' }]),
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'node_modules/', 'coverage/', '.tmp/', 'samples/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  ...layerRules,
);
