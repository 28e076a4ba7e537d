/**
 * The library entry point (`import { ServiceClient, f, publish, readReports } from 'testcycle'`):
 * the client, the resource table, the publish pipeline, the report parsers, the emulator and
 * the dashboard (readSeries, analyze, renderHtml, renderMarkdown).
 */
// First: on an older Node this stops with a clear message before undici loads.
import './node-version.js';

export { VERSION } from './version.js';
export * from './api/index.js';
export * from './schema/resources.js';
export * from './publish/index.js';
export * from './reports/index.js';
export * from './emulator/index.js';
export * from './dashboard/index.js';
