// The package.json that `npm pack` puts in the tarball: without the `prepare` script. `prepare`
// builds lib/ where npm installs testcycle from a git URL (npm runs a git dependency's `prepare`,
// and no other script, before packing it: README "Install"); a tarball and the registry's package
// hold lib/ already, and npm warns of any install script a package declares. So `prepack` strips
// it from package.json and `postpack` puts the file back as it was, byte for byte (the pattern of
// the pinst tool). `strip` first restores a copy a broken pack left behind.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const FILE = 'package.json';
const KEPT = 'package.json.before-pack';

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, FILE);
}

const action = process.argv[2];
if (action === 'strip') {
  restore();
  const text = readFileSync(FILE, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare !== undefined) {
    writeFileSync(KEPT, text);
    delete manifest.scripts.prepare;
    // Renamed into place: a process reading package.json meanwhile sees one whole file or the other.
    writeFileSync(`${FILE}.packing`, `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(`${FILE}.packing`, FILE);
  }
} else if (action === 'restore') {
  restore();
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
