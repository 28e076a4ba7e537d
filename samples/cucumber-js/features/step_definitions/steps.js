'use strict';
const assert = require('node:assert');
const { Given, When, Then } = require('@cucumber/cucumber');

// In-process counter: the flaky scenario fails on its first attempt and passes
// on its retry (cucumber-js --retry 1 reruns it in the same process).
let flakyPresses = 0;

Given('a calculator', function () {
  this.result = 0;
});

When('I add {int} and {int}', function (a, b) {
  this.result = a + b;
});

When('I subtract {int} from {int}', function (b, a) {
  this.result = a - b;
});

When('I multiply {int} by {int}', function (a, b) {
  this.result = a * b;
});

When('I divide {int} by {int} on a broken calculator', function (a, b) {
  const calculator = undefined;
  this.result = calculator.divide(a, b);
});

When('I press the square-root button', function () {
  return 'pending';
});

Given('this scenario does not apply here', function () {
  return 'skipped';
});

When('I press the flaky button', function () {
  flakyPresses += 1;
  assert.ok(flakyPresses > 1, `press ${flakyPresses} fails`);
  this.result = 42;
});

When('I print {string}', function (text) {
  console.log(text);
  this.log(text);
});

Then('the result is {int}', function (expected) {
  assert.strictEqual(this.result, expected);
});

Then('the text {string} equals {string}', function (actual, expected) {
  assert.strictEqual(actual, expected, `expected <${actual}> & "${expected}" to match`);
});

When('I add the rows:', function (table) {
  for (const row of table.hashes()) this.result += Number(row.a) + Number(row.b);
});

Then('the display shows:', function (text) {
  assert.strictEqual(String(this.result), text.trim());
});
