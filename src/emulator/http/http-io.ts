/** The emulator's HTTP plumbing: reading bodies, writing answers, and where links point. */
import type http from 'node:http';
import { MEDIA_TYPE } from './negotiate.js';
import { API_PREFIX } from '../data/paging.js';

/** The body, or 'too-large' once it passes `max` bytes (read to the end either way). */
export function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A JSON answer, application/vnd.api+json unless `headers` says otherwise. */
export function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': MEDIA_TYPE,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * `http://HOST/api/v1` for absolute links: the request's Host when it is a plain host[:port]
 * (it is echoed into links, so nothing else gets through), else the address the server listens on.
 */
export function linkBase(req: http.IncomingMessage, origin: string): string {
  const host = req.headers.host ?? '';
  const plain = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host);
  return `${plain ? `http://${host}` : origin}${API_PREFIX}`;
}

/** The host name of a Host header, without its port (`[::1]` keeps its brackets). */
export function hostOf(header: string | undefined): string {
  const value = (header ?? '').trim().toLowerCase();
  return value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0]!;
}

export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^127\./.test(address) || address === '::ffff:127.0.0.1';
}
