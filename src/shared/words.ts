/** Counts in words for people: `1 test case`, `2 test cases`. */

/** `n` and the noun, plural unless n is 1: `plural(1, 'test case')`, `plural(3, 'body', 'bodies')`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
