/**
 * One error vocabulary: every error testcycle raises on purpose is a TestcycleError with a stable
 * `code` and a `kind`. Each adapter maps the kind once (the CLI to exit codes, the action to a
 * failed step) and renders the message in its users' words; anything else is a bug ("unexpected").
 * Messages are written for a person and never hold the token.
 */
import { oneLine } from './redact.js';

/**
 * usage: how the tool was invoked (an unknown command or flag); config: a setting is missing, has
 * a bad value, or forbids what the run needs; report: a report cannot be read or its tests cannot
 * be published as asked; service: the service refused or could not be reached; gate: the
 * thresholds failed; interrupted: the run was asked to stop and did, between writes.
 */
export type ErrorKind = 'usage' | 'config' | 'report' | 'service' | 'gate' | 'interrupted';

export { commandOf, KEY_WORDS, render, type SettingWords, type Words } from './words.js';
import { render, type SettingWords, type Words } from './words.js';

/**
 * Every error testcycle throws on purpose: a stable `code` and a `kind` that decides the exit code
 * (docs/design.md "Exit codes").
 */
export class TestcycleError extends Error {
  /** A stable code for scripts (`INVALID_SETTING`, `REPORT_ERROR` ...). */
  readonly code: string;
  /** What kind of failure it is: the adapters map it to an exit code. */
  readonly kind: ErrorKind;
  private words: Words;
  /** `message` holds the text with settings named by their keys; describe() renders it for an adapter. */
  constructor(
    message: string | Words,
    code: string,
    kind: ErrorKind,
    options?: { cause?: unknown },
  ) {
    super(render(message), options);
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
    this.words = typeof message === 'string' ? () => message : message;
  }

  /** The message in an adapter's words. */
  describe(words: SettingWords): string {
    return this.words(words);
  }

  /** One more sentence, in every adapter's rendering. */
  append(sentence: string): void {
    const before = this.words;
    this.words = (w) => `${before(w)} ${sentence}`;
    this.message += ` ${sentence}`;
  }
}

/** The run was asked to stop (SIGINT, SIGTERM, a cancelled job): it stopped between writes. */
export class InterruptedError extends TestcycleError {
  constructor(message = 'interrupted: stopped between writes, none left half done.') {
    super(message, 'INTERRUPTED', 'interrupted');
  }
}

/** Stopped inside a long wait, where a write under way may have done its first half only. */
export const INTERRUPTED_IN_A_WAIT =
  'interrupted while waiting for the service: a write under way may be half done (an execution created without its result); run the same command again to finish it.';

/** Throws InterruptedError once `signal` is aborted; the pipeline calls it between steps. */
export function stopIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError();
}

/** The tool was invoked wrongly: an unknown command, flag or argument. */
export class UsageError extends TestcycleError {
  constructor(message: string | Words) {
    super(message, 'USAGE', 'usage');
  }
}

/**
 * A setting is missing, has a bad value, or forbids what the run needs. Names the setting by its
 * key (`setting`), which each adapter renders; says what to do.
 */
export class ConfigError extends TestcycleError {
  /** The setting's key (`min-pass-rate`); adapters show it as a flag or an input. */
  readonly setting: string;
  /** `message` says what is wrong and what to do. */
  constructor(setting: string, message: string | Words, code = 'INVALID_SETTING') {
    super((w) => `${w.name(setting)}: ${render(message, w)}`, code, 'config');
    this.setting = setting;
  }
}

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

/** One entry of the service's `errors` array (docs/service-api.md section 7). */
export interface ServiceErrorObject {
  status?: string;
  title?: string;
  code?: string;
  detail?: string;
  source?: ErrorSource;
}

export interface ServiceErrorInit {
  status: number;
  method: string;
  path: string;
  errors?: ServiceErrorObject[];
  etag?: string;
  attempts?: number;
  /** What to do, when the client knows better than the status alone (replaces the status hint). */
  hint?: string;
}

/** An HTTP error answer of the service, after the scheduler's retries (status 0: an answer the client cannot use). */
export class ServiceError extends TestcycleError {
  /** The HTTP status (0: an answer the client cannot use). */
  readonly status: number;
  /** The request's method. */
  readonly method: string;
  /** The request path and query relative to the base URL (never holds the token). */
  readonly path: string;
  /** The service's error code (`errors[0].code`). */
  readonly serviceCode?: string;
  /** The service's error title. */
  readonly title?: string;
  /** The service's error detail. */
  readonly detail?: string;
  /** What the error points at (an attribute, a query parameter). */
  readonly source?: ErrorSource;
  /** Every error object the answer held. */
  readonly errors: ServiceErrorObject[];
  /** What to do about it, in words. */
  readonly hint: string;
  /** The attempts sent, retries included. */
  readonly attempts: number;

