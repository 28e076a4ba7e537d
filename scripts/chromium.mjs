// Debian's chromium, headless, driven by playwright-core (which downloads no browser here). The
// flags keep it off the network it cannot reach (background updates, sync, QUIC) and quiet.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.TESTCYCLE_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails with what to install, never silently: a missing browser is a set-up error. */
export function launchChromium() {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Needs Debian's chromium at ${CHROMIUM}: install it with "apt-get install chromium" (.ci/run does), or set TESTCYCLE_CHROMIUM to its path.`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
