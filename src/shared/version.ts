/** Kept in step with package.json by a test (__tests__/contract.test.ts). */
export const VERSION = '0.1.0';
