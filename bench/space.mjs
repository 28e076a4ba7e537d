// The Space every benchmark seeds: one read-write token and N test cases keyed Suite.test{i}, as
// the benchmarks' reports name their tests; each bench adds what it measures on top.
export const TOKEN = 'bench-token-0123456789';

/** `extra(i)`: attributes of case i beyond its key and status; `rest`: more of the seed. */
export function benchSpace(n, extra = (i) => ({ name: `case ${i}` }), rest = {}) {
  return {
    project: { key: 'BENCH' },
    tokens: [{ token: TOKEN, role: 'read-write' }],
    ...rest,
    testCases: Array.from({ length: n }, (_, i) => ({
      automationKey: `Suite.test${i}`,
      status: 'ACTIVE',
      ...extra(i),
    })),
  };
}
