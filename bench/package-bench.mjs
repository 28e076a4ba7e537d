// The npm package as users get it: the tarball's size and files (npm pack), and what
// `npm install testcycle` puts in a fresh project's node_modules (packages and bytes).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function duBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += duBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

export function packageFootprint() {
  const work = mkdtempSync(join(tmpdir(), 'testcycle-package-bench-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], { encoding: 'utf8' }),
    );
    const project = join(work, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{"name":"p","private":true,"type":"module"}');
    execFileSync(
      'npm',
      ['install', join(work, packed.filename), '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: project, stdio: 'ignore' },
    );
    const modules = join(project, 'node_modules');
    const packages = readdirSync(modules)
      .filter((n) => !n.startsWith('.'))
      .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)) : [n]));
    return {
      tarballBytes: packed.size,
      unpackedBytes: packed.unpackedSize,
      files: packed.entryCount,
      topLevelFolders: [...new Set(packed.files.map((f) => f.path.split('/')[0]))].sort(),
      installedPackages: packages.length,
      installedBytes: duBytes(modules),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(packageFootprint());
