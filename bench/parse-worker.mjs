// One measurement in its own process: `bare` (fast-xml-parser alone, with the options testcycle
// parses XML with: XML_PARSER_OPTIONS of src/parsers/base/xml.ts) or `testcycle` (readReport).
// Prints {mode, ms, maxRssMB, tests}.
import { readFileSync } from 'node:fs';
const [mode, file] = process.argv.slice(2);
let tests;
let started;
if (mode === 'bare') {
  const [{ XMLParser }, { XML_PARSER_OPTIONS }] = await Promise.all([
    import('fast-xml-parser'),
    import('../lib/parsers/base/xml.js'),
  ]);
  started = performance.now();
  const text = readFileSync(file, 'utf8');
  const doc = new XMLParser(XML_PARSER_OPTIONS).parse(text);
  tests = doc ? 1 : 0;
} else {
  const { readReport } = await import('../lib/parsers/read.js');
  started = performance.now();
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
