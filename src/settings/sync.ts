/**
 * The settings of `testcycle sync` and action mode `sync` (docs/design.md "Sync"), spread into the
 * settings table (src/settings/table.ts), which stays the one list every adapter reads.
 */
import { DEFAULT_RETIRE_MAX_PERCENT } from '../shared/defaults.js';

/** Settings of sync that a publish reads only with `sync` (publish --sync). */
const WITH_SYNC = [{ anyOf: ['sync'], in: { commands: ['publish'], modes: ['publish'] } }] as const;

export const SYNC_SETTINGS = {
  'retire-missing': {
    type: 'boolean',
    default: 'false',
    modes: ['sync'],
    commands: ['sync'],
    description:
      "Sync: archive (status ARCHIVED) the automated test cases in this pipeline's scope whose tests this run proves gone: the run was whole (no shard, no filter, no empty or unreadable report), the test's file ran without it and no longer declares it (or is no longer in the workspace), no run error touched it. A test that merely did not run is kept, and the plan says why; manual cases are never touched, and a case whose test comes back is made ACTIVE again.",
  },
  'retire-max': {
    type: 'string',
    placeholder: 'N|PCT%',
    modes: ['sync'],
    commands: ['sync'],
    description: `Sync: refuse (exit 2, nothing written) when retire-missing would archive more than this: a count (5) or a share of the automated cases in this pipeline's scope (20%). A last guard: evidence decides what is gone. Default: ${DEFAULT_RETIRE_MAX_PERCENT}%, at least 1.`,
    needs: [{ anyOf: ['retire-missing'] }],
  },
  'retire-grace': {
    type: 'integer',
    min: 0,
    max: 100,
    default: '0',
    placeholder: 'N',
    modes: ['sync'],
    commands: ['sync'],
    description:
      'Sync: archive a case proven gone only when the newest N cycles of retire-series hold no result for it, so the Space remembers the runs (no local state). 0: on the first run that proves it gone.',
    needs: [{ anyOf: ['retire-missing'] }],
  },
  'retire-series': {
    type: 'string',
    placeholder: 'PATTERN',
    modes: ['sync'],
    commands: ['sync'],
    description:
      "Sync: the series of cycles retire-grace reads: your publish step's cycle-name template (Nightly {date}) or a pattern (Nightly *).",
    needs: [{ anyOf: ['retire-grace'] }],
  },
  'retire-scope': {
    type: 'string',
    placeholder: 'REGEX',
    modes: ['sync'],
    commands: ['sync'],
    description:
      "Sync: the automation keys retire-missing and follow-renames may touch, a regular expression (e.g. ^(src|tests)/). Default: the pipeline's own: keys naming a file in a folder where this run ran tests, and keys without a file whose suite ran in this run; another team's keys are never touched.",
    needs: [{ anyOf: ['retire-missing', 'follow-renames'] }],
  },
  'follow-renames': {
    type: 'boolean',
    default: 'false',
    modes: ['sync'],
    commands: ['sync'],
    description:
      'Sync: a test that vanished from a file that ran, and a new test of that file with an alike name (the same title under a renamed describe, or a title a few characters apart), are one test renamed: its case takes the new key (and name), so its history stays on one case, instead of a new case and an archive. Without it the plan lists them as likely renames.',
  },
  'migrate-keys': {
    type: 'string',
    placeholder: 'OLD_TEMPLATE',
    modes: ['sync'],
    commands: ['sync'],
    description:
      'Sync: cases keyed by this older automation-key template (e.g. "{classname}.{name}", the default until 0.1.0) get the key automation-key builds now, one PATCH each, so their history stays on the same case.',
  },
  'case-names': {
    type: 'choice',
    choices: ['key', 'keep', 'replace'],
    default: 'key',
    env: 'TESTCYCLE_CASE_NAMES',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Sync: the name of a test case. key: its automation key, while the case's name is the one sync gave it (the name of its automation key, or of its old key under migrate-keys); a name a person wrote stays, and the summary lists it. keep: the key names a case when sync creates it, and sync never renames a case afterwards. replace: every matched case is named after its key, a person's name too.",
    needs: WITH_SYNC,
  },
  'replace-steps': {
    type: 'boolean',
    default: 'false',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Sync: replace the written steps of matched test cases that are not AUTOMATED (a MANUAL case linked by its case key, say) with the report's. Without it, such steps and the case's automation status stay, and the summary lists them; the steps of AUTOMATED cases, and of cases without steps, are always the report's.",
    needs: WITH_SYNC,
  },
  'ownership-field': {
    type: 'string',
    placeholder: 'NAME',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Sync: a string custom field of test cases where sync records the values case-fields wrote, so that it follows the report's changes of its own values and keeps only a person's edits. Without it, sync fills empty fields and keeps every value that differs from the report's (the summary lists them).",
    needs: [...WITH_SYNC, { anyOf: ['case-fields'] }],
  },
  'case-fields': {
    type: 'string',
    placeholder: 'MAPPING',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      'Sync: report metadata to case fields, FIELD=SOURCE:NAME comma-separated; FIELD priority, owner (a user by email or name) or a custom field of test cases; SOURCE property:NAME (JUnit properties), tag:NAME (@NAME:VALUE tags of Cucumber, Playwright, CTRF), label:NAME (Allure labels, Playwright annotations). E.g. priority=tag:priority,owner=label:owner,component=property:component.',
    needs: WITH_SYNC,
  },
  sync: {
    type: 'boolean',
    default: 'false',
    modes: ['publish'],
    commands: ['publish'],
    description:
      "Publish: first create and update the run's test cases as sync does (names, automation status, steps, case-fields), then publish the results; never archives.",
  },
} as const;
