/** Emulators for tests: on 127.0.0.1:0, closed after each test, with a raw HTTP helper. */
import {
  startEmulator,
  type EmulatorOptions,
  type RunningEmulator,
  type Seed,
} from '../../src/emulator/index.js';

export const RW = 'rw-token-0123456789abcdef';
export const RO = 'ro-token-0123456789abcdef';
/** The project (Space) of testSeed(): the projectId creates carry. */
export const PROJECT = '3f0c0e4e-0000-4000-8000-000000000001';
export const OWNER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const OTHER_USER = '9b2f0c6a-1d3e-4f5a-8b7c-0d1e2f3a4b5c';

const running = new Set<RunningEmulator>();

export function testSeed(extra: Partial<Seed> = {}): Seed {
  return {
    region: 'eu',
    project: { id: PROJECT, name: 'Demo', key: 'DEMO' },
    users: [
      { id: OWNER, name: 'Ada', email: 'ada@example.com', role: 'admin' },
      { id: OTHER_USER, name: 'Bob', email: 'bob@example.com', role: 'tester' },
    ],
    tokens: [
      { token: RW, name: 'ci', ownerId: OWNER, role: 'read-write' },
      { token: RO, name: 'dash', ownerId: OWNER, role: 'read-only' },
    ],
    customFields: [
      { name: 'component', entity: 'test_cases', type: 'string' },
      { name: 'build', entity: 'test_cycles', type: 'string' },
    ],
    ...extra,
  };
}

export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ seed: testSeed(), ...options });
  running.add(emu);
  return emu;
}

export async function closeEmulators(): Promise<void> {
  await Promise.all([...running].map((e) => e.close()));
  running.clear();
}

export interface Answer {
  status: number;
  etag: string | null;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One raw request (no client, no retries), so tests see exactly what the emulator answers. */
export async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  options: {
    token?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: 'application/vnd.api+json',
    ...options.headers,
  };
  const token = options.token === undefined ? RW : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !('content-type' in headers))
    headers['content-type'] = 'application/vnd.api+json';
  const res = await fetch(emu.url + path, { method, headers, body });
  const text = await res.text();
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

export const doc = (type: string, attributes: object, id?: string) => ({
  data: { type, ...(id ? { id } : {}), attributes },
});
