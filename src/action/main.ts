/**
 * The GitHub adapter: inputs, outputs, logs. Only this folder imports @actions/*; the work lives
 * in src/api and src/publish.
 */
import * as core from '@actions/core';
import { ServiceClient } from '../api/client.js';
import { messageOf } from '../api/errors.js';
import { Redactor, createLogger } from '../api/redact.js';

const MODES = ['check', 'publish', 'gate', 'create-cycle', 'close-cycle'] as const;
const AVAILABLE = new Set(['check']);

function integerInput(name: string, fallback: number): number {
  const raw = core.getInput(name);
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`Input ${name}: "${raw}" is not a whole number of at least 1.`);
  return n;
}

export async function run(): Promise<void> {
  const redactor = new Redactor();
  try {
    const token = core.getInput('token', { required: true });
    core.setSecret(token);
    redactor.add(token);
    const mode = core.getInput('mode') || 'check';
    if (!(MODES as readonly string[]).includes(mode)) {
      throw new Error(`Input mode: "${mode}" is not one of ${MODES.join(', ')}.`);
    }
    if (!AVAILABLE.has(mode)) {
      throw new Error(
        `Input mode: "${mode}" is not available in this version of testcycle yet; use mode: check.`,
      );
    }
    const logger = createLogger(
      (level, message) =>
        ({ debug: core.debug, info: core.info, warn: core.warning, error: core.error })[level](
          message,
        ),
      redactor,
      core.getBooleanInput('verbose') ? 'debug' : 'info',
    );
    const client = new ServiceClient({
      baseUrl: core.getInput('base-url', { required: true }),
      token,
      rateLimit: core.getInput('rate-limit') || '100/1m',
      concurrency: integerInput('concurrency', 4),
      timeoutMs: integerInput('timeout-ms', 30_000),
      redactor,
      logger,
    });
    try {
      const project = await client.project();
      core.setOutput('project-id', project.id);
      core.setOutput('project-name', String(project.attributes.name ?? ''));
      core.info(
        `${client.baseUrl.href} reaches Space ${String(project.attributes.name ?? project.id)}`,
      );
    } finally {
      core.setOutput('requests', String(client.stats.total));
      await client.close();
    }
  } catch (error) {
    core.setFailed(redactor.redact(messageOf(error)));
  }
}
