// One measurement in its own process: `bare` (fast-xml-parser alone) or `testcycle` (readReport).
// Prints {mode, ms, maxRssMB, tests}.
import { readFileSync } from 'node:fs';
const [mode, file] = process.argv.slice(2);
const started = performance.now();
let tests;
if (mode === 'bare') {
  const { XMLParser } = await import('fast-xml-parser');
  const text = readFileSync(file, 'utf8');
  const doc = new XMLParser({ ignoreAttributes: false }).parse(text);
  tests = doc ? 1 : 0;
} else {
  const { readReport } = await import('../lib/reports/read.js');
  tests = (await readReport(file)).tests.length;
}
const ms = performance.now() - started;
console.log(
  JSON.stringify({
    mode,
    ms: Math.round(ms),
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    tests,
  }),
);
