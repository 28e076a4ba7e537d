/**
 * The one registry of parsers: each format id of src/shared/defaults.ts (REPORT_FORMAT_IDS, the
 * `--format` choices the settings table shows, in the order detection tries them) and its parser.
 */
import { REPORT_FORMAT_IDS, type ReportFormatId } from '../shared/defaults.js';
import type { ReportFormat } from './base/format.js';
import { allure } from './formats/allure.js';
import { ctrf } from './formats/ctrf.js';
import { cucumber } from './formats/cucumber.js';
import { cucumberMessages } from './formats/cucumber-messages.js';
import { dart } from './formats/dart.js';
import { gotest } from './formats/gotest.js';
import { googletest } from './formats/googletest.js';
import { jestJson } from './formats/jest.js';
import { junit } from './formats/junit.js';
import { mocha } from './formats/mocha.js';
import { nunit2, nunit3 } from './formats/nunit.js';
import { openTestReporting } from './formats/open-test-reporting.js';
import { playwright } from './formats/playwright.js';
import { robot } from './formats/robot.js';
import { rspec } from './formats/rspec.js';
import { tap } from './formats/tap.js';
import { testng } from './formats/testng.js';
import { trx } from './formats/trx.js';
import { xunit } from './formats/xunit.js';

/** A parser for every id (a missing one fails the type check); each parser's own id is its key. */
const PARSERS: Record<ReportFormatId, ReportFormat> = {
  junit,
  nunit: nunit3,
  nunit2,
  xunit,
  trx,
  testng,
  'open-test-reporting': openTestReporting,
  robot,
  'cucumber-messages': cucumberMessages,
  ctrf,
  'jest-json': jestJson,
  playwright,
  mocha,
  rspec,
  cucumber,
  allure,
  dart,
  gotest,
  googletest,
  tap,
};

/** In detection order: the first match wins. */
export const FORMATS: readonly ReportFormat[] = REPORT_FORMAT_IDS.map((id) => PARSERS[id]);

export function formatById(id: string): ReportFormat | undefined {
  return FORMATS.find((f) => f.id === id);
}

/** The format ids in detection order: the `--format` choices besides `auto`. */
export const FORMAT_IDS: string[] = [...REPORT_FORMAT_IDS];
