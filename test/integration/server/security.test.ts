import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, filesIn, rawRequest, startTestServer, TOKEN, type TestServer } from './helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.stop();
});

const authorizedWith = async (headers: Record<string, string>, method = 'GET') => {
  const res = await call(`${t.url}/api/3/action/${method === 'GET' ? 'echo' : 'echo_post'}`, { method, headers });
  expect(res.status).toBe(200);
  return res.json.result.context.authorized as boolean;
};

describe('authentication (docs/ckan-contract.md §1.3)', () => {
  it('accepts the bare token in Authorization or X-CKAN-API-Key', async () => {
    expect(await authorizedWith({ Authorization: TOKEN })).toBe(true);
    expect(await authorizedWith({ 'X-CKAN-API-Key': TOKEN })).toBe(true);
    expect(await authorizedWith({ Authorization: TOKEN, 'X-CKAN-API-Key': TOKEN }, 'POST')).toBe(true);
    // ckanapi sends both; one right header is enough.
    expect(await authorizedWith({ Authorization: 'stale', 'X-CKAN-API-Key': TOKEN })).toBe(true);
  });

  it('treats missing, wrong or malformed tokens as anonymous, never as an error', async () => {
    expect(await authorizedWith({})).toBe(false);
    expect(await authorizedWith({ Authorization: 'wrong' })).toBe(false);
    expect(await authorizedWith({ Authorization: `Bearer ${TOKEN}` })).toBe(false);
    expect(await authorizedWith({ Authorization: `${TOKEN}x` })).toBe(false);
    expect(await authorizedWith({ Authorization: '' })).toBe(false);
    expect(await authorizedWith({ 'X-CKAN-API-Key': TOKEN.slice(0, -1) }, 'POST')).toBe(false);
  });

  it('refuses to start without a token', async () => {
    await expect(startTestServer({ token: '' })).rejects.toThrow(/token/);
  });

  it('never logs tokens or query strings', async () => {
    await call(`${t.url}/api/3/action/echo?secret=1`, { headers: { Authorization: TOKEN } });
    expect(t.logs).toHaveLength(1);
    expect(t.logs[0]).toMatchObject({ method: 'GET', path: '/api/3/action/echo', status: 200, aborted: false });
    expect(typeof t.logs[0]!.ms).toBe('number');
    expect(JSON.stringify(t.logs)).not.toContain(TOKEN);
    expect(JSON.stringify(t.logs)).not.toContain('secret');
  });
});

