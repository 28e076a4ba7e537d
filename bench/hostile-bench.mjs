// Hostile report files that could cost time rather than correctness: 5,000 nested elements and an
// entity bomb. __tests__/parsers/hostile.test.ts asserts what reading them gives (a clear error, an
// inert entity); how long it takes is a property of speed, measured here rather than timed in a
// test (built library in lib/).

/** 5,000 nested <testsuite> elements: refused as too deep, without recursing into a stack overflow. */
export const deepNesting = () =>
  `<testsuites>${'<testsuite name="x">'.repeat(5000)}${'</testsuite>'.repeat(5000)}</testsuites>`;

/** A billion-laughs entity bomb, 10^9 "lol"s if expanded: the DTD is never processed. */
export function billionLaughs() {
  const entities = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
  ).join('\n');
  return `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol0 "lol">${entities}]>\n<testsuite name="&lol9;"><testcase name="&lol9;"/></testsuite>`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds to read (or refuse) each hostile file, median of `runs`. */
export async function hostileReadTimes(runs, dir) {
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { readReport } = await import('../lib/parsers/read.js');
  const out = {};
  for (const [name, content] of [
    ['deep-nesting.xml', deepNesting()],
    ['billion-laughs.xml', billionLaughs()],
  ]) {
    const file = join(dir, name);
    writeFileSync(file, content);
    const times = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await readReport(file).catch(() => undefined);
      times.push(performance.now() - started);
    }
    out[name] = Math.round(median(times));
  }
  return out;
}
