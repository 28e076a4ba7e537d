/**
 * The layer rule of eslint.config.js (docs/architecture.md "Who may import whom") fails `npm run
 * lint` on an import that breaks a layer, and lets the allowed ones through: each case lints a
 * one-line module placed in a zone.
 */
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('a wrong import fails lint with the layer it breaks', () => {
  test.each([
    [
      'src/parsers/formats/x.ts',
      "import { ServiceError } from '../../client/errors.js';",
      'src/client',
    ],
    ['src/parsers/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/emulator/x.ts', "import { ServiceClient } from '../client/client.js';", 'src/client'],
    [
      'src/emulator/x.ts',
      "import { readSeries } from '../dashboard/service/series.js';",
      'src/dashboard/service',
    ],
    ['src/emulator/x.ts', "import { gateCycle } from '../publish/gate.js';", 'src/publish'],
    ['src/dashboard/html.ts', "import { readSeries } from './service/series.js';", './service'],
    ['src/dashboard/analyze.ts', "import { passRate } from '../publish/gate.js';", 'src/publish'],
    ['src/client/x.ts', "import { publish } from '../publish/index.js';", 'src/publish'],
    ['src/parsers/x.ts', "import { SETTINGS } from '../settings/index.js';", 'src/settings'],
    ['src/shared/x.ts', "import { f } from '../client/filter.js';", 'src/client'],
    ['src/shared/x.ts', "import { SETTINGS } from '../settings/index.js';", 'src/settings'],
    [
      'src/settings/table.ts',
      "import { DEFAULT_TIMEOUT_MS } from '../client/transport.js';",
      'src/client',
    ],
    [
      'src/settings/table.ts',
      "import { DEFAULT_KEY_PATTERN } from '../publish/match.js';",
      'src/publish',
    ],
    ['src/settings/sync.ts', "import { FORMAT_IDS } from '../parsers/registry.js';", 'src/parsers'],
    ['src/schema/x.ts', "import { oneLine } from '../publish/summary.js';", 'src/publish'],
    ['src/publish/x.ts', "import { main } from '../cli/main.js';", 'src/cli'],
    ['src/publish/x.ts', "import { renderHtml } from '../dashboard/html.js';", 'src/dashboard'],
    ['src/cli/x.ts', "import { run } from '../action/main.js';", 'src/action'],
    ['src/action/x.ts', "import { startEmulator } from '../emulator/index.js';", 'src/emulator'],
  ])('%s: %s', async (file, code, layer) => {
    const messages = await problems(file, code);
    expect(messages).toEqual([
      expect.stringMatching(
        new RegExp(`Bad layering: .* may not import ${layer.replace(/[./]/g, '\\$&')};`),
      ),
    ]);
  });

  test('@actions/* outside src/action', async () => {
    expect(await problems('src/publish/x.ts', "import * as core from '@actions/core';")).toEqual([
      expect.stringContaining('Only src/action may import @actions/*.'),
    ]);
  });
});

describe('the allowed imports pass', () => {
  test.each([
    ['src/parsers/x.ts', "import { ConfigError } from '../shared/errors.js';"],
    ['src/emulator/x.ts', "import { renderHtml } from '../dashboard/html.js';"],
    ['src/emulator/x.ts', "import { countsFrom } from '../schema/counts.js';"],
    ['src/dashboard/service/x.ts', "import { ServiceClient } from '../../client/client.js';"],
    ['src/publish/x.ts', "import { ServiceClient } from '../client/client.js';"],
    ['src/settings/table.ts', "import { DEFAULT_LAST } from '../shared/defaults.js';"],
    ['src/dashboard/service/x.ts', "import { text } from '../../settings/index.js';"],
    ['src/cli/x.ts', "import { startEmulator } from '../emulator/index.js';"],
    ['src/action/x.ts', "import * as core from '@actions/core';"],
  ])('%s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
