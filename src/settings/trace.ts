/**
 * The settings of traceability (docs/design.md "Traceability"), spread into the settings table
 * (src/settings/table.ts), which stays the one list every adapter reads.
 */
export const TRACE_SETTINGS = {
  trace: {
    type: 'boolean',
    default: 'false',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Link each test's test case to the requirements (by requirementKey) and work items its test names, adding the links that are missing. With sync, also remove the links testcycle made that the code no longer names, when the test ran in full in this run; a link a person made is never removed. A requirement key no requirement holds is reported, never created. Needs a server whose /openapi.json offers the link routes; otherwise one line says what is missing and the job goes on.",
  },
} as const;
