// The npm package as users get it: the tarball's size and files (npm pack), and what
// `npm install testcycle` puts in a fresh project's node_modules (packages and bytes).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packAndInstall } from '../scripts/pack-install.mjs';

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
    const { packed, project } = packAndInstall(work);
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
