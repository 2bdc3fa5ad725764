/**
 * The listening server: loopback only, port 0 allowed, and a close() that stops accepting,
 * lets in-flight requests finish, closes keep-alive sockets as they go idle, and cuts what
 * is left after a grace period.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestHandler, markExpectsContinue, urlHostFor } from './request-handler';
import type { RunningServer, ServerOptions } from './types';

const DEFAULT_CLOSE_GRACE_MS = 10_000;

export async function startHttpServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const urlHost = urlHostFor(host);
  let port = 0;
  const handler = createRequestHandler(options, () => port);
  const server = createServer();
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      // The socket this response used is idle only once Node has reset its parser.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (closing) res.setHeader('Connection', 'close');
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
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
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
