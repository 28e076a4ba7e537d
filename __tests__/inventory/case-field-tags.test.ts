/**
 * `--case-fields` `tag:NAME` reads every runner's tags as the parsers keep them (docs/design.md
 * "Sync"): NUnit and TRX categories and Allure `tag` labels too, not only Cucumber's, Playwright's
 * and CTRF's.
 */
import { parseReport } from '../../src/parsers/index.js';
import { valueOf } from '../../src/inventory/case-fields.js';

const component = { field: 'component', source: 'tag', name: 'component' } as const;

test.each([
  [
    'NUnit [Category]',
    'nunit.xml',
    `<?xml version="1.0" encoding="utf-8"?>
<test-run><test-suite type="Assembly" name="Shop.Tests.dll">
  <test-case name="Adds" fullname="Shop.Tests.Cart.Adds" classname="Shop.Tests.Cart" result="Passed">
    <categories><category name="smoke"/><category name="component:cart"/></categories>
  </test-case>
</test-suite></test-run>`,
  ],
  [
    'an Allure tag label',
    'u1-result.json',
    JSON.stringify({
      uuid: 'u1',
      historyId: 'h1',
      name: 'Adds',
      fullName: 'cart#adds',
      status: 'passed',
      labels: [
        { name: 'tag', value: 'smoke' },
        { name: 'tag', value: 'component:cart' },
      ],
    }),
  ],
])('%s', (_how, file, text) => {
  const [test] = parseReport(file, text).tests;
  expect(valueOf(test!, component)).toBe('cart');
});
