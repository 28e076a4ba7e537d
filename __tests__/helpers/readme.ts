/**
 * The README's runnable recipes: the shell block after each `<!-- readme-run: NAME -->` marker,
 * and a shell that runs one as a user's terminal does (bash -e), npm answering from its cache.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const readme = readFileSync('README.md', 'utf8');
export const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
/** Where a release's npm package is downloaded from (README "Install"); tests use their own pack. */
export const RELEASE = `https://github.com/your-org/testcycle/releases/download/v${version}/testcycle-${version}.tgz`;

/** The shell block after `<!-- readme-run: NAME -->`. */
export function readmeBlock(name: string): string {
  const m = new RegExp(`<!-- readme-run: ${name} -->\\n\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(
    readme,
  );
  if (!m) throw new Error(`README.md has no block marked readme-run: ${name}`);
  return m[1]!;
}

export interface Shell {
  code: number;
  out: string;
  err: string;
}

/** bash -e -o pipefail in `cwd`, without the TESTCYCLE_* variables of the test run. */
export function sh(script: string, cwd: string, env: Record<string, string> = {}): Promise<Shell> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('TESTCYCLE_')),
  );
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', script],
      {
        cwd,
        timeout: 600_000,
        maxBuffer: 32 << 20,
        env: {
          ...clean,
          npm_config_prefer_offline: 'true',
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          ...env,
        },
      },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    ),
  );
}
