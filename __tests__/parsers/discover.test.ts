import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverReports } from '../../src/parsers/discover.js';
import { readReport } from '../../src/parsers/read.js';
import { SETTINGS } from '../../src/settings/table.js';
import { ReportError } from '../../src/parsers/base/model.js';

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'testcycle-discover-'));
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '<testsuites/>');
  }
  return root;
}

describe('report discovery', () => {
  test('globs with ! excludes, sorted and without repeats', async () => {
    const cwd = tree(['a/TEST-2.xml', 'a/TEST-1.xml', 'a/skip/TEST-3.xml', 'b/x.xml']);
    const found = await discoverReports(['a/**/*.xml', 'a/TEST-1.xml', '!a/skip/**'], { cwd });
    expect(found).toEqual(['a/TEST-1.xml', 'a/TEST-2.xml']);
  });

  test('Windows paths: backslashes separate path parts', async () => {
    const cwd = tree(['out/top.xml', 'out/junit/TEST-a.xml', 'out/skip/TEST-b.xml']);
    const found = await discoverReports(['out\\**\\*.xml', '!out\\skip\\**'], {
      cwd,
      windowsPaths: true,
    });
    expect(found).toEqual(['out/junit/TEST-a.xml', 'out/top.xml']);
  });

  test('the reports setting names exactly the extensions a directory stands for', async () => {
    const cwd = tree([
      'r/a.xml',
      'r/b.json',
      'r/c.jsonl',
      'r/d.ndjson',
      'r/e.trx',
      'r/f.tap',
      'r/g.txt',
      'r/h.html',
    ]);
    const found = await discoverReports(['r'], { cwd });
    const read = found.map((f) => f.slice(f.lastIndexOf('.')));
    expect(read).toEqual(['.xml', '.json', '.jsonl', '.ndjson', '.trx', '.tap']);
    const described = /a directory stands for the (.*) files below it/.exec(
      SETTINGS.reports.description,
    )![1]!;
    expect(described).toBe(`${read.slice(0, -1).join(', ')} and ${read.at(-1)}`);
  });

  test('a directory stands for the report files in it, hidden tool state left out', async () => {
    const cwd = tree([
      'test-results/junit/TEST-a.xml',
      'test-results/results.json',
      'test-results/run.trx',
      'test-results/.last-run.json',
      'test-results/trace.zip',
      'test-results/notes.txt',
    ]);
    for (const pattern of ['test-results', 'test-results/', './test-results'])
      expect(
        (await discoverReports([pattern], { cwd })).map((f) => f.replace(/^\.\//, '')),
      ).toEqual([
        'test-results/junit/TEST-a.xml',
        'test-results/results.json',
        'test-results/run.trx',
      ]);
  });

  test('a pattern that matches nothing names itself and says what to check; an empty directory says it is one', async () => {
    const cwd = tree(['empty/notes.txt']);
    await expect(discoverReports(['nope/*.xml'], { cwd })).rejects.toThrow(
      /nope\/\*\.xml: matches no file \(in .*\); check the path or the step that writes the reports/,
    );
    const error = await discoverReports(['empty'], { cwd }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportError);
    expect((error as Error).message).toMatch(/^empty: is a directory with no report files/);
  });
});

describe('a report that cannot be read', () => {
  test('is a report error naming the file and why (here a directory), not a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-unreadable-'));
    const error = await readReport(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportError);
    expect((error as Error).message).toBe(`${dir}: cannot read the file (EISDIR).`);
  });
});
