/** The portal client's pure pieces: Retry-After, source URLs and their probe paths, JSON dump reading, row diffs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { readJsonDump } from '../../../src/main/importer/json-dump-reader';
import { countsOf, diffStores } from '../../../src/main/engine/versions/row-diff';
import { retryAfterMs } from '../../../src/main/portal/portal-client';
import { parsePortalSource } from '../../../src/main/portal/portal-source';

const dir = mkdtempSync(join(tmpdir(), 'deskstore-portal-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT'))).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('portal sources', () => {
  it('reads dataset and resource pages and probes path prefixes, a locale segment after its parent', () => {
    const s = parsePortalSource('https://dati.example.it/opendata/it/dataset/bilancio/resource/abc-123');
    expect(s.dataset).toBe('bilancio');
    expect(s.resource).toBe('abc-123');
    expect(s.candidates).toEqual(['/opendata', '/opendata/it', '']);
    expect(parsePortalSource('https://dati.example.it/api/3/action/package_search?q=x').candidates).toEqual(['']);
    expect(parsePortalSource('http://h/portale/').candidates).toEqual(['/portale', '']);
    expect(parsePortalSource('http://h/').dataset).toBeNull();
  });

  it('refuses what is not an http(s) address', () => {
    expect(() => parsePortalSource('file:///etc/passwd')).toThrow(/not an http/);
    expect(() => parsePortalSource('dati.example.it')).toThrow(/not a web address/);
  });
});

describe('JSON dumps', () => {
  const fields = [
    { id: '_id', type: 'int' },
    { id: 'a', type: 'text' },
    { id: 'j', type: 'json' },
  ];
  const records = [
    [1, 'x "quoted" ] [ } {', { k: [1, '{'] }],
    [2, 'età\nnuova', null],
    [5, '', ['a]']],
  ];

  let files = 0;
  async function read(text: string): Promise<{ header: unknown; rows: unknown[][] }> {
    const path = join(dir, `dump-${files++}.json`);
    writeFileSync(path, text);
    let header: unknown;
    const rows: unknown[][] = [];
    await readJsonDump(
      path,
      (h) => {
        header = h;
      },
      (r) => rows.push(r),
    );
    return { header, rows };
  }

  it("reads CKAN's layout (a record per line) and a compact one alike, strings with brackets included", async () => {
    const ckan = `{\n  "fields": ${JSON.stringify(fields)},\n  "records": [${records.map((r) => `\n    ${JSON.stringify(r)}`).join(',')}\n]}\n`;
    const compact = JSON.stringify({ fields, records });
    for (const text of [ckan, compact]) {
      const out = await read(text);
      expect(out.header).toEqual({ fields });
      expect(out.rows.map((cells) => cells.map((c) => JSON.parse(c as string)))).toEqual(records);
    }
  });

  it('hands each value over as the text the portal wrote: every digit, every scale, JSON as stored', async () => {
    const out = await read(
      `{"fields": ${JSON.stringify(fields)}, "records": [\n[1, "a", 9223372036854775807],\n[2 , "b",{"a": 100.0, "b": ""}],[3,"c", 310.00]\n]}`,
    );
    expect(out.rows).toEqual([
      ['1', '"a"', '9223372036854775807'],
      ['2', '"b"', '{"a": 100.0, "b": ""}'],
      ['3', '"c"', '310.00'],
    ]);
  });

  it('reads records cut across chunk boundaries', async () => {
    const many = Array.from({ length: 30_000 }, (_, i) => [i + 1, `riga ${i} "é" [${i}]`, { n: i }]);
    const out = await read(JSON.stringify({ fields, records: many }));
    expect(out.rows).toHaveLength(30_000);
    expect(out.rows[29_999]!.map((c) => JSON.parse(c as string))).toEqual(many[29_999]);
  });

  it('says when a dump is cut short or has no fields', async () => {
    await expect(read(`{"fields": ${JSON.stringify(fields)}, "records": [[1, "a", null], [2,`)).rejects.toThrow(/ended after 1 records/);
    await expect(read('{"records": [[1]]}')).rejects.toThrow(/no "fields"/);
  });
});

describe('row diffs', () => {
  const store = (rows: [number, string | null][]) => {
    const s = TableStore.empty([{ id: 'a', type: fieldTypeOf('text') }]);
    for (const [id, a] of rows) s.putRow(id, new Map([['a', a]]));
    return s;
  };

  // A DataStore mirror's `_id`s are the portal's: rows are matched by them when no column can.
  const byId = (before: TableStore, after: TableStore) => countsOf(diffStores(before, after, { primaryKey: [], rowIdsStable: true }));

  it('counts rows added, removed and changed by _id', () => {
    expect(
      byId(
        store([
          [1, 'x'],
          [2, 'y'],
          [3, 'z'],
        ]),
        store([
          [1, 'x'],
          [3, 'Z'],
          [4, 'w'],
          [5, null],
        ]),
      ),
    ).toEqual({ added: 2, removed: 1, changed: 1 });
    expect(byId(store([[1, 'x']]), store([[1, 'x']]))).toEqual({ added: 0, removed: 0, changed: 0 });
  });
});
