/** One error shape (docs/service-api.md section 7) and the emulator's messages, as named constants. */

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly source?: ErrorSource,
    /** Headers the answer carries besides the body (Allow on 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toBody() {
    return {
      errors: [
        {
          status: String(this.status),
          title: TITLES[this.status] ?? 'Error',
          code: this.code,
          detail: this.detail,
          ...(this.source ? { source: this.source } : {}),
        },
      ],
    };
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const MESSAGES = {
  noToken: 'No bearer token: send Authorization: Bearer <API_TOKEN>.',
  badToken: 'The token is malformed or unknown.',
  expired: 'The token has expired.',
  revoked: 'The token has been revoked.',
  otherRegion: (token: string, server: string) =>
    `The token belongs to region ${token}; this is region ${server}.`,
  readOnly: 'This token is read-only; writes need a read-write token.',
  tooLarge: (limit: number) => `The request body is over ${limit} bytes.`,
  rateLimited: (count: number, windowMs: number) =>
    `Rate limit of ${count} requests per ${windowMs / 1000} s reached; back off and retry.`,
  missingIfMatch: 'This record is version-locked: send If-Match with the ETag of your last read.',
  staleEtag: 'If-Match does not match the current ETag: read the record again and retry.',
  notFound: (type: string, id: string) => `No ${type} with id ${id} in this Space.`,
  noRoute: (method: string, path: string) => `No route ${method} ${path}.`,
  badPath: (path: string) =>
    `The path ${JSON.stringify(path.slice(0, 200))} holds a malformed percent-encoding (% must be followed by two hex digits).`,
  malformedTarget: (target: string) =>
    `The request target ${JSON.stringify(target.slice(0, 200))} is not a path of this server: it starts with one / and holds no empty segment (//).`,
  foreignHost: (host: string | undefined) =>
    `Host ${JSON.stringify(host ?? '')} is not this emulator's: listening on loopback, it answers only 127.0.0.1, localhost and [::1] (a guard against DNS rebinding).`,
  livePageToken:
    'The live page at / needs a token (Authorization: Bearer) when the emulator listens beyond loopback.',
  controlToken:
    'Changing the emulator (/__emulator/reset) needs a read-write token: send Authorization: Bearer <token>.',
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
  cycleNotActive: (status: string) =>
    `A result is recorded only on an ACTIVE cycle; this cycle is ${status}.`,
  chaos5xx: 'Injected failure (emulator chaos).',
} as const;
