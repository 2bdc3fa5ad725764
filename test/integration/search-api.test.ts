import type { GroupByMetric } from '../../src/shared/wire/group-by';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import type { ActionParams } from '../../src/shared/wire/actions';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/** datastore_search and friends beyond the conformance cases, the way scripts call them. */
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let rid: string;

const comuni = [
  {
    comune: 'Città di Castello',
    regione: 'Umbria',
    abitanti: 39000,
    fondazione: '1100-01-01',
    capoluogo: false,
    note: 'Perché no? È bella.',
  },
  { comune: 'Forlì', regione: 'Emilia-Romagna', abitanti: 117000, fondazione: '0188-01-01', capoluogo: true, note: 'Città romagnola' },
  { comune: 'Cantù', regione: 'Lombardia', abitanti: 40000, fondazione: '1000-01-01', capoluogo: false, note: 'Famosa per il mobile' },
  { comune: 'Roma', regione: 'Lazio', abitanti: 2800000, fondazione: '0753-04-21', capoluogo: true, note: "Capitale d'Italia" },
  { comune: 'Milano', regione: 'Lombardia', abitanti: 1370000, fondazione: '0590-01-01', capoluogo: true, note: null },
  {
    comune: 'San Floriano del Collio-Števerjan',
    regione: 'Friuli-Venezia Giulia',
    abitanti: 800,
    fondazione: null,
    capoluogo: false,
    note: 'Bilingue',
  },
];

beforeAll(async () => {
  server = await startServer();
  api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'comuni' });
  rid = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id, name: 'comuni' },
      aliases: 'comuni_it',
      fields: [
        { id: 'comune', type: 'text' },
        { id: 'regione', type: 'text' },
        { id: 'abitanti', type: 'int' },
        { id: 'fondazione', type: 'date' },
        { id: 'capoluogo', type: 'bool' },
        { id: 'note', type: 'text' },
      ],
      records: comuni,
    })
  ).resource_id;
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const search = (params: Record<string, unknown>) => api.ok('datastore_search', { resource_id: rid, ...params });
const ids = (r: { records: { _id: number }[] }) => r.records.map((x) => x._id);

describe('filters', () => {
  it('2.12 operators, lists mixing values and operators, $or, and filters on non-text columns given as text', async () => {
    expect(ids(await search({ filters: { abitanti: { gte: 40000, lt: 2000000 } } }))).toEqual([2, 3, 5]);
    expect(ids(await search({ filters: { abitanti: [800, { gt: 2000000 }] } }))).toEqual([4, 6]);
    expect(ids(await search({ filters: { $or: [{ regione: 'Lazio' }, { capoluogo: 'false', regione: 'Umbria' }] } }))).toEqual([1, 4]);
    expect(ids(await search({ filters: [{ comune: 'Roma' }, { comune: 'Milano' }] }))).toEqual([4, 5]);
    expect(ids(await search({ filters: { abitanti: '40000' } }))).toEqual([3]);
    expect(ids(await search({ filters: { fondazione: { lt: '0600-01-01' } } }))).toEqual([2, 5]);
    expect(ids(await search({ filters: { note: null } }))).toEqual([]);
    expect(ids(await search({ filters: { comune: [] } }))).toEqual([]);
  });
  it('rejects unknown columns and operators, and values that do not fit the column', async () => {
    expect((await api.post('datastore_search', { resource_id: rid, filters: { nope: 1 } })).body).toMatchObject({
      error: { filters: ['invalid value "nope"'] },
    });
    expect((await api.post('datastore_search', { resource_id: rid, filters: { abitanti: { like: 1 } } })).body).toMatchObject({
      error: { filters: ['Unknown filter operation: like'] },
    });
    const bad = await api.post('datastore_search', { resource_id: rid, filters: { abitanti: 'many' } });
    expect(bad.status).toBe(409);
    expect(bad.body).toMatchObject({
      error: { query: ['Invalid query'], info: { orig: ['invalid input syntax for type integer: "many"'] } },
    });
  });
});

