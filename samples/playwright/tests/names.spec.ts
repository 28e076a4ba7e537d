import { test, expect } from '@playwright/test';

test.describe(`names: "double" & 'single' <tags> & more`, () => {
  test(`has "double" and 'single' quotes, <>&, an emoji 🚀 and é ü 日本`, () => {
    expect('日本'.length).toBe(2);
  });

  test('fails with <>& and "quotes" in the message 💥', () => {
    expect('é', 'expected <é> & "ü" to match').toBe('ü');
  });
});
