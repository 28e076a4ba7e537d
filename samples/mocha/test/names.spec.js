'use strict';
const assert = require('node:assert');

describe('names: "double" & \'single\' <tags> & more', function () {
  it('has "double" and \'single\' quotes, <>&, an emoji 🚀 and é ü 日本', function () {
    assert.strictEqual('日本'.length, 2);
  });

  it('fails with <>& and "quotes" in the message 💥', function () {
    assert.strictEqual('é', 'ü', 'expected <é> & "ü" to match');
  });
});
