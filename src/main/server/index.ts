/** Public surface of the HTTP layer. */
export { startHttpServer } from './http-server';
export type {
  ExtraRoute, RequestHandler, RequestLogEntry, RouteContext, RunningServer, ServerLogger, ServerOptions,
} from './types';
