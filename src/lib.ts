/** The library entry point: `import { ServiceClient, f } from 'testcycle'`. */
export * from './api/index.js';
export * from './schema/resources.js';
