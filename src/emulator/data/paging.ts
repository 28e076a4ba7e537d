/**
 * Sorting and paging of a list (docs/service-api.md 4.1): page numbers, or opaque keyset cursors that
 * neither skip nor repeat records while data changes; absolute links to the other pages.
 */
import { compareValues } from '../filtrql/evaluator.js';
import { ApiError } from '../model/errors.js';
import { DEFAULT_PAGE_SIZE, intParam, MAX_PAGE_SIZE, type SortKey } from './query.js';
import type { StoredRecord } from './store.js';

/** What links are built from: the request's query and path, and the absolute base of links. */
export interface LinkContext {
  query: URLSearchParams;
  /** Path of the request without the query, from /api/v1 on. */
  path: string;
  /** `http://HOST/api/v1`. */
  base: string;
}

export const API_PREFIX = '/api/v1';

export interface Page {
  records: StoredRecord[];
  links: Record<string, string>;
}

function sortValue(r: StoredRecord, name: string): unknown {
  return name === 'id' ? r.id : r.attributes[name];
}

function compareNullable(a: unknown, b: unknown): number {
  if (a == null && b == null) return 0;
  if (a == null) return 1; // nulls last
  if (b == null) return -1;
  return compareValues(a, b);
}

function compareBySort(a: StoredRecord, b: StoredRecord, sort: SortKey[]): number {
  for (const key of sort) {
    const c = compareNullable(sortValue(a, key.name), sortValue(b, key.name));
    if (c !== 0) return key.desc ? -c : c;
  }
  return a.seq - b.seq;
}

/** Records in sort order; insertion order (the keyset) breaks ties and is the default. */
export function sortRecords(records: StoredRecord[], sort: SortKey[]): StoredRecord[] {
  return sort.length ? [...records].sort((a, b) => compareBySort(a, b, sort)) : records;
}

interface Cursor {
  s: number;
  v: unknown[];
}

function encodeCursor(r: StoredRecord, sort: SortKey[]): string {
  return Buffer.from(
    JSON.stringify({ s: r.seq, v: sort.map((k) => sortValue(r, k.name)) }),
  ).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.s === 'number' && Array.isArray(c.v)) return c;
  } catch {
    // fall through
  }
  throw new ApiError(
    400,
    'INVALID_CURSOR',
    'page[after] is not a cursor this server issued; take it verbatim from links.next.',
    {
      parameter: 'page[after]',
    },
  );
}

function compareToCursor(r: StoredRecord, cursor: Cursor, sort: SortKey[]): number {
  for (let i = 0; i < sort.length; i++) {
    const key = sort[i]!;
    const c = compareNullable(sortValue(r, key.name), cursor.v[i]);
    if (c !== 0) return key.desc ? -c : c;
  }
  return r.seq - cursor.s;
}

/** First index where `isBefore` is false (records are sorted). */
function upperBound<T>(items: T[], isBefore: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (isBefore(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** An absolute link to this list with its query, the paging parameters replaced by `extra`. */
function linkTo(req: LinkContext, extra: [string, string][]): string {
  const params = new URLSearchParams();
  for (const [k, v] of req.query)
    if (k !== 'page[number]' && k !== 'page[after]') params.append(k, v);
  for (const [k, v] of extra) params.append(k, v);
  const text = [...params]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `${req.base}${req.path.slice(API_PREFIX.length)}${text ? `?${text}` : ''}`;
}

/** page[size], after the check that page[number] and page[after] are not sent together. */
export function pageSize(query: URLSearchParams): number {
  if (query.has('page[number]') && query.has('page[after]')) {
    throw new ApiError(
      400,
      'INVALID_PAGINATION',
      'page[number] and page[after] cannot be sent together.',
      { parameter: 'page[after]' },
    );
  }
  return intParam(query, 'page[size]', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
}

/** The page the query asks for out of the sorted matches, with links self, first, prev, next, last. */
export function paginate(
  matches: StoredRecord[],
  sort: SortKey[],
  size: number,
  req: LinkContext,
): Page {
  const { query } = req;
  const hasAfter = query.has('page[after]');
  const links: Record<string, string> = {};
  const to = (extra: [string, string][]) => linkTo(req, extra);
  links.self = to([...query].filter(([k]) => k === 'page[number]' || k === 'page[after]'));
  if (hasAfter) {
    const after = query.get('page[after]')!;
    let start = 0;
    if (after) {
      const cursor = decodeCursor(after);
      start = upperBound(matches, (r) => compareToCursor(r, cursor, sort) <= 0);
    }
    const records = matches.slice(start, start + size);
    links.first = to([['page[after]', '']]);
    const last = records.at(-1);
    if (last && start + size < matches.length)
      links.next = to([['page[after]', encodeCursor(last, sort)]]);
    return { records, links };
  }
  const number = intParam(query, 'page[number]', 1, 1, Number.MAX_SAFE_INTEGER);
  const records = matches.slice((number - 1) * size, number * size);
  const lastPage = Math.max(1, Math.ceil(matches.length / size));
  links.first = to([['page[number]', '1']]);
  links.last = to([['page[number]', String(lastPage)]]);
  if (number > 1) links.prev = to([['page[number]', String(number - 1)]]);
  if (number < lastPage) links.next = to([['page[number]', String(number + 1)]]);
  return { records, links };
}
