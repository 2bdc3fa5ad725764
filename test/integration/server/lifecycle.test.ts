import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/main/errors';
import { createRequestHandler } from '../../../src/main/server/request-handler';
import { PortInUseError, startHttpServer } from '../../../src/main/server/http-server';
import type { ExtraRoute } from '../../../src/main/server/types';
import { call, createFakeRegistry, rawRequest, startTestServer, TOKEN, type Probe, type TestServer } from './helpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function started(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const t = await startTestServer(overrides);
  cleanups.push(() => t.stop());
  return t;
}

/** GET over a fresh connection; resolves with status, headers and body. */
function get(port: number, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('close()', () => {
  it('stops accepting, lets an in-flight request finish, then resolves', async () => {
    const t = await started();
    const inFlight = get(t.port, '/api/3/action/slow');
    await t.probe.slowStarted;
    let closed = false;
    const closing = t.server.close().then(() => {
      closed = true;
    });
    await expect(fetch(`${t.url}/api/3`)).rejects.toThrow();
    expect(closed).toBe(false);
    t.probe.releaseSlow();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result).toBe('done');
    // It was told not to reuse the connection.
    expect(res.headers.connection).toBe('close');
    await closing;
    expect(closed).toBe(true);
  });

  it('does not wait for idle keep-alive connections', async () => {
    // A grace period far beyond the test's timeout: if close() treated the idle connection as
    // busy it could only end by cutting it after the grace, and the test would time out.
    const t = await started({ closeGraceMs: 10 * 60_000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { status, socket } = await new Promise<{ status: number; socket: Socket }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: t.port, path: '/api/3', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket! }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const socketClosed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => setImmediate(resolve)); // the socket is back in the agent's idle pool
    expect(socket.destroyed).toBe(false);
    await t.server.close();
    await socketClosed; // the server ended the idle connection itself
    agent.destroy();
  });

  it('is idempotent', async () => {
    const t = await started();
    const a = t.server.close();
    const b = t.server.close();
    expect(a).toBe(b);
    await a;
    await t.server.close();
  });

  it('cuts requests that outlive the grace period', async () => {
    const t = await started({ closeGraceMs: 100 });
    const inFlight = get(t.port, '/api/3/action/slow');
    await t.probe.slowStarted;
    await t.server.close();
    await expect(inFlight).rejects.toThrow();
  });
});

describe('startHttpServer', () => {
  it('reports its url and port', async () => {
    const t = await started();
    expect(t.port).toBeGreaterThan(0);
    expect(t.url).toBe(`http://127.0.0.1:${t.port}`);
  });

  it('rejects when the port is taken', async () => {
    const t = await started();
    const refused = startTestServer({ port: t.port });
    await expect(refused).rejects.toBeInstanceOf(PortInUseError);
    await expect(refused).rejects.toThrow(new RegExp(`port ${t.port} on 127.0.0.1 is already in use`));
  });
});

describe('createRequestHandler without startHttpServer', () => {
  it('serves from any node:http server', async () => {
    const root = await mkdtemp(join(tmpdir(), 'deskstore-handler-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    let port = 0;
    const probe: Probe = { uploadPaths: [], tokenProbeRuns: 0, releaseSlow: () => undefined, slowStarted: Promise.resolve() };
    const handler = createRequestHandler(
      {
        registry: createFakeRegistry(probe),
        token: TOKEN,
        uploadDir: join(root, 'u'),
        maxBodyBytes: 1024,
        maxUploadBytes: 1024,
        logger: { request: () => undefined, warn: () => undefined, error: () => undefined },
      },
      () => port,
    );
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    port = (server.address() as AddressInfo).port;
    const res = await call(`http://127.0.0.1:${port}/api/3/action/echo?a=1`, { headers: { 'X-CKAN-API-Key': TOKEN } });
    expect(res.json.result.context).toMatchObject({ authorized: true, siteUrl: `http://127.0.0.1:${port}` });
  });
});

describe('extra routes', () => {
  const routes: ExtraRoute[] = [
    {
      method: 'GET',
      path: '/datastore/dump/:id',
      handle(_req, res, route) {
        if (route.params.id === 'missing') throw new NotFoundError('Resource "missing" was not found.');
        res.setHeader('Content-Type', 'text/csv;charset=utf-8');
        res.end(
          `id=${route.params.id};format=${route.query.get('format')};auth=${route.context.authorized};` +
            `locale=${route.context.locale};path=${route.context.path};actions=${route.registry.size}`,
        );
      },
    },
    {
      method: ['GET', 'POST'],
      path: '/broken',
      handle(_req, res) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('partial');
        throw new Error('broke mid-stream');
      },
    },
  ];

  it('mounts them with params, query, context; also under a locale', async () => {
    const t = await started({ extraRoutes: routes });
    const res = await call(`${t.url}/it/datastore/dump/ab%C3%BC?format=csv`, { headers: { Authorization: TOKEN } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('id=abü;format=csv;auth=true;locale=it;path=/datastore/dump/ab%C3%BC;actions=7');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('maps thrown action errors to the envelope (without help)', async () => {
    const t = await started({ extraRoutes: routes });
    const res = await call(`${t.url}/datastore/dump/missing`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      success: false,
      error: { __type: 'Not Found Error', message: 'Not found: Resource "missing" was not found.' },
    });
    expect((await call(`${t.url}/datastore/dump/x`, { method: 'POST' })).status).toBe(405);
  });

  it('cuts the connection when a route fails after it started answering, and logs it', async () => {
    const t = await started({ extraRoutes: routes });
    await expect(rawRequest({ port: t.port, path: '/broken' })).rejects.toThrow();
    expect(t.errors).toHaveLength(1);
    expect((t.errors[0]!.error as Error).message).toBe('broke mid-stream');
    expect(t.logs.at(-1)).toMatchObject({ path: '/broken', aborted: true });
  });

  it('only listens on the host it was given', async () => {
    const s = await startHttpServer({
      registry: new Map(),
      token: TOKEN,
      host: 'localhost',
      uploadDir: tmpdir(),
      maxBodyBytes: 10,
      maxUploadBytes: 10,
    });
    cleanups.push(() => s.close());
    expect(s.url).toBe(`http://localhost:${s.port}`);
  });
});
