// Step definitions of the run-errors run (regenerate.sh): "I add a pear" matches two of them,
// which makes the step ambiguous.
const { Given, When, Then } = require('@cucumber/cucumber');
const assert = require('node:assert');

Given('an empty cart', function () {
  this.items = [];
});

When('I add an apple', function () {
  this.items.push('apple');
});

When('I add a {word}', function (fruit) {
  this.items.push(fruit);
});

When('I add a pear', function () {
  this.items.push('pear');
});

Then('the cart holds {int} item(s)', function (count) {
  assert.strictEqual(this.items.length, count);
});
