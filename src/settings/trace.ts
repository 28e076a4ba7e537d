/**
 * The settings of traceability (docs/design.md "Traceability"), spread into the settings table
 * (src/settings/table.ts), which stays the one list every adapter reads.
 */
export const TRACE_SETTINGS = {
  trace: {
    type: 'boolean',
    default: 'false',
    modes: ['publish', 'sync', 'report'],
    commands: ['publish', 'sync', 'report'],
    help: {
      report:
        'Show the traceability matrix of the latest cycle on the page: each requirement not ARCHIVED, its linked test cases and their results (about ceil(R/100) + ceil(N/100) more requests).',
    },
    description:
      "Link each test's test case to the requirements (by requirementKey) and work items its test names, adding the links that are missing. With sync, also remove the links testcycle made that the code no longer names, when the test ran in full in this run; a link a person made is never removed. A requirement key no requirement holds is reported, never created. Needs a server whose /openapi.json offers the link routes; otherwise one line says what is missing and the job goes on. With report: the page shows the traceability matrix of the latest cycle.",
  },
  requirements: {
    type: 'filter',
    placeholder: 'FILTRQL',
    modes: ['publish', 'gate'],
    commands: ['coverage', 'publish', 'gate'],
    description:
      'Coverage: the requirements in scope, a FiltrQL condition on requirements (e.g. status = "APPROVED"); default: every requirement that is not ARCHIVED.',
    needs: [
      {
        anyOf: ['min-coverage', 'max-failing-requirements'],
        in: { commands: ['publish', 'gate'], modes: ['publish', 'gate'] },
      },
    ],
  },
  'mark-covered': {
    type: 'boolean',
    default: 'false',
    commands: ['coverage'],
    description:
      'Coverage: set each requirement whose status in the cycle is PASSED to COVERED (If-Match, merged with the record as it is then; one that became COVERED or ARCHIVED meanwhile is left). Never the reverse: no requirement leaves COVERED here.',
  },
  'coverage-format': {
    type: 'choice',
    choices: ['text', 'markdown', 'csv'],
    default: 'text',
    commands: ['coverage'],
    flag: 'format',
    placeholder: 'FORMAT',
    description:
      'Coverage: how the matrix is printed without --json: text, markdown (a table, as in the job summary) or csv (one row per requirement and test case, for auditors).',
  },
  'min-coverage': {
    type: 'number',
    min: 0,
    max: 100,
    placeholder: 'PCT',
    unit: 'percent',
    threshold: true,
    modes: ['publish', 'gate'],
    commands: ['coverage', 'publish', 'gate'],
    description:
      'Coverage (coverage, and the gate of publish and gate): fail (exit 1, naming them) when fewer than this percentage of the requirements in scope are PASSED in the cycle (every linked test case with a result passed).',
  },
  'max-failing-requirements': {
    type: 'integer',
    min: 0,
    placeholder: 'N',
    threshold: true,
    modes: ['publish', 'gate'],
    commands: ['coverage', 'publish', 'gate'],
    description:
      'Coverage (coverage, and the gate of publish and gate): fail (exit 1, naming them) when more requirements than this are FAILED in the cycle (a linked test case failed or was blocked).',
  },
} as const;