describe('Deskstore filter operators', () => {
  it('≠, contains, starts with and empty, alone, with CKAN operators and under $or', async () => {
    expect(ids(await search({ filters: { regione: { deskstore_ne: 'Lombardia' } } }))).toEqual([1, 2, 4, 6]);
    // NULL is neither equal nor unequal, as with SQL's <>
    expect(ids(await search({ filters: { note: { deskstore_ne: 'Bilingue' } } }))).toEqual([1, 2, 3, 4]);
    expect(ids(await search({ filters: { comune: { deskstore_contains: 'CITTA' } } }))).toEqual([1]);
    expect(ids(await search({ filters: { note: { deskstore_contains: 'città' } } }))).toEqual([2]);
    expect(ids(await search({ filters: { comune: { deskstore_starts_with: 'san f' } } }))).toEqual([6]);
    expect(ids(await search({ filters: { fondazione: { deskstore_starts_with: '0' } } }))).toEqual([2, 4, 5]);
    expect(ids(await search({ filters: { fondazione: { deskstore_empty: true } } }))).toEqual([6]);
    expect(ids(await search({ filters: { note: { deskstore_empty: false } } }))).toEqual([1, 2, 3, 4, 6]);
    expect(ids(await search({ filters: { abitanti: { gte: 40000, deskstore_ne: 1370000 } } }))).toEqual([2, 3, 4]);
    expect(
      ids(await search({ filters: { $or: [{ note: { deskstore_empty: true } }, { comune: { deskstore_starts_with: 'ro' } }] } })),
    ).toEqual([4, 5]);
    expect(ids(await search({ filters: { _id: { deskstore_ne: 1 }, capoluogo: { deskstore_ne: true } } }))).toEqual([3, 6]);
  });
  it('are honoured by GET (JSON in the query string), the dump and the facets', async () => {
    const filters = JSON.stringify({ comune: { deskstore_contains: 'an' } });
    const got = await api.get('datastore_search', { resource_id: rid, filters, fields: 'comune' });
    expect((got.body as { result: { records: unknown[] } }).result.records).toEqual([
      { comune: 'Cantù' },
      { comune: 'Milano' },
      { comune: 'San Floriano del Collio-Števerjan' },
    ]);
    const csv = await (
      await fetch(`${server.url}/datastore/dump/${rid}?format=csv&fields=comune&filters=${encodeURIComponent(filters)}`)
    ).text();
    // CKAN's csv writer ends the header line with CRLF, the rows with LF (docs/ckan-contract.md §11)
    expect(csv).toBe('comune\r\nCantù\nMilano\nSan Floriano del Collio-Števerjan\n');
    const facets = await api.ok('deskstore_facets', { resource_id: rid, field: 'regione', filters: { note: { deskstore_empty: false } } });
    expect(facets.rows).toBe(5);
  });
  it('reject values of the wrong kind with a validation error', async () => {
    expect((await api.post('datastore_search', { resource_id: rid, filters: { comune: { deskstore_contains: 3 } } })).body).toMatchObject({
      error: { filters: ['"deskstore_contains" needs a text value'] },
    });
    expect((await api.post('datastore_search', { resource_id: rid, filters: { comune: { deskstore_empty: 'yes' } } })).body).toMatchObject({
      error: { filters: ['"deskstore_empty" needs true or false'] },
    });
    const bad = await api.post('datastore_search', { resource_id: rid, filters: { abitanti: { deskstore_ne: 'many' } } });
    expect(bad.status).toBe(409);
  });
  it('select the rows datastore_delete removes', async () => {
    const copy = (
      await api.ok('datastore_create', {
        resource: { package_id: 'comuni', name: 'copia' },
        fields: [
          { id: 'comune', type: 'text' },
          { id: 'note', type: 'text' },
        ],
        records: comuni.map(({ comune, note }) => ({ comune, note })),
      })
    ).resource_id;
    await api.ok('datastore_delete', { resource_id: copy, filters: { note: { deskstore_empty: true } }, force: true });
    const left = await api.ok('datastore_search', { resource_id: copy, fields: 'comune' });
    expect(left.total).toBe(5);
    expect(left.records).not.toContainEqual({ comune: 'Milano' });
  });
});

