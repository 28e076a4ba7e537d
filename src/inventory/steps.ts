/**
 * A test case's steps kept in step with its test's (docs/design.md "Sync: what sync owns"). Steps
 * are matched by their text, not their place: the longest common run of actions stays as it is,
 * so inserting a step creates one step and the others keep their ids (and the executions recorded
 * against them); between two unchanged steps, a changed text updates the step that stood there.
 * Sequence numbers are rewritten only where the new order needs it. Every write merges against the
 * step as sync read it: a field a person changed since is kept, never overwritten.
 */
import { type ServiceClient, updateWithRetry } from '../client/index.js';
import { f } from '../client/index.js';
import { ServiceError } from '../shared/errors.js';
import type { TestStep } from '../parsers/index.js';
import type { WritableAttributesOf } from '../schema/resources.js';
import { createOrFind } from '../domain/index.js';

/** A live step of a case, as sync read it. */
export interface ExistingStep {
  id: string;
  sequenceNumber: number;
  action: string;
  expectedResult: string;
}

type StepChange = Pick<
  WritableAttributesOf<'test_steps'>,
  'action' | 'expectedResult' | 'sequenceNumber'
>;

export interface StepPlan {
  create: { sequenceNumber: number; step: TestStep }[];
  /** `base`: the step as read; a field that differs from it at write time is a person's, kept. */
  update: { base: ExistingStep; change: StepChange }[];
  remove: ExistingStep[];
}

/**
 * Above this many cells (changed steps times changed steps) the steps between the common start
 * and end are paired by place: the diff stays bounded whatever a report holds.
 */
const MAX_DIFF_CELLS = 1_000_000;

/**
 * The writes that make `existing` read as `desired`. An expectedResult is written only when the
 * report gives one: without it, what a person wrote there stays.
 */
export function planSteps(
  desired: readonly TestStep[],
  existing: readonly ExistingStep[],
): StepPlan {
  const kept = alignByText(
    existing.map((s) => s.action),
    desired.map((s) => s.action),
  );
  const numbers = sequenceNumbers(kept.map((i) => (i === undefined ? undefined : existing[i])));
  const plan: StepPlan = { create: [], update: [], remove: [] };
  const used = new Set<number>();
  desired.forEach((step, j) => {
    const i = kept[j];
    const sequenceNumber = numbers[j]!;
    if (i === undefined) {
      plan.create.push({ sequenceNumber, step });
      return;
    }
    used.add(i);
    const base = existing[i]!;
    const change: StepChange = {};
    if (base.action !== step.action) change.action = step.action;
    if (step.expectedResult !== undefined && base.expectedResult !== step.expectedResult)
      change.expectedResult = step.expectedResult;
    if (base.sequenceNumber !== sequenceNumber) change.sequenceNumber = sequenceNumber;
    if (Object.keys(change).length) plan.update.push({ base, change });
  });
  existing.forEach((s, i) => {
    if (!used.has(i)) plan.remove.push(s);
  });
  return plan;
}

export const stepWrites = (plan: StepPlan): number =>
  plan.create.length + plan.update.length + plan.remove.length;

/** A POST per new step; a GET (its ETag) and a PATCH or DELETE per changed or extra step. */
export const stepCost = (plan: StepPlan): number =>
  plan.create.length + 2 * (plan.update.length + plan.remove.length);

/**
 * For each desired step, the existing step it keeps (by index), or undefined for a new one. The
 * longest common subsequence of actions is kept; in each gap between two kept steps, the existing
 * steps left there are paired in order with the desired ones (a changed text), the rest created
 * or removed.
 */
export function alignByText(
  existing: readonly string[],
  desired: readonly string[],
): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(desired.length).fill(undefined);
  // The common start and end first: most edits touch a few steps in the middle.
  let start = 0;
  while (start < existing.length && start < desired.length && existing[start] === desired[start]) {
    out[start] = start;
    start++;
  }
  let endE = existing.length;
  let endD = desired.length;
  while (endE > start && endD > start && existing[endE - 1] === desired[endD - 1]) {
    endE--;
    endD--;
    out[endD] = endE;
  }
  const anchors = lcs(existing, desired, start, endE, start, endD);
  // Gaps between anchors (and the ends of the middle): pair what is left there, in order.
  let e = start;
  let d = start;
  for (const [ae, ad] of [...anchors, [endE, endD] as const]) {
    for (let k = 0; k < Math.min(ae - e, ad - d); k++) out[d + k] = e + k;
    if (ad < endD) out[ad] = ae;
    e = ae + 1;
    d = ad + 1;
  }
  return out;
}

