/** Public surface of the HTTP layer. */
export { startHttpServer } from './http-server';
export { createRequestHandler, consoleLogger } from './request-handler';
export { JSON_CONTENT_TYPE, errorResponse, sendResponse, successResponse, helpUrl } from './envelope';
export type { WireResponse } from './envelope';
export type {
  ExtraRoute, RequestHandler, RequestLogEntry, RouteContext, RunningServer, ServerLogger, ServerOptions,
} from './types';