describe('Host header (DNS rebinding)', () => {
  it('accepts loopback names with our port', async () => {
    for (const host of [`127.0.0.1:${t.port}`, `localhost:${t.port}`, `LOCALHOST:${t.port}`, `[::1]:${t.port}`]) {
      const res = await rawRequest({ port: t.port, path: '/api/3', headers: { host } });
      expect(res.status, host).toBe(200);
    }
  });

  it.each([
    ['evil.com', 'evil.com'],
    ['evil.com with our port', 'evil.com:PORT'],
    ['a loopback-looking name', '127.0.0.1.evil.com:PORT'],
    ['no port', '127.0.0.1'],
    ['another port', '127.0.0.1:1'],
    ['localhost without port', 'localhost'],
    ['0.0.0.0', '0.0.0.0:PORT'],
  ])('refuses %s with 403 Authorization Error', async (_label, hostTemplate) => {
    const host = hostTemplate.replace('PORT', String(t.port));
    for (const path of ['/api/3/action/echo', '/', '/api/3/action/nope']) {
      const res = await rawRequest({ port: t.port, path, headers: { host } });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('application/json;charset=utf-8');
      const body = res.json() as { success: boolean; error: { __type: string; message: string } };
      expect(body.success).toBe(false);
      expect(body.error.__type).toBe('Authorization Error');
      expect(body.error.message).toMatch(/^Access denied: Host header .* is not allowed/);
    }
  });

  it('refuses a request without Host', async () => {
    const res = await rawRequest({ port: t.port, path: '/api/3', headers: { host: undefined } });
    // Node itself answers 400 to an HTTP/1.1 request without Host; either way it is refused.
    expect([400, 403]).toContain(res.status);
  });

  it('refuses an HTTP/1.0 request without Host (Node lets those through)', async () => {
    const { connect } = await import('node:net');
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.port, '127.0.0.1', () => socket.end('GET /api/3 HTTP/1.0\r\n\r\n'));
      let out = '';
      socket.on('data', (c: Buffer) => (out += c.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
    expect(text.startsWith('HTTP/1.1 403')).toBe(true);
    expect(text).toContain('missing Host header');
  });

  it('does not run the action for a forged Host', async () => {
    const res = await rawRequest({
      port: t.port,
      method: 'POST',
      path: '/api/3/action/echo_post',
      headers: { host: 'evil.com', authorization: TOKEN },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(t.logs.at(-1)?.status).toBe(403);
  });
});

describe('browser protections', () => {
  const headersOf = (site: string, mode: string, dest: string, extra: Record<string, string> = {}) => ({
    'sec-fetch-site': site,
    'sec-fetch-mode': mode,
    'sec-fetch-dest': dest,
    ...extra,
  });
  const status = async (path: string, headers: Record<string, string>, method = 'GET', body?: string) => {
    const res = await rawRequest({ port: t.port, method, path, headers, ...(body === undefined ? {} : { body }) });
    return { status: res.status, message: res.status === 403 ? ((res.json() as any).error.message as string) : '' };
  };

  it('refuses every request from another site or local port to the API, navigations and forms included', async () => {
    const api = '/api/3/action/echo';
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['an <iframe> on another site', headersOf('cross-site', 'navigate', 'iframe')],
      ['a link on another site', headersOf('cross-site', 'navigate', 'document')],
      ['a <script> (JSONP) on another site', headersOf('cross-site', 'no-cors', 'script')],
      ['an <img> on another site', headersOf('cross-site', 'no-cors', 'image')],
      ['a page on another local port (same-site)', headersOf('same-site', 'cors', 'empty')],
      ['a link on another local port', headersOf('same-site', 'navigate', 'document')],
    ];
    for (const [label, headers] of cases) {
      const r = await status(api, headers);
      expect([label, r.status]).toEqual([label, 403]);
      expect(r.message).toMatch(/^Access denied: the API does not answer requests from other sites or local ports/);
    }
    // A form POSTed from another site: a top-level navigation, refused before the action runs.
    const form = await status(
      '/api/3/action/echo_post',
      headersOf('cross-site', 'navigate', 'document', {
        origin: 'http://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      }),
      'POST',
      'a=1',
    );
    expect(form.status).toBe(403);
    expect(t.logs.at(-1)?.status).toBe(403);
  });

  it('refuses a foreign Origin even from a browser that sends no Sec-Fetch headers', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:${t.port + 1}`, `http://localhost:${t.port}`]) {
      const r = await status('/api/3/action/echo_post', { origin, 'content-type': 'application/json' }, 'POST', '{}');
      expect([origin, r.status]).toEqual([origin, 403]);
      expect(r.message).toMatch(/^Access denied: requests from other origins/);
    }
    const own = await status(
      '/api/3/action/echo_post',
      { origin: `http://127.0.0.1:${t.port}`, 'content-type': 'application/json' },
      'POST',
      '{}',
    );
    expect(own.status).toBe(200);
  });

  it('lets a link from another site open a UI page, but not frame it or load it as a resource', async () => {
    expect((await status('/en/', headersOf('cross-site', 'navigate', 'document'))).status).not.toBe(403);
    expect((await status('/it/', headersOf('same-site', 'navigate', 'document'))).status).not.toBe(403);
    expect((await status('/en/', headersOf('cross-site', 'navigate', 'iframe'))).status).toBe(403);
    expect((await status('/assets/index.js', headersOf('cross-site', 'no-cors', 'script'))).status).toBe(403);
  });

  it('keeps answering its own pages, typed URLs and scripts', async () => {
    expect((await status('/api/3/action/echo', headersOf('same-origin', 'cors', 'empty'))).status).toBe(200);
    expect((await status('/api/3/action/echo', headersOf('none', 'navigate', 'document'))).status).toBe(200);
    expect((await status('/api/3/action/echo', {})).status).toBe(200);
    expect((await call(`${t.url}/api/3/action/echo`)).status).toBe(200); // Node's fetch: Sec-Fetch-Mode only
  });

  it('sets nosniff, CSP, Referrer-Policy, X-Frame-Options; no CORS', async () => {
    for (const path of ['/api/3/action/echo', '/', '/nope', '/api/3/action/nope']) {
      const res = await call(`${t.url}${path}`, { headers: { Origin: 'http://evil.com' } });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('only listens on loopback', async () => {
    await expect(startTestServer({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });
});

describe('body size limit', () => {
  const big = (bytes: number) => JSON.stringify({ resource_id: 'x', pad: 'a'.repeat(bytes) });

  it('answers 413 with a bare JSON string for an oversized JSON body (declared length)', async () => {
    const res = await call(`${t.url}/api/3/action/echo_post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: TOKEN },
      body: big(5 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.json).toBe('Bad request - Request body too large: the limit is 65536 bytes');
    // The server is fine afterwards.
    expect((await call(`${t.url}/api/3`)).json).toEqual({ version: 3 });
  });

  it('answers 413 for an oversized chunked body, mid-stream', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"pad": "'));
        if (sent >= 400) controller.close();
        else controller.enqueue(chunk);
        sent++;
      },
    });
    const res = await call(`${t.url}/api/3/action/echo_post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatch(/^Bad request - Request body too large/);
  });

  it('refuses before the body is sent when the client expects 100-continue', async () => {
    const result = await new Promise<{ status: number; continued: boolean; body: string }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: t.port,
          method: 'POST',
          path: '/api/3/action/echo_post',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024), expect: '100-continue' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, body }));
        },
      );
      req.on('continue', () => {
        continued = true;
        req.end('x'.repeat(10 * 1024 * 1024));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(result).toMatchObject({ status: 413, continued: false });
    expect(JSON.parse(result.body)).toMatch(/too large/);
  });

  it('sends 100 Continue for a body within the limit', async () => {
    const result = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const body = '{"a": 1}';
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: t.port,
          method: 'POST',
          path: '/api/3/action/echo_post',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
        },
      );
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(result).toEqual({ status: 200, continued: true });
  });

  it('applies the limit to form bodies too', async () => {
    const res = await call(`${t.url}/api/3/action/echo_post`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `a=${'b'.repeat(70_000)}`,
    });
    expect(res.status).toBe(413);
  });
});

describe('bodies of requests without the token (issue 8: read before authorization)', () => {
  const expectContinue = (port: number, path: string, headers: Record<string, string>, bytes: number) =>
    new Promise<{ status: number; continued: boolean; body: string }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          agent: false,
          headers: { 'content-length': String(bytes), expect: '100-continue', ...headers },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, body }));
        },
      );
      req.on('continue', () => {
        continued = true;
        req.end(`{"pad": "${'a'.repeat(bytes - 11)}"}`);
      });
      req.on('error', reject);
      req.flushHeaders();
    });

  it('refuses an action that needs the token from the headers alone, without asking for the body', async () => {
    const big = await startTestServer({ maxBodyBytes: 64 * 1024 * 1024 });
    try {
      const anonymous = await expectContinue(
        big.port,
        '/api/3/action/token_probe',
        { 'content-type': 'application/json' },
        8 * 1024 * 1024,
      );
      expect(anonymous.continued).toBe(false);
      expect(anonymous.status).toBe(403);
      expect(JSON.parse(anonymous.body).error.message).toBe(
        'Access denied: token_probe needs the Deskstore API token in the Authorization header',
      );
      expect(big.probe.tokenProbeRuns).toBe(0);
      const holder = await expectContinue(
        big.port,
        '/api/3/action/token_probe',
        { 'content-type': 'application/json', authorization: TOKEN },
        8 * 1024 * 1024,
      );
      expect([holder.continued, holder.status]).toEqual([true, 200]);
    } finally {
      await big.stop();
    }
  });

  it('stores no file of an anonymous multipart request, whatever the action', async () => {
    for (const action of ['token_probe', 'upload_probe', 'echo']) {
      const body = new FormData();
      body.append('package_id', 'x');
      // Within the anonymous size cap: it is the file itself that is refused.
      body.append('upload', new Blob(['z'.repeat(10 * 1024)]), 'small.csv');
      const res = await call(`${t.url}/api/3/action/${action}`, { method: 'POST', body });
      expect([action, res.status]).toEqual([action, 403]);
      expect(await filesIn(t.uploadDir)).toEqual([]);
    }
    expect(t.probe.uploadPaths).toEqual([]);
    expect(t.probe.tokenProbeRuns).toBe(0);
  });

  it('caps anonymous bodies far below a token holder’s', async () => {
    const big = await startTestServer({ maxBodyBytes: 64 * 1024 * 1024, maxAnonymousBodyBytes: 64 * 1024 });
    try {
      const body = JSON.stringify({ pad: 'a'.repeat(200 * 1024) });
      const anonymous = await call(`${big.url}/api/3/action/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      expect([anonymous.status, anonymous.json]).toEqual([
        413,
        'Bad request - Request body too large: the limit is 65536 bytes without the API token',
      ]);
      const holder = await call(`${big.url}/api/3/action/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: TOKEN },
        body,
      });
      expect(holder.status).toBe(200);
    } finally {
      await big.stop();
    }
  });
});

