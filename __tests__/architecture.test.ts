/**
 * docs/architecture.md says what the tree is: its folder table has a row for every folder of src
 * and every entry point at its top, and its picture of who may import whom is the rooms of
 * eslint.config.js, so a room added, moved or removed fails here until the page follows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain .js config, no types
import { ROOMS as ROOM_ROWS } from '../eslint.config.js';

const ROOMS = ROOM_ROWS as { room: string; may: string[] }[];

const page = readFileSync('docs/architecture.md', 'utf8');

/** The text of a `## heading` section, up to the next one. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

/** Every folder of src (with its trailing slash) and every file at its top. */
function tree(dir = 'src'): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) out.push(`${path}/`, ...tree(path).filter((p) => p.endsWith('/')));
    else if (dir === 'src') out.push(path);
  }
  return out;
}

test('the folder table has a row for every folder of src and every file at its top, and no other', () => {
  const rows = [...section('Layers and what each folder owns').matchAll(/^\| `([^`]+)` +\|/gm)].map(
    (m) => m[1]!,
  );
  expect([...rows].sort()).toEqual(tree().sort());
});

test('the picture of who may import whom is the rooms of eslint.config.js', () => {
  const block = /```\n([\s\S]*?)```/.exec(section('Who may import whom'))![1]!;
  const drawn = Object.fromEntries(
    block
      .trim()
      .split('\n')
      .map((line) => {
        const [room, may] = line.split(' ->');
        return [room!.replace(' (entry points)', ''), may!.trim() ? may!.trim().split(', ') : []];
      }),
  );
  expect(drawn).toEqual(Object.fromEntries(ROOMS.map(({ room, may }) => [room, may])));
});
