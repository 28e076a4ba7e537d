/**
 * Name patterns of series (src/domain/series.ts): each placeholder matches only what it stands
 * for, a name is read once whatever the pattern, and a series narrows to one branch's cycles.
 */
import {
  compilePattern,
  describeSeries,
  laneOf,
  matchesPattern,
  placeholderValues,
  recordsOf,
} from '../../src/domain/series.js';
import { toFiltrQL } from '../../src/client/filter.js';
import { patternFilter } from '../../src/domain/series.js';

describe('a placeholder matches only what it stands for', () => {
  test.each([
    // A branch named like a nightly is not a nightly.
    ['Nightly {date}', 'Nightly 2026-11-25', true],
    ['Nightly {date}', 'Nightly fix-login', false],
    ['Nightly {date}', 'Nightly 2026-11-25 (copy)', false],
    ['Nightly main {date}', 'Nightly main 2026-11-25', true],
    ['Nightly main {date}', 'Nightly main evil 2026-11-25', false],
    ['Nightly {datetime}', 'Nightly 2026-11-25 04:10', true],
    ['Nightly {datetime}', 'Nightly 2026-11-25', false],
    ['CI {sha7}', 'CI 0a1b2c3', true],
    ['CI {sha7}', 'CI 0a1b2c', false],
    ['CI {sha7}', 'CI release', false],
    ['CI {sha}', 'CI 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567', true],
    ['CI {sha}', 'CI main', false],
    ['PR {pr}', 'PR 17', true],
    ['PR {pr}', 'PR main', false],
    ['Run {run_number}', 'Run 20261125.1', true],
    ['Run {run_id}', 'Run 3f0c0e4e-0000-4000-8000-000000000001', true],
    ['Run {run_id}', 'Run two words', false],
    ['CI {branch} {sha7}', 'CI feature/login-form 0a1b2c3', true],
    ['CI {branch} {sha7}', 'CI two words 0a1b2c3', false],
    ['{env:STAGE} tests', 'staging and more tests', true],
    ['Nightly *', 'Nightly anything at all', true],
    ['Nightly *', 'Nightly ', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(matchesPattern(pattern, name)).toBe(expected);
  });

  test('placeholderValues says what each placeholder held', () => {
    expect(placeholderValues('PR {pr} {sha7}', 'PR 7 0a1b2c3')).toEqual({
      pr: '7',
      sha7: '0a1b2c3',
    });
    expect(placeholderValues('CI {branch}-{sha7}', 'CI feat-x-0a1b2c3')).toEqual({
      branch: 'feat-x',
      sha7: '0a1b2c3',
    });
    expect(placeholderValues('PR {pr} {sha7}', 'PR x 0a1b2c3')).toBeUndefined();
  });

  test('a name is read once: a long name against many stars ends, and a huge one is no name of a series', () => {
    const name = `${'a '.repeat(2000)}!`;
    expect(matchesPattern('* * * * * * *x', name)).toBe(false);
    expect(matchesPattern('*', 'x'.repeat(5000))).toBe(false);
  });
});

describe('one branch of a series (like with like)', () => {
  test("PR 7's lane holds PR 7's cycles only, and the service is asked for them by name", () => {
    const lane = laneOf('PR {pr} {sha7}', 'PR 7 0a1b2c3');
    expect(matchesPattern(lane, 'PR 7 ffffff1')).toBe(true);
    expect(matchesPattern(lane, 'PR 17 ffffff1')).toBe(false);
    expect(matchesPattern(lane, 'PR 6 0a1b2c3')).toBe(false);
    expect(toFiltrQL(patternFilter(lane)!)).toBe('name ~ "PR 7 "');
    expect(describeSeries(lane)).toBe('"PR {pr} {sha7}" (pr 7)');
  });

  test('a branch lane, a commit lane when only the commit is named, the whole series otherwise', () => {
    const branch = laneOf('CI {branch} {sha7}', 'CI main 0a1b2c3', true);
    expect(matchesPattern(branch, 'CI main 1111111')).toBe(true);
    expect(matchesPattern(branch, 'CI feature 0a1b2c3')).toBe(false);
    const commit = laneOf('CI {sha7} #{run_number}', 'CI 0a1b2c3 #4', true);
    expect(matchesPattern(commit, 'CI 0a1b2c3 #5')).toBe(true);
    expect(matchesPattern(commit, 'CI 1111111 #5')).toBe(false);
    // Without `commit` (the previous cycle of a series), a commit does not narrow it.
    expect(
      matchesPattern(laneOf('CI {sha7} #{run_number}', 'CI 0a1b2c3 #4'), 'CI 1111111 #3'),
    ).toBe(true);
    const whole = laneOf('Nightly {date}', 'Nightly 2026-11-25', true);
    expect(whole.fixed).toEqual({});
    expect(recordsOf('Nightly {date}')).toEqual({ branch: false, commit: false });
    expect(recordsOf('PR {pr} {sha7}')).toEqual({ branch: true, commit: true });
  });

  test('a value given to a placeholder is literal text, whatever it holds', () => {
    const p = compilePattern('CI {branch} *', { branch: 'a*{date}' });
    expect(matchesPattern(p, 'CI a*{date} x')).toBe(true);
    expect(matchesPattern(p, 'CI ab2026-11-25 x')).toBe(false);
  });
});
