#!/usr/bin/env node
// Checked before anything else loads: on an older Node the HTTP client fails to load with a trace.
try {
  await import('../shared/node-version.js');
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}

const { EXIT_CODES } = await import('./exit-codes.js');
const { main } = await import('./main.js');

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  // The first SIGINT or SIGTERM asks the command to stop; a second one stops the process at once.
  interrupted: () =>
    new Promise((resolve) => {
      let signals = 0;
      const onSignal = () => (++signals === 1 ? resolve() : process.exit(EXIT_CODES.interrupted));
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    }),
});
process.exitCode = code;
