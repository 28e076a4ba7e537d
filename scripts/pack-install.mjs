// The npm package as a user gets it: `npm pack` of this project, then `npm install` of the
// tarball into a new empty ESM project under `work`. Used by the package test and the bench.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `npm pack` into `work`: npm's record of the tarball (filename, size, entryCount, files). */
export function pack(work) {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 32 << 20,
    }),
  );
  return packed;
}

/** Returns npm pack's record of the tarball (size, unpackedSize, entryCount, files) and the project. */
export function packAndInstall(work) {
  const packed = pack(work);
  const project = join(work, 'user-project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    [
      'install',
      join(work, packed.filename),
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
    ],
    { cwd: project, stdio: 'ignore' },
  );
  return { packed, project };
}
