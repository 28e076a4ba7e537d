/**
 * The settings table (docs/architecture.md "Settings: the table, its readers, the defaults"): every
 * setting of the public contract declared once, and the generic readers bound to it. Its rows for
 * sync are in ./sync.ts; nothing outside this folder imports them but through this file.
 */
export * from './table.js';
