import type { Logger } from '../logger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActionContext, ActionRegistry } from '../actions/types';

/** One line of the request log. Carries no headers and no query string, so never a token. */
export interface RequestLogEntry {
  readonly method: string;
  /** Path only, as received (locale prefix included). */
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** The client went away before the response was complete. */
  readonly aborted: boolean;
}

/** The engine's logger plus one line per request; `error` gets unexpected failures (500s, upload clean-up). */
export interface ServerLogger extends Logger {
  request(entry: RequestLogEntry): void;
}

/** What an extra route's handler gets besides the raw request and response. */
export interface RouteContext {
  /** Path parameters from the route pattern, URL-decoded (`/datastore/dump/:id` → `{id}`). */
  readonly params: Readonly<Record<string, string>>;
  /** The parsed query string (single and repeated keys as sent). */
  readonly query: URLSearchParams;
  /** Same context an action would get (auth, locale, siteUrl, path, rawQuery, method). */
  readonly context: ActionContext;
  readonly registry: ActionRegistry;
}

/**
 * A non-action endpoint mounted next to the API (e.g. `GET /datastore/dump/:id`). The pattern
 * is a find-my-way path; it also answers under a locale prefix (`/it/datastore/dump/x`), as
 * CKAN strips the locale before routing everything. A thrown ActionError becomes the CKAN
 * error envelope (without `help`); the handler owns the response otherwise.
 */
export interface ExtraRoute {
  readonly method: 'GET' | 'POST' | ReadonlyArray<'GET' | 'POST'>;
  readonly path: string;
  handle(req: IncomingMessage, res: ServerResponse, route: RouteContext): Promise<void> | void;
}

export interface ServerOptions {
  readonly registry: ActionRegistry;
  /** Loopback only: `127.0.0.1` (default), `::1` or `localhost`. */
  readonly host?: string;
  /** 0 = chosen by the OS. */
  readonly port?: number;
  /** This data directory's token; requests carrying it are `authorized`. Must be non-empty. */
  readonly token: string;
  /** The built renderer folder (holds index.html). May be absent: a help page is served. */
  readonly staticDir?: string;
  /** Where multipart files are streamed; created on demand. */
  readonly uploadDir: string;
  /** Cap for non-file request bodies (JSON, form fields). */
  readonly maxBodyBytes: number;
  /** Cap for the files of one multipart request, together. */
  readonly maxUploadBytes: number;
  /** Cap for the body of a request without the token, which may carry no files (default 1 MiB). */
  readonly maxAnonymousBodyBytes?: number;
  readonly extraRoutes?: readonly ExtraRoute[];
  readonly logger?: ServerLogger;
  /** How long close() waits for in-flight requests before cutting connections. */
  readonly closeGraceMs?: number;
  /** Overrides of http-server.ts's CONNECTION_LIMITS (tests use small ones). */
  readonly connectionLimits?: Partial<{
    readonly maxConnections: number;
    readonly headersTimeoutMs: number;
    readonly requestTimeoutMs: number;
    readonly keepAliveTimeoutMs: number;
    readonly keepAliveGraceMs: number;
  }>;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
