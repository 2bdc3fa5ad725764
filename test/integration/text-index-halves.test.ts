import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { lastJsonLine, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Large imports build the full-text index in two halves on two cores and merge them. None of
 * the real data files is both large and mostly-unique text, so this file is made to take that
 * path: its expected counts come from how it was generated, not from Deskstore.
 */
const ROWS = 60_000;
const KINDS = ['fiume', 'strada', 'piazza', 'ponte', 'torre', 'chiesa', 'mercato'];
const dataDir = tempDir();
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let resourceId: string;

const kindOf = (n: number) => KINDS[n % KINDS.length]!;

beforeAll(async () => {
  const lines = ['numero;descrizione'];
  for (let n = 1; n <= ROWS; n++) lines.push(`${n};${kindOf(n)} numero unico codice${n} ${n % 1000 === 0 ? 'Città' : 'borgo'}`);
  const file = join(dataDir, 'halves.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = runCli(['import', file, '--data', dataDir]);
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  resourceId = lastJsonLine<{ resource_id: string }>(r.stdout).resource_id;
  server = await startServer({ dataDir });
  api = ckan(server.url, server.token);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  removeDir(dataDir);
});

async function total(params: Record<string, unknown>): Promise<number> {
  return (await api.ok('datastore_search', { resource_id: resourceId, limit: 0, ...params })).total!;
}

describe('a full-text index built in two halves', () => {
  it('finds words that occur in both halves as often as they were written', async () => {
    for (const kind of KINDS) {
      const expected = Array.from({ length: ROWS }, (_, i) => i + 1).filter((n) => kindOf(n) === kind).length;
      expect(await total({ q: kind })).toBe(expected);
    }
    expect(await total({ q: 'Città' })).toBe(ROWS / 1000);
    expect(await total({ q: 'numero unico' })).toBe(ROWS);
  });

  it('finds the rows at either end of each half, once each, at their own _id', async () => {
    for (const n of [1, ROWS / 2 - 1, ROWS / 2, ROWS / 2 + 1, ROWS]) {
      const found = await api.ok('datastore_search', {
        resource_id: resourceId,
        q: `codice${n}`,
      });
      expect(found.total).toBe(1);
      expect(found.records[0]).toMatchObject({ _id: n, numero: n });
    }
  });

  it('answers prefix queries across the seam', async () => {
    // codice2999*, codice3000* … : codice3000 and codice30000..30009 straddle the middle row id.
    expect(await total({ q: 'codice3000:*', plain: false })).toBe(11);
    expect(await total({ q: { descrizione: 'torre & Città' }, plain: false })).toBe(
      Array.from({ length: ROWS / 1000 }, (_, i) => (i + 1) * 1000).filter((n) => kindOf(n) === 'torre').length,
    );
  });
});