describe('connection limits (issue 8: half-open sockets made the server unreachable)', () => {
  /** Opens `n` sockets that send `prefix` and then nothing; resolves each socket's close time. */
  const idleSockets = async (port: number, n: number, prefix = '') => {
    const started = Date.now();
    return Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<{ socket: Socket; closed: Promise<number> }>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => {
              if (prefix) socket.write(prefix);
            });
            socket.on('error', () => undefined);
            const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
            resolve({ socket, closed });
          }),
      ),
    );
  };
  const within = (ms: number, p: Promise<number>) => Promise.race([p, new Promise<number>((r) => setTimeout(() => r(Infinity), ms))]);

  it('closes sockets that never finish their headers, and refuses more than the connection cap', async () => {
    const small = await startTestServer({ connectionLimits: { maxConnections: 20, headersTimeoutMs: 500 } });
    try {
      const silent = await idleSockets(small.port, 40);
      const slow = await idleSockets(small.port, 5, 'GET /api/3 HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      // The server's 500 ms limit is what is tested; the test waits far longer so that a loaded
      // machine (CI shares two cores) cannot make it fail: only a socket never cut counts. 60 s,
      // not 30: in a full CI run 7 of 45 sockets were still open after 30 s (not reproduced
      // alone), which a SYN dropped under load and retried by the kernel (1, 3, 7, 15, 31 s)
      // would explain; the states printed on failure say whether they were connected at all.
      const sockets = [...silent, ...slow];
      const closedAfter = await Promise.all(sockets.map((s) => within(60_000, s.closed)));
      // Every one of them was cut by the server (none was closed by this test).
      const open = sockets.filter((_, i) => closedAfter[i] === Infinity);
      const states = open.map(({ socket }) => ({
        connecting: socket.connecting,
        readyState: socket.readyState,
        localPort: socket.localPort,
      }));
      expect(states).toEqual([]);
      const res = await call(`${small.url}/api/3`);
      expect(res.status).toBe(200);
    } finally {
      await small.stop();
    }
  }, 90_000);

  it('answers a client that reuses an idle connection a little after the timeout it was told (issue 21)', async () => {
    // A busy client (its timers late) used to send its next request on a connection the server
    // was just closing, and got no answer at all (UND_ERR_SOCKET).
    const small = await startTestServer({ connectionLimits: { keepAliveTimeoutMs: 1_000, keepAliveGraceMs: 4_000 } });
    const socket = connect(small.port, '127.0.0.1');
    try {
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('error', () => undefined);
      let isClosed = false;
      socket.on('close', () => (isClosed = true));
      const answers = () => received.split('HTTP/1.1 200').length - 1;
      /** Until `n` answers came, or the server closed the connection, or 5 s passed. */
      const until = async (n: number) => {
        for (let waited = 0; answers() < n && !isClosed && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      };
      const get = `GET /api/3 HTTP/1.1\r\nHost: 127.0.0.1:${small.port}\r\n\r\n`;
      socket.write(get);
      await until(1);
      expect(received).toMatch(/\r\nKeep-Alive: timeout=1\r\n/);
      await new Promise((r) => setTimeout(r, 2_000)); // past what was advertised
      expect(socket.destroyed).toBe(false);
      socket.write(get);
      await until(2);
      expect(answers()).toBe(2);
    } finally {
      socket.destroy();
      await small.stop();
    }
  });

  it('caps connections by default, far above what browsers and scripts open', async () => {
    const sockets = await idleSockets(t.port, 600);
    try {
      const closedAfter = await Promise.all(sockets.map((s) => within(2_000, s.closed)));
      // The default headers timeout (10 s) has not passed: what was closed is what went over the cap.
      expect(closedAfter.filter((ms) => ms !== Infinity).length).toBe(600 - 512);
    } finally {
      for (const s of sockets) s.socket.destroy();
    }
  });
});
