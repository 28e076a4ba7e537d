/** A cycle's triage (docs/design.md "Triage"), and how its lists name tests. */
import { oneLine } from '../shared/redact.js';
import type { CycleRef } from '../domain/index.js';
import type { TriagedTest } from './quarantine.js';

/** A cycle's triage, as results, summaries and outputs show it. */
export interface Triage {
  /** Tests under an active quarantine: their results are in no count and no threshold. */
  quarantined: TriagedTest[];
  /** The baseline compared with (max-new-failures), when one was found. */
  baseline?: CycleRef;
  /** FAILED or BLOCKED now; PASSED, not run, or without an execution in the baseline. */
  newFailures: TriagedTest[];
  /** FAILED or BLOCKED now and in the baseline. */
  stillFailing: TriagedTest[];
  /** FAILED or BLOCKED in the baseline, PASSED now. */
  fixed: TriagedTest[];
  /** Days a quarantine without until counts (quarantine-expiry-days; 0: until only). */
  quarantineExpiryDays?: number;
}

/** How many tests a reason or a message names before "and N more". */
export const MAX_NAMED = 10;

/** `DEMO-T2 "B", DEMO-T3 "C" and 3 more`: bounded, each name on one line. */
export function nameTests(tests: TriagedTest[], max = MAX_NAMED): string {
  const shown = tests.slice(0, max).map((t) => `${t.key} "${oneLine(t.name)}"`);
  return `${shown.join(', ')}${tests.length > max ? ` and ${tests.length - max} more` : ''}`;
}
