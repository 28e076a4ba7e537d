/**
 * Words for people: counts (`1 test case`, `2 test cases`), and settings named in each adapter's
 * words (`--max-failed` on a command line, input `max-failed` in a workflow).
 */

/** `n` and the noun, plural unless n is 1: `plural(1, 'test case')`, `plural(3, 'body', 'bodies')`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * How an adapter's users write a setting named by its key: `--reopen-done-cycle` on a command
 * line, input `reopen-done-cycle` in a workflow. A name that is no setting (an environment
 * variable, a file) stays as it is.
 */
export interface SettingWords {
  /** The setting itself: `--max-failed`, `input max-failed`. */
  name(key: string): string;
  /** The setting given a value: `--on-unmatched fail`, `--no-create-cycle`; `create-cycle: false`. */
  value(key: string, value: string | boolean): string;
  /**
   * Another command with these settings besides those of this run that it takes too, written to
   * be run as it stands: a command line (`testcycle sync --report 'build/*.xml' --migrate-keys
   * '{classname}.{name}'`), a step (`mode: sync`). Absent: see `commandOf`.
   */
  command?(name: string, settings: Readonly<Record<string, string>>): string;
}

/** `words.command`, or the command's name and the settings' values where an adapter has none. */
export function commandOf(
  words: SettingWords,
  name: string,
  settings: Readonly<Record<string, string>>,
): string {
  if (words.command) return words.command(name, settings);
  const values = Object.entries(settings).map(([key, value]) => words.value(key, value));
  return `${name} with ${values.join(', ')} and this run's other settings`;
}

/** Text that names settings, rendered by each adapter in its users' words. */
export type Words = (words: SettingWords) => string;

/** Settings by their keys, as the library's `settingsFrom` takes them. */
export const KEY_WORDS: SettingWords = {
  name: (key) => key,
  value: (key, value) => `${key}: ${value}`,
};

export function render(text: string | Words, words: SettingWords = KEY_WORDS): string {
  return typeof text === 'string' ? text : text(words);
}
