/**
 * Names from requests and seeds are looked up as a table's own keys only: `constructor`,
 * `toString` or `__proto__` are unknown names like any other, never Object.prototype's members.
 */
export function own<T>(
  table: Readonly<Record<string, T>> | undefined,
  name: string,
): T | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}
