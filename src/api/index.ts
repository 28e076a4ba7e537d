export * from './base-url.js';
export * from './client.js';
export * from './errors.js';
export * from './filter.js';
export * from './redact.js';
export * from './scheduler.js';
export {
  createUndiciTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';