/** The matched index pairs of a longest common subsequence of two slices, in order. */
function lcs(
  a: readonly string[],
  b: readonly string[],
  a0: number,
  a1: number,
  b0: number,
  b1: number,
): (readonly [number, number])[] {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0 || n * m > MAX_DIFF_CELLS) return [];
  // length[i][j]: the LCS of a[a0+i..a1) and b[b0+j..b1), in one flat array.
  const width = m + 1;
  const length = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      length[i * width + j] =
        a[a0 + i] === b[b0 + j]
          ? length[(i + 1) * width + j + 1]! + 1
          : Math.max(length[(i + 1) * width + j]!, length[i * width + j + 1]!);
  const pairs: (readonly [number, number])[] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[a0 + i] === b[b0 + j]) {
      pairs.push([a0 + i, b0 + j]);
      i++;
      j++;
    } else if (length[(i + 1) * width + j]! >= length[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * Sequence numbers for the desired order that change the fewest kept steps: a kept step keeps its
 * number when the steps before it still fit below it, i.e. along the longest run whose
 * `number - place` never decreases (and is at least 0); every other step takes the number after
 * the one before it.
 */
export function sequenceNumbers(steps: readonly (ExistingStep | undefined)[]): number[] {
  const slack = steps.map((s, j) =>
    s && Number.isInteger(s.sequenceNumber) && s.sequenceNumber - (j + 1) >= 0
      ? s.sequenceNumber - (j + 1)
      : undefined,
  );
  // Longest non-decreasing subsequence of the slacks, by patience sorting.
  const tails: number[] = [];
  const previous = new Array<number>(steps.length).fill(-1);
  slack.forEach((v, j) => {
    if (v === undefined) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (slack[tails[mid]!]! <= v) lo = mid + 1;
      else hi = mid;
    }
    previous[j] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = j;
  });
  const stays = new Set<number>();
  for (let j = tails.at(-1) ?? -1; j >= 0; j = previous[j]!) stays.add(j);
  const numbers: number[] = [];
  let next = 1;
  steps.forEach((s, j) => {
    const n = stays.has(j) ? s!.sequenceNumber : next;
    numbers.push(n);
    next = n + 1;
  });
  return numbers;
}

/** A planned step write not made: a person changed the step (`now`) since sync read it. */
export type StepKept = (now: ExistingStep, ours: string) => void;

export interface StepsWritten {
  created: number;
  updated: number;
  deleted: number;
}

/** A case's steps: updates in place, extras soft-deleted, new ones created after. */
export async function writeSteps(
  client: ServiceClient,
  projectId: string,
  caseId: string,
  plan: StepPlan,
  kept: StepKept,
): Promise<StepsWritten> {
  const done: StepsWritten = { created: 0, updated: 0, deleted: 0 };
  for (const u of plan.update) {
    let edited: ExistingStep | undefined;
    const { written } = await updateWithRetry(client, 'test_steps', u.base.id, {
      change: (current) => {
        edited = undefined;
        const now = stepOf(u.base.id, current.attributes);
        const out: StepChange = {};
        for (const name of Object.keys(u.change) as (keyof StepChange)[]) {
          const value = u.change[name];
          if (now[name] === value) continue;
          // Changed since sync read it: a person's, kept.
          if (now[name] !== u.base[name]) edited = now;
          else Object.assign(out, { [name]: value });
        }
        return Object.keys(out).length ? out : null;
      },
    });
    if (edited) kept(edited, u.change.action ?? u.base.action);
    if (written) done.updated++;
  }
  for (const step of plan.remove) {
    const outcome = await deleteStep(client, step);
    if (typeof outcome === 'object') kept(outcome, '(removed)');
    if (outcome === 'deleted') done.deleted++;
  }
  for (const c of plan.create) {
    await createOrFind(
      () =>
        client.create('test_steps', {
          testCaseId: caseId,
          projectId,
          sequenceNumber: c.sequenceNumber,
          action: c.step.action,
          ...(c.step.expectedResult !== undefined ? { expectedResult: c.step.expectedResult } : {}),
        }),
      // A create whose answer was lost: the step at that place with that text is the one made.
      async () => {
        for await (const r of client.iterate<'test_steps'>('/test_steps', {
          filter: f.and(f.eq('testCaseId', caseId), f.eq('sequenceNumber', c.sequenceNumber)),
        }))
          if (r.attributes.action === c.step.action) return r;
        return undefined;
      },
      client.scheduler.policy.createAttempts,
    );
    done.created++;
  }
  return done;
}

function stepOf(id: string, a: Record<string, unknown>): ExistingStep {
  return {
    id,
    sequenceNumber: Number(a.sequenceNumber ?? 0),
    action: String(a.action ?? ''),
    expectedResult: String(a.expectedResult ?? ''),
  };
}

/**
 * Soft delete with the step's ETag, only while its text is still what sync read; a 412 reads again
 * (bounded), a step already gone is done.
 */
async function deleteStep(
  client: ServiceClient,
  step: ExistingStep,
): Promise<'deleted' | 'gone' | ExistingStep> {
  for (let round = 1; ; round++) {
    try {
      const current = await client.get('test_steps', step.id);
      const now = stepOf(step.id, current.attributes);
      // Edited since sync read it: the step is a person's now, kept.
      if (now.action !== step.action || now.expectedResult !== step.expectedResult) return now;
      await client.delete('test_steps', step.id, current.etag);
      return 'deleted';
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return 'gone';
      if (
        !(error instanceof ServiceError) ||
        error.status !== 412 ||
        round >= client.scheduler.policy.conflictRounds
      )
        throw error;
    }
  }
}
