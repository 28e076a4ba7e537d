import { chunkIn, f, quote, toFiltrQL, type Filter } from '../../src/client/filter.js';

describe('FiltrQL builder', () => {
  test.each<[string, Filter, string]>([
    ['equality', f.eq('name', 'Nightly'), 'name = "Nightly"'],
    ['quotes and backslashes', f.eq('name', 'a "b" \\ c'), 'name = "a \\"b\\" \\\\ c"'],
    ['single quotes stay', f.eq('name', "it's"), `name = "it's"`],
    ['non-ASCII', f.eq('name', 'Prüfung 測試 ✓'), 'name = "Prüfung 測試 ✓"'],
    [
      'numbers and booleans',
      f.and(f.cmp('rank', '>=', 3), f.eq('isRead', false)),
      'rank >= 3 AND isRead = false',
    ],
    ['in list', f.in('automationKey', ['a', 'b"c']), 'automationKey in ("a", "b\\"c")'],
    ['not in', f.notIn('result', ['PASSED']), 'result not in ("PASSED")'],
    [
      'null checks',
      f.or(f.isNull('deletedAt'), f.isNotNull('ownerId')),
      'deletedAt is null OR ownerId is not null',
    ],
    [
      'nested groups get parentheses',
      f.and(f.eq('a', 1), f.or(f.eq('b', 2), f.eq('c', 3))),
      'a = 1 AND (b = 2 OR c = 3)',
    ],
    ['dot paths', f.eq('testCycle.testCycleKey', 'DEMO-R1'), 'testCycle.testCycleKey = "DEMO-R1"'],
    [
      'a user filter is parenthesised',
      f.and(f.eq('testCycleId', 'x'), f.user('testCase.priority = "CRITICAL" OR 1 = 1', 'p')),
      'testCycleId = "x" AND (testCase.priority = "CRITICAL" OR 1 = 1)',
    ],
    ['not', f.not(f.eq('status', 'DONE')), 'NOT (status = "DONE")'],
    [
      'dates are quoted ISO',
      f.cmp('updatedAt', '>', new Date('2026-01-02T03:04:05Z')),
      'updatedAt > "2026-01-02T03:04:05.000Z"',
    ],
  ])('%s', (_name, filter, expected) => {
    expect(toFiltrQL(filter)).toBe(expected);
  });

  test('field names cannot inject syntax', () => {
    expect(() => f.eq('name = "x" OR name', 'y')).toThrow(/Invalid FiltrQL field name/);
  });

  test('quote escapes every backslash before quotes', () => {
    expect(quote('\\"')).toBe('"\\\\\\""');
  });
});

describe('chunkIn', () => {
  const keys = Array.from(
    { length: 450 },
    (_, i) => `com.example.suite${i % 7}.Test${i}.method_${'x'.repeat(i % 40)}`,
  );
  const wrap = (chunk: Filter) =>
    f.and(f.eq('projectId', '3f0c0e4e-0000-4000-8000-000000000000'), chunk);

  test('every value lands in exactly one chunk, each within the limits', () => {
    const chunks = chunkIn('automationKey', keys, {
      maxItems: 100,
      maxEncodedLength: 3000,
      wrapChunk: wrap,
    });
    const seen: string[] = [];
    for (const chunk of chunks) {
      const text = toFiltrQL(chunk);
      expect(encodeURIComponent(text).length).toBeLessThanOrEqual(3000);
      const inner = chunk.kind === 'and' ? chunk.items[1]! : chunk;
      if (inner.kind !== 'in') throw new Error('expected an in list');
      expect(inner.values.length).toBeLessThanOrEqual(100);
      seen.push(...(inner.values as string[]));
    }
    expect(seen.sort()).toEqual([...keys].sort());
  });

  test('packs short values into as few chunks as the item limit allows', () => {
    const short = Array.from({ length: 250 }, (_, i) => `k${i}`);
    expect(chunkIn('automationKey', short, { maxItems: 100, maxEncodedLength: 3500 })).toHaveLength(
      3,
    );
  });

  test('duplicates are sent once', () => {
    const chunks = chunkIn('automationKey', ['a', 'a', 'b'], {
      maxItems: 100,
      maxEncodedLength: 3500,
    });
    expect(chunks.map(toFiltrQL)).toEqual(['automationKey in ("a", "b")']);
  });

  test('a single value longer than the URL budget is a clear error', () => {
    expect(() =>
      chunkIn('automationKey', ['x'.repeat(5000)], { maxItems: 100, maxEncodedLength: 3500 }),
    ).toThrow(/too long/);
  });
});
