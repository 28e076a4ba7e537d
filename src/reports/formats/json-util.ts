/** Small readers for JSON reports, which arrive as `unknown`. */
export type Json = Record<string, unknown>;

export function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The first JSON value of a text, for detection without parsing megabytes. */
export function startsLikeJson(head: string): '{' | '[' | undefined {
  const c = head.trimStart()[0];
  return c === '{' || c === '[' ? c : undefined;
}
