/**
 * The listening server: loopback only, port 0 allowed, and a close() that stops accepting,
 * lets in-flight requests finish, closes keep-alive sockets as they go idle, and cuts what
 * is left after a grace period.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRequestHandler, markExpectsContinue, urlHostFor } from './request-handler';
import type { RunningServer, ServerOptions } from './types';

const DEFAULT_CLOSE_GRACE_MS = 10_000;

/**
 * Connection limits (docs/security.md, "timeouts"). Node's defaults let an idle or half-open
 * socket live 60 s and accept sockets until file descriptors run out: thousands of them made
 * the server unreachable. A browser opens at most six connections to one host and scripts a
 * few, so 512 is far above any honest use, and a client gets 10 s to send its headers.
 */
export const CONNECTION_LIMITS = {
  maxConnections: 512,
  headersTimeoutMs: 10_000,
  /** The whole request, body included: a multi-gigabyte upload from a slow disk fits. */
  requestTimeoutMs: 15 * 60_000,
  /** How long an idle connection may be reused, as clients are told (`Keep-Alive: timeout=5`). */
  keepAliveTimeoutMs: 5_000,
  /**
   * How much longer the server keeps it open. Clients reuse an idle connection until a little
   * before the advertised timeout (Node's fetch: 2 s before); a busy client whose timer fires
   * late used to send its request on a connection the server was closing, and got no answer
   * (`UND_ERR_SOCKET`, issue 21). Now the server closes well after any client stops using it.
   */
  keepAliveGraceMs: 10_000,
} as const;

/**
 * Another program (or another Deskstore) already listens on the port asked for. Told in a
 * sentence by whoever chose the port (`deskstore serve --port`, `npm start`), without a stack.
 */
export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(`port ${port} on ${host} is already in use (EADDRINUSE): another Deskstore or another program is listening there`, options);
  }
}

export async function startHttpServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const urlHost = urlHostFor(host);
  let port = 0;
  const handler = createRequestHandler(options, () => port);
  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs + limits.keepAliveGraceMs,
    // How often those timeouts are enforced (Node's default, 30 s, lets sockets pile up meanwhile).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  });
  server.maxConnections = limits.maxConnections;
  // Node's headers timeout starts with the first byte: a socket that sends nothing at all is
  // given the same time, then cut. Once a request arrives Node's own timers take over.
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy());
  });
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    req.socket.setTimeout(0);
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      // The socket this response used is idle only once Node has reset its parser.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (closing) res.setHeader('Connection', 'close');
    // Set by hand, Node does not advertise its own (longer) keepAliveTimeout.
    else res.setHeader('Keep-Alive', `timeout=${Math.floor(limits.keepAliveTimeoutMs / 1000)}`);
    handler(req, res);
  };
  server.on('request', onRequest);
  // With this listener Node no longer sends `100 Continue` by itself: the handler decides,
  // so an oversized upload is refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    markExpectsContinue(req);
    onRequest(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    const refused = (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(host, options.port ?? 0, { cause: err }) : err);
    server.once('error', refused);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve, reject) => {
      closing = true;
      // Responses not yet started tell their client not to reuse the connection.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
      grace.unref();
      server.close((err) => {
        clearTimeout(grace);
        if (err) reject(err);
        else resolve();
      });
      server.closeIdleConnections();
    });
    return closed;
  };

  return { url: `http://${urlHost}:${port}`, port, close };
}