  constructor(init: ServiceErrorInit) {
    const first = init.errors?.[0] ?? {};
    const hint = init.hint ?? hintFor(init.status, first);
    // The server's words are data: one line, no control codes.
    const what = oneLine([first.code, first.detail ?? first.title].filter(Boolean).join(': '));
    super(
      (w) =>
        init.status === 0
          ? `${init.method} ${init.path}: ${what || 'unexpected answer'}.`
          : `${init.method} ${init.path} failed with ${init.status}${what ? ` (${what})` : ''}. ${render(hint, w)}`,
      first.code || (init.status === 0 ? 'PROTOCOL_ERROR' : `HTTP_${init.status}`),
      'service',
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serviceCode = first.code;
    this.title = first.title;
    this.detail = first.detail;
    this.source = first.source;
    this.errors = init.errors ?? [];
    this.hint = render(hint);
    this.attempts = init.attempts ?? 1;
  }

  /** The attribute a 409/422 names, from source.pointer (`/data/attributes/result` -> `result`). */
  get attribute(): string | undefined {
    const pointer = this.source?.pointer;
    const match = pointer ? /^\/data\/attributes\/([^/]+)/.exec(pointer) : null;
    return match?.[1];
  }
}

/** The request never got a usable answer (connection refused or reset, timeout, DNS). */
export class NetworkError extends TestcycleError {
  /** The request's method. */
  readonly method: string;
  /** The request path relative to the base URL (never holds the token). */
  readonly path: string;
  /** True when the request may have reached the server (a POST may have created a record). */
  readonly maybeProcessed: boolean;
  /** The attempts sent, retries included. */
  readonly attempts: number;
  constructor(
    method: string,
    path: string,
    reason: string,
    maybeProcessed: boolean,
    attempts: number,
    cause?: unknown,
    hint = 'Check the base URL, the network and any proxy (HTTPS_PROXY, NO_PROXY).',
  ) {
    super(
      `${method} ${path} failed: ${reason}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}. ${hint}`,
      'NETWORK_ERROR',
      'service',
      { cause },
    );
    this.method = method;
    this.path = path;
    this.maybeProcessed = maybeProcessed;
    this.attempts = attempts;
  }
}

/**
 * A failure that says the service was briefly unavailable, busy or raced, not that the request was
 * wrong: 5xx, 429 and 412 after the scheduler's and the 412 helper's own retries, or no answer.
 * Worth one more try later; anything else is not.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return (
    error instanceof ServiceError &&
    (error.status >= 500 || error.status === 429 || error.status === 412)
  );
}

/** What a person can do about each status of docs/service-api.md section 7. */
export function hintFor(status: number, error: ServiceErrorObject = {}): string | Words {
  const attribute = /^\/data\/attributes\/([^/]+)/.exec(error.source?.pointer ?? '')?.[1];
  const parameter = error.source?.parameter;
  switch (status) {
    case 400:
      return `The request was rejected${parameter ? ` at parameter ${parameter}` : ''}: check filter, sort, include and field names (the detail lists the valid ones).`;
    case 401:
      return 'The token was revoked: create a new token in the app (API and MCP tokens) and update the secret.';
    case 403:
      return 'Forbidden: the token may be expired, malformed, read-only (writes need a read-write token), or from another region (use the base URL of the region where the token was created).';
    case 404:
      return 'Not found: the record does not exist or lies outside the Space of this token.';
    case 406:
      return 'The service refused the Accept header; testcycle sends application/vnd.api+json, so a proxy may be rewriting headers.';
    case 409:
      return `Conflict with existing data${attribute ? ` on attribute ${attribute}` : ''}: a duplicate name or execution, or a reference to a missing record.`;
    case 412:
      return 'The record changed since it was read (stale ETag): read it again and retry.';
    case 413:
      return 'The request body is over 1 MB: shorten long names or custom field values.';
    case 415:
      return 'The service refused the Content-Type; testcycle sends application/vnd.api+json, so a proxy may be rewriting headers.';
    case 422:
      return `Invalid value${attribute ? ` for attribute ${attribute}` : ''}: check enums, required attributes and custom field keys.`;
    case 428:
      return 'The record is version-locked and the request had no If-Match header.';
    case 429:
      return (w) =>
        `Rate limit reached (100 requests per minute per token, shared with MCP and other jobs): lower ${w.name('rate-limit')} or run fewer jobs on this token at once.`;
    default:
      if (status >= 500)
        return 'The service had an internal error; it was retried where safe. Try again later.';
      return 'Unexpected answer from the service.';
  }
}

/** A message for any thrown value, never `[object Object]`. */
export function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  // Duck-typed: errors from another realm (vm, worker) are not `instanceof Error` here.
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message) return message;
  if (error instanceof Error) return error.name;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