describe('summaries: profile and group-by', () => {
  it('deskstore_profile answers GET and POST with the same figures, following filters', async () => {
    const got = await api.get('deskstore_profile', {
      resource_id: rid,
      fields: 'abitanti,regione',
      filters: JSON.stringify({ capoluogo: true }),
    });
    const result = (got.body as { result: { rows: number; fields: { id: string; count: number; max: number; top: unknown[] }[] } }).result;
    expect(result.rows).toBe(3);
    expect(result.fields.map((f) => f.id)).toEqual(['abitanti', 'regione']);
    expect(result.fields[0]).toMatchObject({ count: 3, min: 117000, max: 2800000, median: 1370000 });
    expect(await api.ok('deskstore_profile', { resource_id: rid, fields: ['abitanti', 'regione'], filters: { capoluogo: true } })).toEqual(
      result,
    );
    expect((await api.post('deskstore_profile', { resource_id: rid, fields: ['nope'] })).status).toBe(409);
  });

  // Each group-by's own SQL, run through datastore_search_sql, must give the same table.
  const cases: [string, Omit<ActionParams<'deskstore_group_by'>, 'resource_id'>][] = [
    ['count by one column', { group_by: 'regione' }],
    ['mean with a CKAN filter', { group_by: 'regione', metric: 'mean', value_field: 'abitanti', filters: { abitanti: { gte: 1000 } } }],
    ['sum by two columns', { group_by: ['regione', 'capoluogo'], metric: 'sum', value_field: 'abitanti' }],
    [
      'max date by a boolean, Deskstore operators',
      {
        group_by: 'capoluogo',
        metric: 'max',
        value_field: 'fondazione',
        filters: { $or: [{ note: { deskstore_empty: true } }, { regione: { deskstore_ne: 'Lazio' } }] },
      },
    ],
    ['dates by century-proof year bucket, key order', { group_by: 'fondazione', bucket: 'year', metric: 'min', value_field: 'abitanti' }],
  ];
  for (const [name, params] of cases) {
    it(`deskstore_group_by equals its SQL: ${name}`, async () => {
      const grouped = await api.ok('deskstore_group_by', { resource_id: rid, ...params });
      expect(grouped.sql_exact).toBe(true);
      const sql = await api.ok('datastore_search_sql', { sql: grouped.sql });
      const keyCount = grouped.group_by.length;
      const fromSql = sql.records.map((r: Record<string, unknown>) => {
        const values = Object.values(r);
        return {
          keys: values.slice(0, keyCount),
          count: values[keyCount],
          value: grouped.metric === 'count' ? values[keyCount] : values[keyCount + 1],
        };
      });
      expect(fromSql).toEqual(grouped.groups);
      expect(grouped.total_groups).toBe(grouped.groups.length);
    });
  }

  it('deskstore_group_by says when its SQL leaves out q or cannot be exact, and checks its parameters', async () => {
    const withQ = await api.ok('deskstore_group_by', {
      resource_id: rid,
      group_by: 'regione',
      q: 'roma',
      filters: { comune: { deskstore_contains: 'ROM' } },
    });
    expect(withQ.groups).toEqual([{ keys: ['Lazio'], count: 1, value: 1 }]);
    expect([withQ.sql_without_q, withQ.sql_exact]).toEqual([true, false]);
    expect(withQ.sql).toContain(`lower("comune") LIKE '%rom%' ESCAPE '!'`);
    const bad = await api.post('deskstore_group_by', { resource_id: rid, group_by: 'regione', metric: 'mean', value_field: 'comune' });
    expect(bad.body).toMatchObject({ error: { value_field: ['mean needs a number column'] } });
    expect((await api.post('deskstore_group_by', { resource_id: rid, group_by: 'regione', metric: 'median' })).body).toMatchObject({
      error: { metric: ['Value must be one of [count, sum, mean, min, max]'] },
    });
    expect((await api.post('deskstore_group_by', { resource_id: rid })).body).toMatchObject({ error: { group_by: ['Missing value'] } });
  });
});

