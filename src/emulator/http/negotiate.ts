/**
 * JSON:API 1.1 content negotiation (jsonapi.org/format/1.1, "Content Negotiation"), plus
 * docs/service-api.md 5.7-5.8: Accept may be omitted or JSON:API; application/json gives 406.
 * The emulator supports no extension, so any `ext` URI is unsupported; `profile` is allowed and
 * ignored (a server may ignore profiles it does not know).
 */
import { ApiError } from '../model/errors.js';

export const MEDIA_TYPE = 'application/vnd.api+json';
const ALLOWED_PARAMS = new Set(['ext', 'profile']);

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

/** `a/b; x=1; y="2 3", c/d` -> media ranges; quoted values may hold commas and semicolons. */
export function parseMediaRanges(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of splitOutsideQuotes(header, ',')) {
    const [type = '', ...params] = splitOutsideQuotes(part, ';');
    if (!type.trim()) continue;
    const map = new Map<string, string>();
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      let value = p.slice(eq + 1).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
        value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      // q is the Accept weight, not a parameter of the media type (RFC 9110 12.5.1).
      if (name !== 'q') map.set(name, value);
    }
    ranges.push({ type: type.trim().toLowerCase(), params: map });
  }
  return ranges;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    if (ch === '\\' && quoted && i + 1 < text.length) {
      current += ch + text[++i];
      continue;
    }
    if (ch === separator && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

const otherParams = (r: MediaRange) => [...r.params.keys()].filter((p) => !ALLOWED_PARAMS.has(p));
/** Extensions asked for: the space-separated URIs of `ext` (none are supported). */
const extensions = (r: MediaRange) => (r.params.get('ext') ?? '').split(/\s+/).filter(Boolean);

/**
 * 406 unless the Accept header allows a JSON:API answer (or, for /openapi.json, a JSON one).
 * JSON:API 1.1: instances of the media type with parameters other than ext/profile are ignored,
 * and if every instance is so modified, or every instance asks for an unsupported extension, 406.
 */
export function checkAccept(accept: string | undefined, jsonAllowed: boolean): void {
  if (accept === undefined || accept.trim() === '') return;
  const ranges = parseMediaRanges(accept);
  const jsonApi = ranges.filter((r) => r.type === MEDIA_TYPE);
  if (jsonApi.length > 0) {
    const usable = jsonApi.filter((r) => otherParams(r).length === 0 && extensions(r).length === 0);
    if (usable.length > 0) return;
    const params = jsonApi.flatMap(otherParams);
    throw new ApiError(
      406,
      'NOT_ACCEPTABLE',
      params.length > 0
        ? `Accept: every ${MEDIA_TYPE} in it carries a parameter other than ext or profile (${[...new Set(params)].join(', ')}); send ${MEDIA_TYPE} without it.`
        : `Accept: every ${MEDIA_TYPE} in it asks for an extension (ext) this server does not support; it supports none.`,
    );
  }
  // */* (curl's default) is not application/json: it accepts the JSON:API media type.
  if (ranges.some((r) => r.type === '*/*')) return;
  if (
    jsonAllowed &&
    ranges.some((r) => r.type === 'application/json' || r.type === 'application/*')
  )
    return;
  throw new ApiError(
    406,
    'NOT_ACCEPTABLE',
    jsonAllowed
      ? `Accept must allow ${MEDIA_TYPE}, application/json or */* here.`
      : `Accept must be ${MEDIA_TYPE} (or omitted).`,
  );
}

/** 415 unless the body's Content-Type is JSON:API with no parameter but profile (ext: none supported). */
export function checkContentType(contentType: string | undefined): void {
  const [range] = parseMediaRanges(contentType ?? '');
  if (!range || range.type !== MEDIA_TYPE)
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type must be ${MEDIA_TYPE}.`);
  const params = otherParams(range);
  if (params.length > 0)
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type ${MEDIA_TYPE} must carry no parameter but ext or profile; drop ${params.join(', ')}.`,
    );
  if (extensions(range).length > 0)
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type asks for an extension (ext) this server does not support; it supports none.`,
    );
}
