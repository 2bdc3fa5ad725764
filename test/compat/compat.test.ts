import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';
import { loadCases, runCase, skipReason, type Target } from './runner';

/**
 * Deskstore's own CKAN compatibility suite (test/compat/README.md): every case in
 * test/compat/cases against a real `deskstore serve` over HTTP. With COMPAT_BASE and
 * COMPAT_TOKEN set, the same cases run against that server instead, judged as CKAN 2.10
 * (`COMPAT_KIND=ckan-2.10`, the default for an external server) or as Deskstore.
 */
const external = process.env.COMPAT_BASE;
let server: ServerProcess | null = null;
let target: Target;

beforeAll(async () => {
  if (external) {
    target = {
      base: external.replace(/\/+$/, ''),
      token: process.env.COMPAT_TOKEN ?? '',
      kind: process.env.COMPAT_KIND === 'deskstore' ? 'deskstore' : 'ckan-2.10',
    };
    return;
  }
  server = await startServer();
  target = { base: server.url, token: server.token, kind: 'deskstore' };
});

afterAll(async () => {
  if (!server) return;
  await server.stop();
  removeDir(server.dataDir);
});

const cases = loadCases();
const byFile = new Map<string, typeof cases>();
for (const entry of cases) byFile.set(entry.file, [...(byFile.get(entry.file) ?? []), entry]);

for (const [file, entries] of byFile) {
  describe(file, () => {
    for (const { case: c } of entries) {
      it(`${c.id} — ${c.source}`, async (ctx) => {
        const skip = skipReason(c, target);
        if (skip) {
          console.log(`SKIP ${c.id}: ${skip}`);
          ctx.skip();
          return;
        }
        expect(await runCase(c, target)).toEqual([]);
      });
    }
  });
}