describe('group-by over every number type (issue 22)', () => {
  let prices: string;
  const rows = [
    { carburante: 'Benzina', prezzo: '1.90', litri: 10, km: 0.1, conto: '9007199254740993' },
    { carburante: 'Benzina', prezzo: '2.15', litri: 20, km: 0.2, conto: '2' },
    { carburante: 'Gasolio', prezzo: '1.7', litri: 5, km: 1.5, conto: '-2' },
    { carburante: 'Gasolio', prezzo: '1.844', litri: null, km: null, conto: null },
    { carburante: 'GPL', prezzo: null, litri: 7, km: 2, conto: '4' },
  ];
  beforeAll(async () => {
    prices = (
      await api.ok('datastore_create', {
        resource: { package_id: 'comuni', name: 'prezzi' },
        fields: [
          { id: 'carburante', type: 'text' },
          { id: 'prezzo', type: 'numeric' },
          { id: 'litri', type: 'int4' },
          { id: 'km', type: 'float8' },
          { id: 'conto', type: 'int8' },
        ],
        records: rows,
      })
    ).resource_id;
  });

  const group = (metric: GroupByMetric, value_field: string) =>
    api.ok('deskstore_group_by', { resource_id: prices, group_by: 'carburante', metric, value_field, order: 'key' });

  it('sums numeric and int8 exactly, as PostgreSQL does, keeping the largest scale', async () => {
    const byKey = async (metric: GroupByMetric, field: string) =>
      Object.fromEntries((await group(metric, field)).groups.map((g) => [String(g.keys[0]), g.value]));
    expect(await byKey('sum', 'prezzo')).toEqual({ Benzina: 4.05, GPL: null, Gasolio: 3.544 });
    // 9007199254740995 is no double: it comes as exact text
    expect(await byKey('sum', 'conto')).toEqual({ Benzina: '9007199254740995', GPL: 4, Gasolio: -2 });
    expect(await byKey('mean', 'prezzo')).toEqual({ Benzina: '2.0250000000000000', GPL: null, Gasolio: '1.7720000000000000' });
    expect(await byKey('min', 'prezzo')).toEqual({ Benzina: '1.90', GPL: null, Gasolio: 1.7 });
    expect(await byKey('max', 'conto')).toEqual({ Benzina: '9007199254740993', GPL: 4, Gasolio: -2 });
    expect(await byKey('sum', 'km')).toEqual({ Benzina: 0.30000000000000004, GPL: 2, Gasolio: 1.5 });
    expect(await byKey('mean', 'litri')).toEqual({ Benzina: 15, GPL: 7, Gasolio: 5 });
  });

  for (const [metric, field] of [
    ['sum', 'prezzo'],
    ['mean', 'prezzo'],
    ['min', 'prezzo'],
    ['max', 'prezzo'],
    ['sum', 'conto'],
    ['mean', 'conto'],
    ['sum', 'litri'],
    ['max', 'km'],
  ] as const) {
    it(`${metric} of ${field} equals its SQL, ordered by value`, async () => {
      const grouped = await api.ok('deskstore_group_by', { resource_id: prices, group_by: 'carburante', metric, value_field: field });
      const sql = await api.ok('datastore_search_sql', { sql: grouped.sql });
      const fromSql = sql.records.map((r: Record<string, unknown>) => Object.values(r));
      expect(fromSql.map((v: unknown[]) => String(v[0]))).toEqual(grouped.groups.map((g) => String(g.keys[0])));
      expect(fromSql.map((v: unknown[]) => (v[2] === null ? null : Number(v[2])))).toEqual(
        grouped.groups.map((g) => (g.value === null ? null : Number(g.value))),
      );
    });
  }

  it('refuses a text column for a sum with a coded message the window words', async () => {
    const bad = await api.post('deskstore_group_by', {
      resource_id: prices,
      group_by: 'carburante',
      metric: 'sum',
      value_field: 'carburante',
    });
    expect(bad.status).toBe(409);
    expect(bad.body).toMatchObject({
      error: { value_field: ['sum needs a number column'] },
      deskstore_message: { code: 'views.value_field.needs_number', params: { column: 'carburante', metric: 'sum' } },
    });
  });
});

