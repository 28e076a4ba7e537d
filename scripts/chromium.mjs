// Headless Chromium for the browser tests and the screenshot scripts, driven by playwright-core
// (which downloads no browser). By default the build that the @sparticuz/chromium devDependency
// carries inside its npm package, so `npm ci` is all a machine needs; TESTCYCLE_CHROMIUM=/path uses
// a system browser instead. The flags keep it off the network it may not reach; playwright-core
// gives every launch a fresh --user-data-dir of its own and removes it on close.
import bundled from '@sparticuz/chromium';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const PACKAGE = '@sparticuz/chromium';
const run = promisify(execFile);

/** Flags for any Chromium: nothing reaches past the loopback interface. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--no-pings',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  // Any host name but the loopback address fails to resolve, whatever a page or a feature asks.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

// @sparticuz/chromium's recommended flags (its `args`) minus: those that lower the page's security
// (the browser tests check what a browser enforces: CSP, same origin), --single-process (a Lambda
// need that makes a desktop Chromium fragile), its --headless (playwright-core sets headless), and
// its feature lists, which would replace playwright-core's own --disable-features (that list turns
// off network features such as NetworkTimeServiceQuerying and OptimizationHints).
const DROPPED = [
  '--allow-running-insecure-content',
  '--disable-web-security',
  '--disable-site-isolation-trials',
  '--single-process',
  '--headless',
  '--disable-features=',
  '--enable-features=',
];
const bundledArgs = () => bundled.args.filter((arg) => !DROPPED.some((d) => arg.startsWith(d)));

/**
 * The packaged build, unpacked once per version into the temporary directory (about 210 MB; the
 * first call takes a few seconds). The package's executablePath() unpacks into os.tmpdir() and
 * reuses whatever `chromium` it finds there (another version, or a half-written file of a
 * concurrent run), so it runs in a child process whose TMPDIR is a directory of its own, renamed
 * into place only when complete.
 */
export async function bundledChromium() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `The ${PACKAGE} build runs on Linux x64 only, not ${process.platform} ${process.arch}: set TESTCYCLE_CHROMIUM to a Chromium or Chrome installed on this machine.`,
    );
  const entry = createRequire(import.meta.url).resolve(PACKAGE);
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'));
  const home = join(tmpdir(), `testcycle-chromium-${version}`);
  const binary = join(home, 'chromium');
  if (existsSync(binary)) return binary;
  const partial = `${home}.partial-${process.pid}-${Date.now()}`;
  mkdirSync(partial, { recursive: true });
  try {
    const unpack = `const { default: c } = await import(${JSON.stringify(pathToFileURL(entry).href)}); process.stdout.write(await c.executablePath());`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', unpack], {
      env: { ...process.env, TMPDIR: partial },
    });
    if (stdout !== join(partial, 'chromium'))
      throw new Error(`${PACKAGE} ${version} unpacked to ${stdout}, not into ${partial}`);
    renameSync(partial, home);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // A concurrent run renamed its complete copy into place first: use that one.
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/** The browser to drive: TESTCYCLE_CHROMIUM when set, else the packaged build. */
export async function chromiumExecutable() {
  const chosen = process.env.TESTCYCLE_CHROMIUM;
  if (chosen === undefined || chosen === '')
    return {
      path: await bundledChromium(),
      args: [...bundledArgs(), ...CHROMIUM_ARGS],
      origin: `the ${PACKAGE} build`,
    };
  if (!existsSync(chosen))
    throw new Error(
      `TESTCYCLE_CHROMIUM=${chosen} does not exist: give the path of a Chromium binary, or unset it to use the one from the ${PACKAGE} devDependency.`,
    );
  return { path: chosen, args: CHROMIUM_ARGS, origin: 'TESTCYCLE_CHROMIUM' };
}

/** Launches headless Chromium; a browser that does not start is an error saying why, never a skip. */
export async function launchChromium() {
  const { path, args, origin } = await chromiumExecutable();
  try {
    return await chromium.launch({ executablePath: path, args, headless: true });
  } catch (error) {
    // Playwright's message, then what the browser wrote to stderr (a missing library shows there).
    const lines = String(error instanceof Error ? error.message : error).split('\n');
    const stderr = lines.filter((line) => /^\[pid=\d+\]\[err\]/.test(line));
    const reason = [lines[0], ...new Set(stderr)].join('\n');
    throw new Error(
      `Headless Chromium did not start: ${path} (${origin}). For a missing shared library (below), \`ldd ${path} | grep "not found"\` lists them all: install those, or set TESTCYCLE_CHROMIUM to a Chromium that runs on this machine.\n${reason}`,
    );
  }
}
