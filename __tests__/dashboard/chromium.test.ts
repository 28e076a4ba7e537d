/**
 * scripts/chromium.mjs: which browser the browser tests drive, with which flags, and what a person
 * reads when it does not start (the tests fail with it; they are never skipped).
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script, no types
import { CHROMIUM_ARGS, chromiumExecutable, launchChromium } from '../../scripts/chromium.mjs';

interface Chosen {
  path: string;
  args: string[];
  origin: string;
}

const saved = process.env.TESTCYCLE_CHROMIUM;
afterEach(() => {
  if (saved === undefined) delete process.env.TESTCYCLE_CHROMIUM;
  else process.env.TESTCYCLE_CHROMIUM = saved;
});

test('by default: the @sparticuz/chromium build, off the network, without its insecure flags', async () => {
  delete process.env.TESTCYCLE_CHROMIUM;
  const chosen = (await chromiumExecutable()) as Chosen;
  expect(chosen.origin).toBe('the @sparticuz/chromium build');
  expect(chosen.path).toMatch(/testcycle-chromium-\d+\.\d+\.\d+\/chromium$/);
  expect(chosen.args).toEqual(expect.arrayContaining(CHROMIUM_ARGS as string[]));
  expect(chosen.args).toEqual(
    expect.arrayContaining([
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ]),
  );
  for (const lowered of [
    '--disable-web-security',
    '--allow-running-insecure-content',
    '--single-process',
  ])
    expect(chosen.args).not.toContain(lowered);
  // playwright-core's own --disable-features (network features among them) stays the only one.
  expect(chosen.args.filter((a) => a.startsWith('--disable-features='))).toEqual([]);
  // A fresh profile per launch is playwright-core's: no --user-data-dir of ours to share.
  expect(chosen.args.filter((a) => a.startsWith('--user-data-dir'))).toEqual([]);
});

test('TESTCYCLE_CHROMIUM that does not exist: says so and how to use the packaged build', async () => {
  process.env.TESTCYCLE_CHROMIUM = '/no/such/chromium';
  await expect(chromiumExecutable()).rejects.toThrow(
    'TESTCYCLE_CHROMIUM=/no/such/chromium does not exist: give the path of a Chromium binary, or unset it to use the one from the @sparticuz/chromium devDependency.',
  );
});

test('a browser that does not start: the path, the missing library and what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-fake-browser-'));
  const fake = join(dir, 'chromium');
  writeFileSync(
    fake,
    '#!/bin/sh\necho "chromium: error while loading shared libraries: libnss3.so: cannot open shared object file" >&2\nexit 127\n',
  );
  chmodSync(fake, 0o755);
  process.env.TESTCYCLE_CHROMIUM = fake;
  const failure = launchChromium() as Promise<unknown>;
  await expect(failure).rejects.toThrow(
    `Headless Chromium did not start: ${fake} (TESTCYCLE_CHROMIUM). For a missing shared library (below), \`ldd ${fake} | grep "not found"\` lists them all`,
  );
  await expect(failure).rejects.toThrow(
    /\[err\] chromium: error while loading shared libraries: libnss3\.so/,
  );
});