describe('full text', () => {
  it('accents are kept, case folded, English stemming by default', async () => {
    expect(ids(await search({ q: 'CITTÀ', sort: '_id' }))).toEqual([1, 2]);
    expect((await search({ q: 'citta' })).total).toBe(0);
    expect(ids(await search({ q: 'Števerjan' }))).toEqual([6]);
    expect(ids(await search({ q: 'famous mobiles' }))).toEqual([]);
    expect(ids(await search({ q: 'famosa' }))).toEqual([3]);
  });
  it('prefix search with plain=false and accented words (what CKAN’s table view breaks on)', async () => {
    expect(ids(await search({ q: "'citt':*", plain: false, language: 'simple', sort: '_id' }))).toEqual([1, 2]);
    expect(ids(await search({ q: "'forl':* & 'romagn':*", plain: false, language: 'simple' }))).toEqual([2]);
    expect(ids(await search({ q: "'števerj':*", plain: false, language: 'simple' }))).toEqual([6]);
    expect(ids(await search({ q: '!lombardia & capoluogo:*', plain: false }))).toEqual([]);
    const err = await api.post('datastore_search', { resource_id: rid, q: 'roma & (', plain: false });
    expect(err.status).toBe(409);
    expect(err.body).toMatchObject({ error: { query: ['Invalid query'] } });
  });
  it('numbers and booleans are searchable, per-column q adds rank columns, full_text searches all', async () => {
    expect(ids(await search({ q: '2800000' }))).toEqual([4]);
    expect(ids(await search({ q: 'true', sort: '_id' }))).toEqual([2, 4, 5]);
    const perColumn = await search({ q: { regione: 'lombardia' }, sort: '_id' });
    expect(ids(perColumn)).toEqual([3, 5]);
    expect(perColumn.fields.at(-1)).toEqual({ id: 'rank regione', type: 'float' });
    expect(ids(await search({ full_text: 'capitale', fields: 'comune' }))).toEqual([4]);
  });
  it('knows english, simple and italian; other configurations are an invalid query', async () => {
    // The query side follows `language`: Italian stems `mobili` to `mobil`, which the
    // (English-stemmed) document holds for `mobile`; the English stem of `mobili` is not there.
    expect((await search({ q: 'mobili', language: 'italian' })).total).toBe(1);
    expect((await search({ q: 'mobili' })).total).toBe(0);
    expect((await search({ q: 'bella', language: 'simple' })).total).toBe(1);
    const err = await api.post('datastore_search', { resource_id: rid, q: 'x', language: 'klingon' });
    expect(err.status).toBe(409);
  });
});

describe('output', () => {
  it('lists, csv and tsv with filters and sort, and the echoed parameters', async () => {
    const lists = await search({
      records_format: 'lists',
      fields: 'comune,abitanti',
      filters: { regione: 'Lombardia' },
      sort: 'abitanti desc',
    });
    expect(lists.records).toEqual([
      ['Milano', 1370000],
      ['Cantù', 40000],
    ]);
    const csv = await search({ records_format: 'csv', fields: 'comune,capoluogo,note', filters: { capoluogo: true }, sort: 'comune' });
    expect(csv.records).toBe("Forlì,t,Città romagnola\nMilano,t,\nRoma,t,Capitale d'Italia\n");
    const tsv = await search({ records_format: 'tsv', fields: 'comune', q: 'perché' });
    expect(tsv.records).toBe('Città di Castello\n');
    expect(lists).toMatchObject({
      sort: 'abitanti desc',
      filters: { regione: 'Lombardia' },
      limit: 100,
      include_total: true,
      records_format: 'lists',
    });
  });
  it('sorts text linguistically (accents and case break ties only)', async () => {
    const sorted = await search({ fields: 'comune', sort: 'comune' });
    expect(sorted.records.map((r: { comune: string }) => r.comune)).toEqual([
      'Cantù',
      'Città di Castello',
      'Forlì',
      'Milano',
      'Roma',
      'San Floriano del Collio-Števerjan',
    ]);
  });
  it('include_next_page gives a keyset filter that continues the listing', async () => {
    const first = await search({ limit: 2, include_next_page: true });
    expect(first.next_page).toEqual({ _id: { gt: 2 } });
    const second = await search({ limit: 2, filters: first.next_page });
    expect(ids(second)).toEqual([3, 4]);
  });
  it('answers GET with JSON-encoded filters, under a locale prefix and by alias, with _links from the URL', async () => {
    const res = await api.get(
      'datastore_search',
      { resource_id: 'comuni_it', filters: JSON.stringify({ regione: 'Lombardia' }), limit: '1', offset: '1' },
      '/it',
    );
    const body = res.body as { result: Record<string, any>; help: string };
    expect(body.result.resource_id).toBe(rid);
    expect(body.result.records).toEqual([expect.objectContaining({ comune: 'Milano' })]);
    expect(body.result._links.next).toBe(
      `/api/3/action/datastore_search?resource_id=comuni_it&filters=${encodeURIComponent(JSON.stringify({ regione: 'Lombardia' })).replace(/%20/g, '+')}&limit=1&offset=2`,
    );
    expect(body.help).toMatch(/\/it\/api\/3\/action\/help_show\?name=datastore_search$/);
  });
});

