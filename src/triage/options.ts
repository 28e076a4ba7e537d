/**
 * What the gate adds for triage, as options (docs/design.md "Triage"): part of the gate's options
 * (src/publish/gate.ts), read from the settings by src/triage/settings.ts.
 */
import type { CiIdentity } from '../domain/index.js';
import type { AutoQuarantineOptions } from './auto-quarantine.js';
import type { BaselineMode } from './baseline.js';
import type { NotifyOptions } from './notify.js';

/** The gate's triage settings (part of GateOptions). */
export interface TriageGateOptions {
  /** The test-case custom field holding quarantines; default `quarantine`. */
  quarantineField?: string;
  /** A quarantine without until ends this many days after it was set (default 30; 0: never). */
  quarantineExpiryDays?: number;
  /** The field is not the default one: a Space that refuses it is said in a note. */
  quarantineFieldGiven?: boolean;
  /** Fail when more tests fail now that passed (or had no execution) in the baseline. */
  maxNewFailures?: number;
  /** The baseline cycle by key or name, or a pattern's latest complete cycle; wins over `baseline`. */
  baselineCycle?: string;
  /** `auto` (default): a PR's run against `baselineSeries`, any other against its previous cycle. */
  baseline?: BaselineMode;
  /** The base branch's series a PR's run is compared with (default `Nightly {date}`). */
  baselineSeries?: string;
  /** Where this run is (branch, PR, its target branch, commit): src/domain/context.ts. */
  ci?: CiIdentity;
  /** The automatic quarantine rule, applied before the gate (src/triage/auto-quarantine.ts). */
  autoQuarantine?: AutoQuarantineOptions;
  /** Tell owners or named users of the new failures (src/triage/notify.ts). */
  notify?: NotifyOptions;
  /** The clock that decides whether a quarantine's `until` is past (tests inject one). */
  now?: () => Date;
}
