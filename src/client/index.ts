export * from './base-url.js';
export * from './client.js';
export * from '../shared/errors.js';
export * from './filter.js';
export * from '../shared/redact.js';
export * from './scheduler.js';
export {
  createUndiciTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';
export { tokenStanding, type TokenStanding } from './token.js';
export { clientSettings, type ClientSettings, userFilterSetting } from './settings.js';
export { requestsOf, type RequestFigures } from './requests.js';