describe('dump and facets', () => {
  it('dumps what a search selects as csv (with BOM) and json', async () => {
    const csv = Buffer.from(
      await (
        await fetch(
          `${server.url}/datastore/dump/${rid}?format=csv&bom=true&filters=${encodeURIComponent('{"regione":"Lombardia"}')}&fields=comune,abitanti&sort=comune`,
        )
      ).arrayBuffer(),
    );
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // CKAN writes the header with Python's csv module (CRLF) and the rows with PostgreSQL (LF).
    expect(csv.subarray(3).toString('utf8')).toBe('comune,abitanti\r\nCantù,40000\nMilano,1370000\n');
    const json = await (await fetch(`${server.url}/datastore/dump/${rid}?format=json&q=roma&fields=comune`)).json();
    expect(json).toEqual({ fields: [{ id: 'comune', type: 'text' }], records: [['Roma']] });
  });
  it('counts distinct values of a column among the matching rows', async () => {
    const f = await api.ok('deskstore_facets', { resource_id: rid, field: 'regione' });
    expect(f.values[0]).toEqual({ value: 'Lombardia', count: 2 });
    expect(f.distinct).toBe(5);
    const filtered = await api.ok('deskstore_facets', { resource_id: rid, field: 'capoluogo', filters: { regione: 'Lombardia' } });
    expect(filtered.values).toEqual([
      { value: false, count: 1 },
      { value: true, count: 1 },
    ]);
    const contains = await api.ok('deskstore_facets', { resource_id: rid, field: 'regione', contains: 'romagna' });
    expect(contains.values).toEqual([{ value: 'Emilia-Romagna', count: 1 }]);
  });
});

describe('discovery', () => {
  it('lets a script find what is there before it searches', async () => {
    expect(await (await fetch(`${server.url}/api`)).json()).toEqual({ version: 1 });
    const status = await api.ok('status_show');
    expect(status.extensions).toContain('datastore');
    const listed = await api.ok('package_list');
    expect(listed).toContain('comuni');
    const pkg = await api.ok('package_show', { id: 'comuni' });
    expect(pkg.resources[0]).toMatchObject({ id: rid, datastore_active: true, url: `${server.url}/datastore/dump/${rid}` });
    const info = await api.ok('datastore_info', { resource_id: 'comuni_it' });
    expect(info.meta).toMatchObject({ id: rid, count: 6, aliases: ['comuni_it'] });
    expect(info.fields.map((f: { id: string; schema: { native_type: string } }) => [f.id, f.schema.native_type])).toEqual([
      ['comune', 'text'],
      ['regione', 'text'],
      ['abitanti', 'integer'],
      ['fondazione', 'date'],
      ['capoluogo', 'boolean'],
      ['note', 'text'],
    ]);
  });
});
