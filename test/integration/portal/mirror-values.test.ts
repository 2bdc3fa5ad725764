/**
 * A mirror does not change a value (issue 23). The portal answers with a real CKAN 2.10.10's
 * own bytes (helpers/fake-ckan-values.ts): numeric `310.00`, `-12.340`, a 39-digit numeric and
 * `0.0000001`, int8 past 2^53, float8 `2.5e-07` and `1e+300`, timestamps with fractions, JSON
 * cells `{"a": 100.0, "b": ""}` and `""`, accents, arrays. Before, the mirror read CKAN's JSON
 * dump (Python floats: `310.0`, `1.2345678901234568e+29`) and lost every timestamp's fraction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { lastJsonLine, removeDir, runCliAsync, startServer, tempDir, type ServerProcess } from '../../helpers/deskstore-process';
import { startValuesPortal, VALUES_DATASET, VALUES_RESOURCE_ID, type ValuesPortal } from '../../helpers/fake-ckan-values';
import type { MirrorOutcome } from '../../../src/shared/portal';
import { skipSpace, valueEnd } from '../../../src/main/util/json-source';

const ENV = { HTTP_PROXY: '', http_proxy: '', HTTPS_PROXY: '', https_proxy: '' };

async function mirrorOf(sql: boolean): Promise<{ portal: ValuesPortal; server: ServerProcess }> {
  const portal = await startValuesPortal({ sql });
  const dir = tempDir();
  const r = await runCliAsync(['mirror', `${portal.url}/dataset/${VALUES_DATASET}`, '--data', dir], ENV);
  expect(r.status, r.stderr).toBe(0);
  expect(lastJsonLine<MirrorOutcome>(r.stdout).resources).toMatchObject([{ resource_id: VALUES_RESOURCE_ID, status: 'mirrored', rows: 5 }]);
  return { portal, server: await startServer({ dataDir: dir }) };
}

/** The `records` member of an answer, as text. */
function recordsText(text: string): string {
  const start = skipSpace(text, text.indexOf('"records":') + '"records":'.length);
  return text.slice(start, valueEnd(text, start));
}

describe('mirroring a real CKAN’s values', () => {
  let withSql: { portal: ValuesPortal; server: ServerProcess };
  let withoutSql: { portal: ValuesPortal; server: ServerProcess };
  beforeAll(async () => {
    withSql = await mirrorOf(true);
    withoutSql = await mirrorOf(false);
  });
  afterAll(async () => {
    for (const m of [withSql, withoutSql]) {
      if (!m) continue;
      await m.server.stop();
      removeDir(m.server.dataDir);
      await m.portal.close();
    }
  });

  it('keeps every numeric digit and scale, int8 past 2^53, and JSON cells as the portal stored them', async () => {
    for (const { server } of [withSql, withoutSql]) {
      const r = await ckan(server.url).post('datastore_search', {
        resource_id: VALUES_RESOURCE_ID,
        records_format: 'lists',
        fields: ['n', 'big', 'doc'],
      });
      expect(recordsText(r.text)).toBe(
        '[[310.00,9223372036854775807,{"a": 100.0, "b": "", "c": "Forl\\u00ec"}],[-12.340,-5,""],' +
          '[123456789012345678901234567890.123456789,null,null],[310.0,1,[1, 2.5, "x"]],[0.0000001,9007199254740993,{"n": null}]]',
      );
    }
  });

  it('keeps the fractions of timestamps where the portal shows them (datastore_search_sql)', async () => {
    const sql = `SELECT ts, tz FROM "${VALUES_RESOURCE_ID}" ORDER BY _id`;
    const full = await ckan(withSql.server.url).ok('datastore_search_sql', { sql });
    expect(full.records.map((r: { ts: string }) => r.ts)).toEqual([
      '2020-01-02T03:04:05.123456',
      '2020-01-02T03:04:05',
      null,
      '2020-01-02T03:04:05.500000',
      '1999-12-31T23:59:59.999999',
    ]);
    expect(withSql.portal.seen.some((s) => s.path.endsWith('/datastore_search_sql'))).toBe(true);
    expect(withSql.portal.seen.some((s) => s.path.includes('/datastore/dump/'))).toBe(false);
    // Without SQL on the portal, datastore_search is all there is, and it cuts to the second.
    const cut = await ckan(withoutSql.server.url).ok('datastore_search_sql', { sql });
    expect(cut.records[0].ts).toBe('2020-01-02T03:04:05');
    // timestamptz comes whole either way.
    expect(cut.records[4].tz).toBe(full.records[4].tz);
  });

  it('answers datastore_search with the portal’s values, type by type', async () => {
    const portal = JSON.parse(
      (await import('node:fs')).readFileSync(
        (await import('../../helpers/fixtures')).fixtureFile('portal', 'ckan-2.10-values/search-default-lists.json'),
        'utf8',
      ),
    ).result;
    const mine = await ckan(withSql.server.url).ok('datastore_search', { resource_id: VALUES_RESOURCE_ID, records_format: 'lists' });
    expect(mine.fields).toEqual(portal.fields);
    expect(mine.records).toEqual(portal.records);
  });
});
