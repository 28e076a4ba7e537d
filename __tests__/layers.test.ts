/**
 * The layer rule of eslint.config.js (docs/architecture.md "Who may import whom") fails `npm run
 * lint` on an import that breaks a layer, whatever its spelling, and lets the allowed ones through:
 * each case lints a small module placed in a room, as `npm run lint` would (the imports are
 * resolved to the files of this repository).
 */
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
// @ts-expect-error: a plain .js config, no types
import { ENTRY_POINTS, ROOMS } from '../eslint.config.js';

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages of the layer rules (boundaries, the room guard, @actions/*) on one module. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result!.messages
    .filter((m) =>
      ['boundaries/dependencies', 'no-restricted-syntax', 'no-restricted-imports'].includes(
        m.ruleId ?? '',
      ),
    )
    .map((m) => m.message);
}

const layering = (from: string, to: string) =>
  expect.stringMatching(new RegExp(`^Bad layering: ${from} may not import ${to};`));
const entrance = (room: string, file: string) =>
  expect.stringMatching(
    new RegExp(`^Bad layering: ${room} is entered through index\\.ts, not ${file} `),
  );

describe('the holes of a rule written as patterns over import strings are closed', () => {
  test('a dynamic import() is checked like a static one', async () => {
    expect(
      await problems('src/parsers/x.ts', "export const c = await import('../client/client.js');"),
    ).toEqual([layering('src/parsers', 'src/client')]);
  });

  test('a path spelled another way (./../) is the file it resolves to', async () => {
    expect(
      await problems('src/parsers/x.ts', "import { ServiceClient } from './../client/index.js';"),
    ).toEqual([layering('src/parsers', 'src/client')]);
    expect(
      await problems(
        'src/emulator/x.ts',
        "import { ServiceClient } from '../emulator/../client/index.js';",
      ),
    ).toEqual([layering('src/emulator', 'src/client')]);
  });

  test('a file whose name only starts like a room (settings/sync.ts, once settings-sync.ts) is that room', async () => {
    // The client may read the settings table, through its entrance only.
    expect(
      await problems('src/client/x.ts', "import { SYNC_SETTINGS } from '../settings/sync.js';"),
    ).toEqual([entrance('src/settings', 'sync.ts')]);
    // The parsers may not read it at all, by any file.
    expect(
      await problems('src/parsers/x.ts', "import { SYNC_SETTINGS } from '../settings/sync.js';"),
    ).toEqual([layering('src/parsers', 'src/settings')]);
  });

  test('a barrel cannot leak a room: the emulator may not import the dashboard’s, which reads through the client', async () => {
    expect(
      await problems('src/emulator/x.ts', "import { renderHtml } from '../dashboard/index.js';"),
    ).toEqual([layering('src/emulator', 'src/dashboard')]);
    // ... and the pure part's barrel, which it may import, cannot re-export the part that reads.
    expect(await problems('src/dashboard/render/x.ts', "export * from '../series.js';")).toEqual([
      layering('src/dashboard/render', 'src/dashboard'),
    ]);
    expect(
      await problems(
        'src/emulator/x.ts',
        "import { renderHtml } from '../dashboard/render/index.js';",
      ),
    ).toEqual([]);
  });

  test('every file of src is in a room: the entry points at the top are held too, and no other file or folder is allowed', async () => {
    expect(await problems('src/lib.ts', "export { main } from './cli/main.js';")).toEqual([
      layering('src', 'src/cli'),
    ]);
    expect(await problems('src/lib.ts', "export { publish } from './publish/publish.js';")).toEqual(
      [entrance('src/publish', 'publish.ts')],
    );
    for (const file of ['src/helpers.ts', 'src/newroom/a.ts'])
      expect(await problems(file, 'export const a = 1;')).toEqual([
        expect.stringContaining('This file is in no room of src'),
      ]);
  });
});

describe('a wrong import fails lint with the layer it breaks', () => {
  test.each([
    [
      'src/parsers/formats/x.ts',
      "import { ServiceError } from '../../client/index.js';",
      'src/client',
    ],
    ['src/parsers/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/emulator/x.ts', "import type { ServiceClient } from '../client/index.js';", 'src/client'],
    ['src/emulator/x.ts', "import { gateCycle } from '../publish/index.js';", 'src/publish'],
    [
      'src/dashboard/render/x.ts',
      "import { passRate } from '../../publish/index.js';",
      'src/publish',
    ],
    ['src/dashboard/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/client/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/client/x.ts', "import { readReports } from '../parsers/index.js';", 'src/parsers'],
    ['src/shared/x.ts', "import { f } from '../client/index.js';", 'src/client'],
    ['src/shared/x.ts', "import { SETTINGS } from '../settings/index.js';", 'src/settings'],
    ['src/settings/x.ts', "import { DEFAULT_TIMEOUT_MS } from '../client/index.js';", 'src/client'],
    ['src/schema/x.ts', "import { oneLine } from '../publish/index.js';", 'src/publish'],
    ['src/domain/x.ts', "import { readTriage } from '../triage/index.js';", 'src/triage'],
    ['src/triage/x.ts', "import { gateCycle } from '../publish/index.js';", 'src/publish'],
    ['src/triage/x.ts', "import { sync } from '../inventory/index.js';", 'src/inventory'],
    ['src/inventory/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/publish/x.ts', "import { runJob } from '../job/index.js';", 'src/job'],
    ['src/publish/x.ts', "import { renderHtml } from '../dashboard/index.js';", 'src/dashboard'],
    ['src/job/x.ts', "import { main } from '../cli/main.js';", 'src/cli'],
    ['src/cli/x.ts', "import { run } from '../action/main.js';", 'src/action'],
    ['src/cli/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/action/x.ts', "import { startEmulator } from '../emulator/index.js';", 'src/emulator'],
    ['src/action/x.ts', "import { ServiceClient } from '../client/index.js';", 'src/client'],
  ])('%s: %s', async (file, code, layer) => {
    expect(await problems(file, code)).toEqual([
      layering(
        file
          .split('/')
          .slice(0, file.startsWith('src/dashboard/render') ? 3 : 2)
          .join('/'),
        layer,
      ),
    ]);
  });

  test('a room is entered through its index.ts', async () => {
    expect(
      await problems('src/publish/x.ts', "import { readTriage } from '../triage/triage.js';"),
    ).toEqual([entrance('src/triage', 'triage.ts')]);
  });

  test('@actions/* outside src/action', async () => {
    expect(await problems('src/job/x.ts', "import * as core from '@actions/core';")).toEqual([
      expect.stringContaining('Only src/action may import @actions/*.'),
    ]);
  });
});

describe('the allowed imports pass', () => {
  test.each([
    ['src/parsers/x.ts', "import { ConfigError } from '../shared/errors.js';"],
    ['src/emulator/x.ts', "import { countsFrom } from '../schema/counts.js';"],
    ['src/dashboard/x.ts', "import { ServiceClient } from '../client/index.js';"],
    ['src/dashboard/x.ts', "import { text } from '../settings/index.js';"],
    ['src/publish/x.ts', "import { readTriage } from '../triage/index.js';"],
    ['src/publish/x.ts', "import { sync } from '../inventory/index.js';"],
    ['src/client/x.ts', "import { SETTINGS } from '../settings/index.js';"],
    ['src/settings/x.ts', "import { DEFAULT_LAST } from '../shared/defaults.js';"],
    ['src/cli/x.ts', "import { startEmulator } from '../emulator/index.js';"],
    ['src/cli/x.ts', "import { runJob } from '../job/index.js';"],
    ['src/action/x.ts', "import * as core from '@actions/core';"],
    ['src/publish/x.ts', "import { request } from 'undici';"],
  ])('%s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe('the rooms of the rule are the folders of src', () => {
  test('every folder of src is a room, and every room a folder', () => {
    const folders = readdirSync('src', { recursive: true, withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(`${d.parentPath}/${d.name}`).length > 0)
      .map((d) => `${d.parentPath}/${d.name}`.replace(/\\/g, '/'));
    const rooms: string[] = ROOMS.map((r: { room: string }) => r.room).filter(
      (r: string) => r !== 'src',
    );
    // A room may hold folders of its own (src/parsers/formats); every top-level folder is a room.
    expect(folders.filter((f) => f.split('/').length === 2).sort()).toEqual(
      rooms.filter((r) => r.split('/').length === 2).sort(),
    );
    for (const room of rooms) expect(folders).toContain(room);
  });

  test('the files at the top of src are the entry points', () => {
    const files = readdirSync('src', { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => `src/${d.name}`);
    expect(files.sort()).toEqual([...ENTRY_POINTS].sort());
  });
});
