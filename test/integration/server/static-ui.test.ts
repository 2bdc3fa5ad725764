import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, rawRequest, startTestServer, type TestServer } from './helpers';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body></body></html>';

let t: TestServer;
let staticDir: string;
let outside: string;

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'deskstore-static-'));
  staticDir = join(root, 'renderer');
  outside = root;
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), INDEX);
  await writeFile(join(staticDir, 'assets', 'app-abc123.js'), 'console.log("app");');
  await writeFile(join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(staticDir, '.env'), 'SECRET=1');
  await writeFile(join(root, 'secret.txt'), 'top secret');
  t = await startTestServer({ staticDir });
});
afterEach(async () => {
  await t.stop();
  await rm(outside, { recursive: true, force: true });
});

describe('static UI', () => {
  it('serves the app at / (it picks the remembered or browser language and moves to /{locale}/)', async () => {
    const res = await call(`${t.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(INDEX);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('redirects /it to /it/ keeping the query', async () => {
    const res = await call(`${t.url}/it?x=1`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/it/?x=1');
  });

  it.each(['/en/', '/it/', '/en/resources/abc', '/it/search?q=x', '/en/some/deep/route'])(
    'serves index.html for %s (SPA)',
    async (path) => {
      const res = await call(`${t.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html;charset=utf-8');
      expect(res.text).toBe(INDEX);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    },
  );

  it('serves assets from staticDir with long caching', async () => {
    const res = await call(`${t.url}/assets/app-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.text).toBe('console.log("app");');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const favicon = await call(`${t.url}/favicon.svg`);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('serves assets under a locale too (relative asset URLs)', async () => {
    const res = await call(`${t.url}/en/assets/app-abc123.js`);
    expect(res.text).toBe('console.log("app");');
  });

  it('404s for missing files outside a locale, and for API-looking paths', async () => {
    expect((await call(`${t.url}/assets/missing.js`)).status).toBe(404);
    expect((await call(`${t.url}/resources/abc`)).status).toBe(404);
    expect((await call(`${t.url}/api/nothing`)).status).toBe(404);
  });

  it.each([
    '/assets/..%2f..%2fsecret.txt',
    '/assets/..%2F..%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/.env',
    '/en/..%2f..%2fsecret.txt',
  ])('never serves files outside staticDir: %s', async (path) => {
    const res = await rawRequest({ port: t.port, path });
    // Under a locale an unknown path is the app itself; elsewhere it is a 404.
    if (path.startsWith('/en/')) expect(res.text).toBe(INDEX);
    else expect(res.status).toBe(404);
    expect(res.text).not.toContain('top secret');
    expect(res.text).not.toContain('SECRET');
  });

  it('answers HEAD for static files', async () => {
    const res = await rawRequest({ port: t.port, method: 'HEAD', path: '/en/' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('does not serve static files for POST', async () => {
    expect((await call(`${t.url}/assets/app-abc123.js`, { method: 'POST' })).status).toBe(404);
  });
});

describe('without a built UI', () => {
  it('answers / and locale paths with a page saying how to build, and picks up a later build', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'deskstore-nostatic-'));
    const u = await startTestServer({ staticDir: join(empty, 'renderer') });
    try {
      for (const path of ['/', '/en/', '/it/whatever']) {
        const res = await call(`${u.url}${path}`, { redirect: 'manual' });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html;charset=utf-8');
        expect(res.text).toContain('not built');
        expect(res.text).toContain('npm run build');
        expect(res.text).not.toContain('<script');
      }
      expect((await call(`${u.url}/assets/app.js`)).status).toBe(404);
      // Built while running: served without a restart.
      await mkdir(join(empty, 'renderer'), { recursive: true });
      await writeFile(join(empty, 'renderer', 'index.html'), INDEX);
      expect((await call(`${u.url}/en/`)).text).toBe(INDEX);
    } finally {
      await u.stop();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('works with no staticDir option at all', async () => {
    const u = await startTestServer();
    try {
      const res = await call(`${u.url}/`);
      expect(res.text).toContain('not built');
    } finally {
      await u.stop();
    }
  });
});
