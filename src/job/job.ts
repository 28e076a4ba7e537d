/**
 * How a job runs, the same for both adapters (docs/architecture.md "One way in for both
 * adapters"): the token masked, the settings that do nothing said, every setting read and checked,
 * the reports read, and only then the client built and the job run. An adapter turns its inputs
 * or flags into a SettingSource before, and renders what the job returns after.
 */
import { tmpdir } from 'node:os';
import {
  clientSettings,
  requestsOf,
  ServiceClient,
  type ClientSettings,
  type RequestFigures,
  type RequestStats,
} from '../client/index.js';
import type { Logger, Redactor } from '../shared/redact.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { idleSettings, settingOf, type Place } from '../settings/index.js';
import { parallelLegs } from '../domain/index.js';

type Env = Record<string, string | undefined>;

/** What an adapter gives a job. */
export interface JobIO {
  /** Every setting by key: the adapter's flags or inputs (and, for the CLI, their variables). */
  settings: SettingSource;
  /**
   * What the user gave (flags, inputs; not the variables set for every step): the settings of
   * these that do nothing where they are given are warned of before the first request.
   */
  given: SettingSource;
  /** Where the job runs: a command of the CLI or a mode of the action. */
  place: Place;
  /** The CI's environment: where this run is (branch, PR, commit), for cycle names and baselines. */
  env: Env;
  redactor: Redactor;
  logger: Logger;
  /** Stops a long job between writes (a cancelled CI job, Ctrl-C). */
  signal?: AbortSignal;
  /** A publish's progress lines. */
  progress?: (line: string) => void;
  /** `testcycle-cli`, `testcycle-action`. */
  userAgent: string;
  /**
   * Where the processes of one CI job share the token's pace (src/client/pace.ts): the runner's
   * per-job temporary directory for the action; absent, the system's.
   */
  sharedPaceDir?: string;
  /**
   * The adapter's own settings (how it shows the result), read after the job's and before any
   * report is read, so that every setting is checked before anything else happens.
   */
  adapterSettings?: () => void;
}

/** A job prepared: every setting checked and its reports read; nothing sent yet. */
export type Prepared<R> = (client: ServiceClient, settings: ClientSettings) => Promise<R>;

/** One job: reads and checks its settings and reads its reports, then runs on a client. */
export type Job<R> = (io: JobIO) => Promise<Prepared<R>>;

/** What a job returned, and the requests it cost. */
export interface JobOutcome<R> {
  result: R;
  /** As every command's result and `--json` give them. */
  requests: RequestFigures;
  /** Every counter of the client (`check` shows them all). */
  stats: RequestStats;
}

/**
 * The token in every form a server might echo, masked in every line the run writes from here on:
 * the one place either adapter masks it (the CLI also before its flags are read, from the token's
 * variable).
 */
export function maskToken(redactor: Redactor, settings: SettingSource | undefined, env: Env): void {
  redactor.add(settings?.string('token'));
  const variable = settingOf('token')?.env;
  if (variable) redactor.add(env[variable]);
}

/**
 * The client's settings of a job: `legs`, when not given, is the CI's count of parallel copies of
 * this job (GitLab `parallel:`, CircleCI and Buildkite `parallelism`), which publish at once.
 */
export function jobClientSettings(settings: SettingSource, env: Env): ClientSettings {
  const options = clientSettings(settings);
  options.legs ??= parallelLegs(env, settingOf('legs')?.max ?? Infinity);
  return options;
}

/** Token masked, idle settings said, settings checked, reports read, client built, job run. */
export async function runJob<R>(job: Job<R>, io: JobIO): Promise<JobOutcome<R>> {
  maskToken(io.redactor, io.settings, io.env);
  // Said first (docs/design.md "Settings that do nothing"), so a usage error after them is not alone.
  for (const warning of idleSettings(io.given, io.settings, io.place)) io.logger.warn(warning);
  const options = jobClientSettings(io.settings, io.env);
  const run = await job(io);
  const client = new ServiceClient({
    ...options,
    redactor: io.redactor,
    logger: io.logger,
    userAgent: io.userAgent,
    sharedPaceDir: io.sharedPaceDir ?? tmpdir(),
  });
  try {
    const result = await run(client, options);
    return { result, requests: requestsOf(client), stats: structuredClone(client.stats) };
  } finally {
    await client.close();
  }
}
