/**
 * docs/architecture.md says what the tree is: its folder table has a row for every folder of src
 * and every entry point at its top, and its picture of who may import whom is the rooms of
 * eslint.config.js, so a room added, moved or removed fails here until the page follows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The modules of src each module imports (import, export-from, dynamic import(); type-only too). */
function importGraph(): Map<string, string[]> {
  const files = (function walk(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
    );
  })('src');
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map(
      (m) => join(dirname(file), m[1]!).replace(/\.js$/, '.ts'),
    );
    graph.set(file, imports);
  }
  return graph;
}

/** Each circle of the graph, once, as the path that closes it. */
function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open')
        found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

test('no module of src imports another in a circle, type-only imports included, nor any folder', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph)).toEqual([]);
  const folders = new Map<string, string[]>();
  for (const [file, imports] of graph)
    folders.set(dirname(file), [
      ...(folders.get(dirname(file)) ?? []),
      ...imports.map(dirname).filter((d) => d !== dirname(file)),
    ]);
  expect(circles(folders)).toEqual([]);
});

test('a circle is found, of two modules as of three', () => {
  expect(
    circles(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
        ['c', ['d']],
        ['d', ['e']],
        ['e', ['c']],
      ]),
    ),
  ).toEqual(['a -> b -> a', 'c -> d -> e -> c']);
});
