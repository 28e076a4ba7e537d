// The README's inputs/outputs reference, generated from action.yml (one source of truth).
// `node scripts/readme-reference.mjs` rewrites the block between the markers; a test fails when they drift.
import { readFileSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import prettier from 'prettier';

export const START =
  '<!-- action-reference:start (generated from action.yml by scripts/readme-reference.mjs) -->';
export const END = '<!-- action-reference:end -->';

const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

export function reference(actionYml) {
  const action = yaml.load(actionYml);
  const inputs = Object.entries(action.inputs).map(
    ([name, i]) =>
      `| \`${name}\` | ${i.required ? 'yes' : ''} | ${i.default === undefined ? '' : `\`${cell(i.default)}\``} | ${cell(i.description)} |`,
  );
  const outputs = Object.entries(action.outputs).map(
    ([name, o]) => `| \`${name}\` | ${cell(o.description)} |`,
  );
  return [
    START,
    '',
    '**Inputs**',
    '',
    '| input | required | default | description |',
    '|---|---|---|---|',
    ...inputs,
    '',
    '**Outputs**',
    '',
    '| output | description |',
    '|---|---|',
    ...outputs,
    '',
    END,
  ].join('\n');
}

/** The README with a fresh reference, formatted as `prettier --write` would (so lint and this agree). */
export async function withReference(readme, actionYml) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error('README.md has no action-reference markers');
  const text = readme.slice(0, start) + reference(actionYml) + readme.slice(end + END.length);
  const options = (await prettier.resolveConfig('README.md')) ?? {};
  return prettier.format(text, { ...options, parser: 'markdown' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(
    'README.md',
    await withReference(readFileSync('README.md', 'utf8'), readFileSync('action.yml', 'utf8')),
  );
}
