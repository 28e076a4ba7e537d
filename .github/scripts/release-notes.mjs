// Prints the section of CHANGELOG.md for one version (the release notes of vX.Y.Z), without its
// heading. Fails when the section is missing or empty, so no release goes out without notes.
import { readFileSync } from 'node:fs';

export function releaseNotes(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const body = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
  return body || undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const version = process.argv[2];
  const notes = version && releaseNotes(readFileSync('CHANGELOG.md', 'utf8'), version);
  if (!notes) {
    console.error(`CHANGELOG.md has no notes under "## [${version}]": add them before tagging.`);
    process.exit(1);
  }
  console.log(notes);
}
