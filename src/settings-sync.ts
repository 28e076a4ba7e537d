/**
 * The settings of `testcycle sync` and action mode `sync` (docs/design.md "Sync"), spread into the
 * settings table (src/settings.ts), which stays the one list every adapter reads.
 */

/** Settings of sync that a publish reads only with `sync` (publish --sync). */
const WITH_SYNC = [{ anyOf: ['sync'], in: { commands: ['publish'], modes: ['publish'] } }] as const;

export const SYNC_SETTINGS = {
  'retire-missing': {
    type: 'boolean',
    default: 'false',
    modes: ['sync'],
    commands: ['sync'],
    description:
      'Sync: archive (status ARCHIVED) the automated test cases (AUTOMATED, with an automationKey) that no report of the run has; manual cases are never touched, and a case whose test comes back is made ACTIVE again.',
  },
  'retire-max': {
    type: 'integer',
    min: 0,
    placeholder: 'N',
    modes: ['sync'],
    commands: ['sync'],
    description:
      'Sync: refuse (exit 2, nothing written) when retire-missing would archive more than N cases, so that a partial run (one shard, a filtered run) cannot archive the suite. Default: 10% of the automated cases, at least 1.',
    needs: [{ anyOf: ['retire-missing'] }],
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
    choices: ['key', 'keep'],
    default: 'key',
    env: 'TESTCYCLE_CASE_NAMES',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Sync: the name of an automated test case. key: its automation key, given again when the case's name differs (a renamed test renames its case). keep: the key names a case when sync creates it, and sync never renames a case afterwards, so a name a person wrote stays.",
    needs: WITH_SYNC,
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
