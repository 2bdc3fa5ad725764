/** Public surface of the HTTP layer. */
export { startHttpServer } from './http-server';
export { changesDumpRoute, dumpRoute } from './dump-route';
export { downloadRoutes, pageRoutes } from './download-route';
export type { ExtraRoute, RequestHandler, RequestLogEntry, RouteContext, RunningServer, ServerLogger, ServerOptions } from './types';
