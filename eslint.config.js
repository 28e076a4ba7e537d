import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The rooms of src and who may import whom (docs/architecture.md "Who may import whom"), held by
 * eslint-plugin-boundaries on the RESOLVED path of every import, export-from and dynamic import()
 * (eslint-import-resolver-typescript), type-only ones included, so no spelling of a path
 * (`./../client/client.js`, a barrel that re-exports) walks around it. Each row is one room: its
 * folder (every file of src is in one, `boundaries/no-unknown-files`), the rooms it may import,
 * and why; a room not listed is refused. First match wins, so a room inside another comes first.
 */
export const ROOMS = [
  {
    room: 'src/shared',
    may: [],
    why: 'src/shared is the leaf every room imports: it imports nothing of ours.',
  },
  { room: 'src/schema', may: ['src/shared'], why: 'src/schema is the API as data.' },
  {
    room: 'src/settings',
    may: ['src/shared'],
    why: 'the settings table serves every room and adapter: the defaults it shows are in src/shared/defaults.ts, its readers in src/shared/setting-readers.ts.',
  },
  {
    room: 'src/client',
    may: ['src/schema', 'src/settings', 'src/shared'],
    why: 'the client knows the service and its own settings, not the jobs that use it.',
  },
  {
    room: 'src/parsers',
    may: ['src/shared'],
    why: 'parsing needs no service: errors and text helpers are in src/shared.',
  },
  {
    room: 'src/domain',
    may: ['src/client', 'src/parsers', 'src/schema', 'src/settings', 'src/shared'],
    why: 'the pieces the jobs share know none of the jobs.',
  },
  {
    room: 'src/triage',
    may: ['src/domain', 'src/client', 'src/parsers', 'src/schema', 'src/settings', 'src/shared'],
    why: 'triage is read by the gate and the dashboard; it knows neither, nor sync.',
  },
  {
    room: 'src/inventory',
    may: ['src/domain', 'src/client', 'src/parsers', 'src/schema', 'src/settings', 'src/shared'],
    why: 'sync knows the shared pieces, not the pipeline that may call it (publish --sync).',
  },
  {
    room: 'src/traceability',
    may: ['src/domain', 'src/client', 'src/parsers', 'src/schema', 'src/settings', 'src/shared'],
    why: 'traceability stands beside sync and triage, on the shared pieces.',
  },
  {
    room: 'src/publish',
    may: [
      'src/inventory',
      'src/triage',
      'src/domain',
      'src/client',
      'src/parsers',
      'src/schema',
      'src/settings',
      'src/shared',
    ],
    why: 'the pipeline knows no adapter, job layer, emulator or dashboard.',
  },
  {
    room: 'src/dashboard/render',
    may: ['src/schema', 'src/shared'],
    why: 'the dashboard’s pure part (analysis and rendering, used by the emulator’s live page) reads no service: reading a series belongs in src/dashboard.',
  },
  {
    room: 'src/dashboard',
    may: [
      'src/dashboard/render',
      'src/triage',
      'src/domain',
      'src/client',
      'src/schema',
      'src/settings',
      'src/shared',
    ],
    why: 'reading a series goes through the client, never the adapters, the pipeline or the emulator.',
  },
  {
    room: 'src/emulator',
    may: ['src/dashboard/render', 'src/schema', 'src/shared'],
    why: 'the emulator shares nothing with the client but src/schema (and src/shared, the dashboard’s pure renderers), so a bug in one is not mirrored in the other.',
  },
  {
    room: 'src/job',
    may: [
      'src/publish',
      'src/inventory',
      'src/triage',
      'src/traceability',
      'src/dashboard',
      'src/domain',
      'src/client',
      'src/parsers',
      'src/schema',
      'src/settings',
      'src/shared',
    ],
    why: 'the job layer prepares and runs a job for either adapter; it knows neither.',
  },
  {
    room: 'src/cli',
    may: ['src/job', 'src/emulator', 'src/settings', 'src/shared'],
    why: 'an adapter turns flags into settings and renders results: the work is the job layer’s (src/job), and one adapter never imports another.',
  },
  {
    room: 'src/action',
    may: ['src/job', 'src/settings', 'src/shared'],
    why: 'an adapter turns inputs into settings and renders results: the work is the job layer’s (src/job); the action bundles neither the CLI nor the emulator.',
  },
  {
    // Last: the entry points at the top of src (src/index.ts, src/lib.ts, the subpath entries).
    room: 'src',
    may: [
      'src/action',
      'src/publish',
      'src/parsers',
      'src/client',
      'src/dashboard',
      'src/emulator',
      'src/schema',
      'src/shared',
    ],
    why: 'an entry point names what a package entry offers, from the rooms’ own entrances.',
  },
];

/** The files at the top of src: the package's entry points (package.json main and exports, the action's). */
export const ENTRY_POINTS = [
  'src/index.ts',
  'src/lib.ts',
  'src/lib-dashboard.ts',
  'src/lib-emulator.ts',
];

/**
 * Where a room may be entered from outside it: its index.ts (the action by main.ts's run(), as
 * actions/typescript-action's src/index.ts calls it); the leaves src/shared and src/schema by any
 * of their modules.
 */
const ENTRANCES = { 'src/action': ['main.ts'], 'src/shared': ['*.ts'], 'src/schema': ['*.ts'] };

const CITE = '(docs/architecture.md "Who may import whom")';
const element = (type) => ({ element: { type } });
const entrances = (room) => ENTRANCES[room] ?? ['index.ts'];
/** A room's files at its entrance (`at`), or its files elsewhere. */
const entered = (room, at) => ({
  element: {
    type: room,
    fileInternalPath: at ? entrances(room) : entrances(room).map((e) => `!${e}`),
  },
});

export const layerRules = [
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
      'boundaries/elements': ROOMS.map(({ room }) => ({
        type: room,
        pattern: room,
        partialMatch: false,
      })),
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Per room, the last policy that matches decides: every import refused with the room's
          // reason; an import of a room it may use, but not through that room's entrance, refused
          // with where to enter; its own files, and the rooms it may use by their entrance, allowed.
          policies: ROOMS.flatMap(({ room, may, why }) => [
            {
              from: element(room),
              disallow: { to: element('**') },
              message: `Bad layering: ${room} may not import {{to.type}}; ${why} ${CITE}`,
            },
            ...may.map((other) => ({
              from: element(room),
              disallow: { to: entered(other, false) },
              message: `Bad layering: ${other} is entered through ${entrances(other).join(' or ')}, not {{to.internalPath}} ${CITE}`,
            })),
            { from: element(room), allow: { to: element(room) } },
            ...may.map((other) => ({ from: element(room), allow: { to: entered(other, true) } })),
          ]),
        },
      ],
    },
  },
  {
    // Every file of src is in a room: a new folder gets its row in ROOMS, a new entry point its
    // name in ENTRY_POINTS, before either can hold code.
    files: ['src/**/*.ts'],
    ignores: [
      ...ROOMS.filter(({ room }) => room !== 'src').map(({ room }) => `${room}/**`),
      ...ENTRY_POINTS,
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: `This file is in no room of src: a folder needs its row in ROOMS of eslint.config.js, an entry point at the top of src its name in ENTRY_POINTS ${CITE}`,
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/action/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@actions/*'], message: 'Only src/action may import @actions/*.' }],
        },
      ],
    },
  },
];

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
