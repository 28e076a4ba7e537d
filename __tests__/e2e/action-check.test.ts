/** Runs the committed bundle (dist/index.js) as GitHub would, with INPUT_* variables. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAll, startServer } from '../helpers/http-server.js';

const TOKEN = 'tc_action_fedcba9876543210fedcba98';

afterEach(closeAll);

function runAction(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-action-'));
  const outputFile = join(dir, 'output');
  writeFileSync(outputFile, '');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GITHUB_OUTPUT: outputFile };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return new Promise<{ code: number; stdout: string; outputs: string }>((resolve) => {
    execFile(process.execPath, ['dist/index.js'], { env, timeout: 20_000 }, (error, stdout) => {
      resolve({
        code: error ? Number(error.code ?? 1) : 0,
        stdout,
        outputs: readFileSync(outputFile, 'utf8'),
      });
    });
  });
}

describe('action (dist/index.js), mode check', () => {
  test('sets outputs and masks the token', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: { data: [{ type: 'projects', id: 'p1', attributes: { name: 'Demo' } }] },
    }));
    const result = await runAction({
      mode: 'check',
      'base-url': server.url,
      token: TOKEN,
      verbose: 'true',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`::add-mask::${TOKEN}`);
    expect(result.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
    expect(result.outputs).toMatch(/project-id<<.*\np1\n/);
    expect(result.outputs).toMatch(/requests<<.*\n1\n/);
  });

  test('a mode that is not built yet fails clearly before any request', async () => {
    const server = await startServer(() => ({ status: 200, body: { data: [] } }));
    const result = await runAction({
      mode: 'publish',
      'base-url': server.url,
      token: TOKEN,
      verbose: 'false',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Input mode: "publish" is not available in this version/,
    );
    expect(server.log).toHaveLength(0);
  });
});
