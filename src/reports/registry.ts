/**
 * The one registry of formats: detection, `--format` choices, help and docs all read it.
 * Order matters for detection: the first match wins.
 */
import type { ReportFormat } from './format.js';
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
import { playwright } from './formats/playwright.js';
import { rspec } from './formats/rspec.js';
import { testng } from './formats/testng.js';
import { trx } from './formats/trx.js';
import { xunit } from './formats/xunit.js';

export const FORMATS: readonly ReportFormat[] = [
  junit,
  nunit3,
  nunit2,
  xunit,
  trx,
  testng,
  cucumberMessages,
  ctrf,
  jestJson,
  playwright,
  mocha,
  rspec,
  cucumber,
  allure,
  dart,
  gotest,
  googletest,
];

export function formatById(id: string): ReportFormat | undefined {
  return FORMATS.find((f) => f.id === id);
}

export const FORMAT_IDS = FORMATS.map((f) => f.id);
