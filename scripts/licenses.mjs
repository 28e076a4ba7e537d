// dist/licenses.txt: the license of every production dependency bundled into dist/ (ncc's own
// list misses modules in lazily loaded chunks). Sorted, so a rebuild gives the same file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function resolvePackage(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const seen = new Map();
// The @actions packages are devDependencies (the npm package does not ship the action adapter),
// but the bundle holds them.
const bundled = [...Object.keys(root.dependencies ?? {}), '@actions/core', '@actions/github'];
const queue = bundled.map((name) => [name, process.cwd()]);
while (queue.length) {
  const [name, from] = queue.shift();
  const file = resolvePackage(name, from);
  if (!file) continue;
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const key = `${pkg.name}@${pkg.version}`;
  if (seen.has(key)) continue;
  const dir = dirname(file);
  const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\..*)?$/i.test(f));
  seen.set(key, {
    name: pkg.name,
    license: pkg.license ?? 'UNKNOWN',
    text: licenseFile ? readFileSync(join(dir, licenseFile), 'utf8').trim() : '',
  });
  for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push([dep, dir]);
}
const entries = [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
writeFileSync(
  'dist/licenses.txt',
  entries.map((e) => `${e.name}\n${e.license}\n${e.text}`).join('\n\n') + '\n',
);
