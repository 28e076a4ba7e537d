import { normalizeBaseUrl, isLoopbackHost } from '../../src/client/base-url.js';
import { ConfigError } from '../../src/shared/errors.js';

describe('normalizeBaseUrl', () => {
  test.each([
    ['https://eu.example.com', 'https://eu.example.com/api/v1'],
    ['https://eu.example.com/', 'https://eu.example.com/api/v1'],
    ['https://eu.example.com/api/v1', 'https://eu.example.com/api/v1'],
    ['https://eu.example.com/api/v1/', 'https://eu.example.com/api/v1'],
    ['https://example.com/tm', 'https://example.com/tm/api/v1'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/v1'],
    ['http://localhost:3000/api/v1', 'http://localhost:3000/api/v1'],
    ['http://[::1]:3000', 'http://[::1]:3000/api/v1'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeBaseUrl(input).href).toBe(expected);
  });

  test.each([
    ['', /is required/],
    ['not a url', /is not a URL/],
    ['http://eu.example.com', /must use https/],
    ['http://10.0.0.5/api/v1', /must use https/],
    ['ftp://eu.example.com', /must use https/],
    ['https://user:pw@eu.example.com', /credentials/],
    ['https://eu.example.com/api/v1?x=1', /query/],
  ])('refuses %j', (input, message) => {
    let thrown: unknown;
    try {
      normalizeBaseUrl(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).setting).toBe('base-url');
    expect((thrown as Error).message).toMatch(message);
  });

  test('loopback hosts', () => {
    expect(
      ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]', 'a.localhost'].every(isLoopbackHost),
    ).toBe(true);
    expect(
      ['10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1'].some(isLoopbackHost),
    ).toBe(false);
  });
});
