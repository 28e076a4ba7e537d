/** Progress of the writes: a line at each 5% step (at most one a second) or every interval, with an ETA. */
import { formatDuration, Progress } from '../../src/publish/progress.js';

function runOf(total: number, msPerResult: number, intervalMs?: number) {
  let now = 0;
  const lines: string[] = [];
  const progress = new Progress(total, {
    sink: (line) => lines.push(line),
    intervalMs,
    requests: () => now / 100,
    now: () => now,
  });
  progress.begin(total - 2, 2, 5);
  for (let i = 0; i < total; i++) {
    now += msPerResult;
    progress.step();
  }
  progress.end();
  return lines;
}

test('a slow publish: a line at each 5% step, with the ETA from the pace so far', () => {
  const lines = runOf(100, 600);
  expect(lines[0]).toBe('writing 100 results (98 new, 2 changed, 5 unchanged)');
  // 5, 10, ... 100: twenty lines after the first, no duplicate at the end.
  expect(lines).toHaveLength(21);
  expect(lines[1]).toBe('5/100 results written, 30 requests ETA 57s');
  expect(lines[10]).toBe('50/100 results written, 300 requests ETA 30s');
  expect(lines[20]).toBe('100/100 results written, 600 requests');
});

test('a fast publish stays quiet: at most one line a second, and the last one', () => {
  const lines = runOf(100, 5);
  expect(lines).toEqual([
    'writing 100 results (98 new, 2 changed, 5 unchanged)',
    '100/100 results written, 5 requests',
  ]);
});

test('nothing to write: no line', () => {
  expect(runOf(0, 10)).toEqual([]);
});

test.each([
  [250, '250ms'],
  [4_400, '4s'],
  [59_600, '1m00s'],
  [754_000, '12m34s'],
])('formatDuration(%i) is %s', (ms, text) => {
  expect(formatDuration(ms)).toBe(text);
});
