import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSections } from '../../src/main/engine/storage/file-sections';
import { resourceDir } from '../../src/main/storage/data-paths';
import { ckan } from '../helpers/ckan-client';
import { lastJsonLine, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 24: the first writes on a fresh server keep their cells aside and look their values up
 * in the dictionaries as they lie in the columns file (column-store/column.ts), instead of
 * reading every column whole. Whatever reads the table afterwards (filters, sort, q, SQL), after
 * a restart that replays the journal, and after a checkpoint, answers as if the table had
 * been in memory. The import makes `id`, `descrizione` and `importo` columns that may repeat
 * values (mostly unique) and `regione` one that does not.
 */
const ROWS = 40_000;
const REGIONI = ['Lazio', 'Umbria', 'Toscana', 'Marche', 'Abruzzo'];
const WORDS = ['fiume', 'strada', 'scuola'];
const regione = (i: number): string => REGIONI[i % REGIONI.length]!;
const descrizione = (i: number): string => `voce ${i} ${WORDS[i % WORDS.length]}`;

const dir = tempDir();
const dataDir = join(dir, 'data');
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.stop('SIGKILL');
  removeDir(dir);
});

function importTable(): string {
  const lines = ['id,regione,descrizione,importo'];
  for (let i = 1; i <= ROWS; i++) lines.push(`${i},${regione(i)},${descrizione(i)},${(i * 1.25).toFixed(2)}`);
  const file = join(dir, 'voci.csv');
  writeFileSync(file, lines.join('\n') + '\n');
  const r = runCli(['import', file, '--data', dataDir, '--package', 'voci']);
  expect(r.status, r.stderr).toBe(0);
  const rid = lastJsonLine<{ resource_id: string }>(r.stdout).resource_id;
  // The two kinds of dictionary a write meets: one that may repeat values, one that does not.
  const folder = resourceDir(dataDir, rid);
  const columnsFile = FileSections.open(join(folder, readdirSync(folder).find((f) => f.endsWith('.columns'))!));
  const { columns } = (columnsFile.header as { columns: { columns: { id: string; mayRepeat?: boolean }[] } }).columns;
  expect(columns.filter((c) => c.mayRepeat).map((c) => c.id)).toEqual(['id', 'descrizione', 'importo']);
  return rid;
}

/** What a client sees of the table: the answers compared before and after each restart. */
async function answers(api: ReturnType<typeof ckan>, rid: string): Promise<unknown> {
  const search = async (params: Record<string, unknown>) => {
    const r = await api.ok('datastore_search', { resource_id: rid, ...params });
    return { total: r.total, records: r.records };
  };
  const before = ['Abruzzo', 'Lazio', 'Marche'];
  let offset = 0;
  for (const name of before) offset += (await search({ filters: { regione: name }, limit: 0 })).total as number;
  return {
    molise: await search({ filters: { regione: 'Molise' }, sort: '_id' }),
    lazio: (await search({ filters: { regione: 'Lazio' }, limit: 0 })).total,
    twice: await search({ filters: { descrizione: descrizione(5) }, sort: '_id' }),
    amount: await search({ filters: { importo: 12.5 }, sort: '_id' }),
    sortedAfterMarche: await search({ sort: 'regione, _id', offset, limit: 3 }),
    lastById: await search({ sort: 'id desc', limit: 2 }),
    q: await search({ q: 'scrittura' }),
    gone: await search({ filters: { _id: 8 } }),
    sql: (
      await api.ok('datastore_search_sql', {
        sql: `SELECT regione, count(*) AS n, max(id) AS top FROM "${rid}" GROUP BY regione ORDER BY regione`,
      })
    ).records,
  };
}

describe('first writes on a fresh server, answered from columns still in the file', () => {
  it('inserts, updates and deletes, then answers the same after a journal replay and after a checkpoint', { timeout: 240_000 }, async () => {
    const rid = importTable();
    server = await startServer({ dataDir });
    let api = ckan(server.url, server.token);
    // The first request of this server is a write: a new distinct value, values already in the dictionaries.
    await api.ok('datastore_upsert', {
      resource_id: rid,
      method: 'insert',
      force: true, // an imported resource is read-only without it, as in CKAN
      records: [
        { id: ROWS + 1, regione: 'Molise', descrizione: 'prima scrittura', importo: 3.75 },
        { id: ROWS + 2, regione: 'Lazio', descrizione: descrizione(5), importo: 12.5 },
      ],
    });
    await api.ok('datastore_upsert', { resource_id: rid, method: 'update', force: true, records: [{ _id: 7, regione: 'Molise' }] });
    await api.ok('datastore_records_delete', { resource_id: rid, force: true, filters: { _id: 8 } });

    const seen = (await answers(api, rid)) as Record<string, { total?: number; records?: Record<string, unknown>[] }>;
    expect(seen.molise!.records!.map((r) => [r._id, r.id, r.descrizione])).toEqual([
      [7, 7, descrizione(7)],
      [ROWS + 1, ROWS + 1, 'prima scrittura'],
    ]);
    let lazio = 0;
    for (let i = 1; i <= ROWS; i++) if (regione(i) === 'Lazio' && i !== 7 && i !== 8) lazio++;
    expect(seen.lazio).toBe(lazio + 1);
    expect(seen.twice!.records!.map((r) => r._id)).toEqual([5, ROWS + 2]);
    expect(seen.amount!.records!.map((r) => r._id)).toEqual([10, ROWS + 2]);
    expect(seen.sortedAfterMarche!.records!.map((r) => [r._id, r.regione])).toEqual([
      [7, 'Molise'],
      [ROWS + 1, 'Molise'],
      [2, 'Toscana'],
    ]);
    expect(seen.lastById!.records!.map((r) => r.id)).toEqual([ROWS + 2, ROWS + 1]);
    expect(seen.q!.records!.map((r) => r._id)).toEqual([ROWS + 1]);
    expect(seen.gone!.total).toBe(0);
    expect((seen.sql as unknown as { regione: string; n: number; top: number }[]).find((r) => r.regione === 'Molise')).toEqual({
      regione: 'Molise',
      n: 2,
      top: ROWS + 1,
    });

    // Killed: the restarted server replays the journal over the columns file.
    await server.stop('SIGKILL');
    server = await startServer({ dataDir });
    api = ckan(server.url, server.token);
    expect(await answers(api, rid)).toEqual(seen);

    // Stopped: the journal is folded into a new generation, read back lazily again.
    await server.stop('SIGTERM');
    server = await startServer({ dataDir });
    api = ckan(server.url, server.token);
    expect(await answers(api, rid)).toEqual(seen);
  });
});
