// The inputs of action.yml and the README's inputs/flags/outputs reference, generated from the
// settings table (src/settings/table.ts: one declaration per setting). `npm run build` first, then
// `node scripts/readme-reference.mjs` rewrites both; __tests__/docs.test.ts fails when they drift.
import { readFileSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import prettier from 'prettier';

export const START =
  '<!-- action-reference:start (generated from src/settings/table.ts by scripts/readme-reference.mjs) -->';
export const END = '<!-- action-reference:end -->';

const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const code = (s) => (s === undefined || s === '' ? '' : `\`${cell(s)}\``);

/** What action.yml says of an input, from its setting (the test compares action.yml to this). */
export function actionInput(setting, allModes) {
  return {
    description: setting.description,
    // action.yml `required` means every mode needs it; `reports` is required in publish only.
    required: !!setting.required && setting.modes.length === allModes.length,
    ...((setting.actionDefault ?? setting.default) === undefined
      ? {}
      : { default: setting.actionDefault ?? setting.default }),
  };
}

/** The `inputs:` block of action.yml. */
export function inputsYaml({ SETTINGS, MODES }) {
  const inputs = Object.fromEntries(
    Object.entries(SETTINGS)
      .filter(([, s]) => s.modes)
      .map(([key, s]) => [key, actionInput(s, MODES)]),
  );
  return yaml.dump({ inputs }, { lineWidth: -1, quotingType: "'", forceQuotes: false });
}

/** Where a setting is used: action modes, and each flag with its commands (`--name` (cycle create)). */
function uses(key, s, flagNameOf, allModes) {
  const modes = !s.modes ? '' : s.modes.length === allModes.length ? 'all' : s.modes.join(', ');
  const commandsOf = new Map();
  for (const c of s.commands ?? []) {
    const flag = flagNameOf(key, c);
    const typed = s.type === 'boolean' && s.default === 'true' ? `no-${flag}` : flag;
    commandsOf.set(typed, [...(commandsOf.get(typed) ?? []), c]);
  }
  const flags = [...commandsOf].map(([flag, commands]) => `\`--${flag}\` (${commands.join(', ')})`);
  return { modes, flags: flags.join('; ') };
}

export function reference({ SETTINGS, MODES, flagNameOf }, actionYml) {
  const action = yaml.load(actionYml);
  const rows = Object.entries(SETTINGS).map(([key, s]) => {
    const where = uses(key, s, flagNameOf, MODES);
    const input = s.modes ? `\`${key}\`${actionInput(s, MODES).required ? ' (required)' : ''}` : '';
    return `| ${input} | ${where.modes} | ${where.flags} | ${code(s.actionDefault ?? s.default)} | ${code(s.env)} | ${cell(s.description)} |`;
  });
  const outputs = Object.entries(action.outputs).map(
    ([name, o]) => `| \`${name}\` | ${cell(o.description)} |`,
  );
  return [
    START,
    '',
    '**Inputs and flags**',
    '',
    '| input | modes | CLI | default | env | description |',
    '|---|---|---|---|---|---|',
    ...rows,
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

async function formatted(text, parser, file) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, parser });
}

/** The README with a fresh reference, formatted as `prettier --write` would (so lint and this agree). */
export async function withReference(readme, actionYml, settings) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error('README.md has no action-reference markers');
  const text =
    readme.slice(0, start) + reference(settings, actionYml) + readme.slice(end + END.length);
  return formatted(text, 'markdown', 'README.md');
}

/** action.yml with its `inputs:` block generated from the table (the rest is kept). */
export async function withInputs(actionYml, settings) {
  const start = actionYml.indexOf('\ninputs:\n');
  const end = actionYml.indexOf('\noutputs:\n');
  if (start < 0 || end < 0) throw new Error('action.yml has no inputs: or outputs: block');
  const text = `${actionYml.slice(0, start + 1)}${inputsYaml(settings)}${actionYml.slice(end)}`;
  return formatted(text, 'yaml', 'action.yml');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = await import('../lib/settings/index.js');
  const actionYml = await withInputs(readFileSync('action.yml', 'utf8'), settings);
  writeFileSync('action.yml', actionYml);
  writeFileSync(
    'README.md',
    await withReference(readFileSync('README.md', 'utf8'), actionYml, settings),
  );
}
