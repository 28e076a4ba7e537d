// Writes a JUnit XML file with N testcases (default 100,000, about 17 MB): realistic names,
// ~5% failures with messages and stack traces, ~3% skipped, properties on some suites.
import { createWriteStream } from 'node:fs';

export async function generateJunit(file, count = 100_000) {
  const out = createWriteStream(file);
  const write = (s) =>
    out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r));
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench" tests="' + count + '">\n',
  );
  const perSuite = 100;
  for (let s = 0; s < count / perSuite; s++) {
    const cls = `com.example.module${s % 37}.service.Feature${s}Test`;
    await write(
      `  <testsuite name="${cls}" tests="${perSuite}" failures="0" errors="0" skipped="0" time="1.5" timestamp="2026-11-21T00:00:00">\n`,
    );
    if (s % 10 === 0)
      await write(
        `    <properties><property name="java.version" value="21.0.2"/><property name="os.name" value="Linux"/></properties>\n`,
      );
    let chunk = '';
    for (let i = 0; i < perSuite; i++) {
      const n = s * perSuite + i;
      const name = `should_handle_case_${n}_when_input_is_valid`;
      chunk += `    <testcase name="${name}" classname="${cls}" time="0.0${n % 97}">`;
      if (n % 20 === 7)
        chunk += `\n      <failure message="expected: &lt;${n}&gt; but was: &lt;${n + 1}&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;${n}&gt; but was: &lt;${n + 1}&gt;\n\tat ${cls}.${name}(Feature${s}Test.java:${n % 500})\n</failure>\n    `;
      else if (n % 33 === 5) chunk += `<skipped message="disabled"/>`;
      chunk += `</testcase>\n`;
    }
    await write(chunk + '  </testsuite>\n');
  }
  await write('</testsuites>\n');
  await new Promise((r) => out.end(r));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generateJunit(
    process.argv[2] ?? 'bench/junit-100k.xml',
    Number(process.argv[3] ?? 100_000),
  );
}
