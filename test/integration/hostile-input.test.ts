import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';
import { lcg } from '../helpers/random';

/**
 * Bad input gets a clear error and loses nothing: thousands of malformed, mistyped and
 * hostile parameters across the actions must never produce a 500, always a CKAN envelope
 * (or CKAN's bare-string 400), and the data must be unchanged afterwards.
 */
/** A column name made of SQL punctuation (double quotes are not allowed in CKAN names). */
const WEIRD = "Weird 'name'); -- % DROP";
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let rid: string;

beforeAll(async () => {
  server = await startServer();
  api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'hostile' });
  rid = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id },
      primary_key: 'id',
      aliases: 'hostile_alias',
      fields: [
        { id: 'id', type: 'text' },
        { id: 'n', type: 'int' },
        { id: 'd', type: 'date' },
        { id: 'j', type: 'json' },
        { id: 'a', type: 'text[]' },
        { id: WEIRD, type: 'text' },
      ],
      records: [
        { id: '1', n: 1, d: '2020-01-01', j: { x: 1 }, a: ['p'], [WEIRD]: 'ok' },
        { id: '2', n: 2, d: null, j: [1], a: null, [WEIRD]: null },
      ],
    })
  ).resource_id;
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const NASTY: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0,
  '',
  ' ',
  '0',
  '-1',
  'NaN',
  'null',
  '[]',
  '{}',
  '{"a":',
  '\u0000',
  "'; DROP TABLE x; --",
  '" OR 1=1 --',
  '%',
  '_',
  '\\',
  '(',
  '!',
  '&',
  '|',
  ':*',
  'a:* & (b | !',
  '"',
  '""',
  "''",
  '<->',
  'x'.repeat(5000),
  [],
  [null],
  [[]],
  [{}],
  {},
  { $or: 1 },
  { $and: [1] },
  { gt: {} },
  { '': '' },
  { id: { gt: [] } },
  { n: { in: 'x' } },
  { [WEIRD]: 'ok' },
  { n: 'abc' },
  { d: 'not a date' },
  { j: { a: 1 } },
  { a: 'x' },
  { _id: 'x' },
  Array.from({ length: 200 }, (_, i) => ({ n: i })),
  JSON.parse('{"a":' + '['.repeat(60) + ']'.repeat(60) + '}'),
];

const ACTIONS: Record<string, string[]> = {
  datastore_search: [
    'resource_id',
    'id',
    'filters',
    'q',
    'full_text',
    'plain',
    'language',
    'distinct',
    'limit',
    'offset',
    'fields',
    'sort',
    'include_total',
    'records_format',
    'include_next_page',
    'foo',
  ],
  datastore_info: ['resource_id', 'id'],
  datastore_upsert: ['resource_id', 'records', 'method', 'force', 'dry_run'],
  datastore_delete: ['resource_id', 'filters', 'force'],
  datastore_records_delete: ['resource_id', 'filters', 'force'],
  datastore_create: ['resource_id', 'resource', 'fields', 'records', 'primary_key', 'indexes', 'aliases', 'force', 'delete_fields'],
  datastore_search_sql: ['sql'],
  deskstore_facets: ['resource_id', 'field', 'filters', 'q', 'limit', 'contains'],
  package_create: ['name', 'title', 'id'],
  package_show: ['id'],
  package_search: ['q', 'rows', 'start'],
  package_list: ['limit', 'offset'],
  resource_show: ['id'],
  resource_patch: ['id', 'name', 'url'],
  xloader_status: ['resource_id'],
};

describe('hostile input', () => {
  it('never answers 500 and never changes the data', async () => {
    const random = lcg(777);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const targets = [rid, 'hostile_alias', 'nope', ''];
    const problems: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const action = pick(Object.keys(ACTIONS));
      const params: Record<string, unknown> = {};
      for (const key of ACTIONS[action]!) {
        if (random() < 0.5) params[key] = pick(NASTY);
      }
      if (action.startsWith('datastore') && random() < 0.8) params.resource_id = pick(targets);
      if (action === 'datastore_upsert' || action === 'datastore_delete' || action === 'datastore_records_delete') {
        // Keep the table: writes may only be dry runs or target nothing.
        params.dry_run = true;
        if (action !== 'datastore_upsert') params.resource_id = 'nope';
      }
      if (action === 'datastore_create') params.resource_id = 'nope';
      const r = await api.post(action, params);
      if (r.status >= 500 || (typeof r.body !== 'string' && typeof r.body?.success !== 'boolean')) {
        problems.push(`${action} ${JSON.stringify(params).slice(0, 300)} → ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    const after = await api.ok('datastore_search', { resource_id: rid });
    expect(after.total).toBe(2);
    expect(after.records[0]).toMatchObject({ id: '1', n: 1, [WEIRD]: 'ok' });
  }, 120_000);

  it('answers malformed bodies and oversized requests with CKAN errors', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${server.url}/api/3/action/datastore_search`, { method: 'POST', body, headers: { 'Content-Type': type } });
    const bad = await post('{"resource_id": ');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatch(/^Bad request - JSON Error: /);
    const notObject = await post('[1, 2]');
    expect(await notObject.json()).toBe('Bad request - JSON Error: Request data JSON decoded to [1, 2] but it needs to be a dictionary.');
    const unknown = await fetch(`${server.url}/api/3/action/datastore_nope`);
    expect(await unknown.json()).toBe('Bad request - Action name not known: datastore_nope');
  });

  it('answers deep JSON, deep $or and an oversized q with CKAN errors, never a 500 (issue 8)', async () => {
    const raw = async (action: string, body: string) => {
      const res = await fetch(`${server.url}/api/3/action/${action}`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', Authorization: server.token },
      });
      return { status: res.status, body: await res.json() };
    };
    const nested = (n: number, open: string, inner: string, close: string) => `${open.repeat(n)}${inner}${close.repeat(n)}`;
    const deep = [
      ['datastore_search', `{"resource_id":"${rid}","filters":${nested(100_000, '[', '1', ']')}}`],
      ['datastore_search', `{"resource_id":"${rid}","filters":${nested(5_000, '{"$or":[', '{"n":1}', ']}')}}`],
      ['datastore_search', `{"resource_id":"${rid}","q":${nested(100_000, '[', '1', ']')}}`],
      ['datastore_upsert', `{"resource_id":"${rid}","dry_run":true,"records":[{"id":"9","j":${nested(100_000, '{"a":', '1', '}')}}]}`],
      ['package_create', `{"name":"deep-package","extra":${nested(100_000, '[', '1', ']')}}`],
    ] as const;
    for (const [action, body] of deep) {
      const r = await raw(action, body);
      expect([action, r.status, r.body]).toEqual([
        action,
        400,
        'Bad request - JSON Error: Error decoding JSON data. Error: the JSON is nested more than 100 levels deep',
      ]);
    }
    // The same through a GET query string, where filters arrive as JSON text.
    const viaGet = await api.get('datastore_search', { resource_id: rid, filters: nested(2_000, '[', '1', ']') });
    expect([viaGet.status, (viaGet.body as any).error?.filters]).toEqual([409, ['Cannot parse JSON: nested more than 100 levels deep']]);
    // An $or as deep as a person would write still works.
    const reasonable = await raw('datastore_search', `{"resource_id":"${rid}","filters":${nested(20, '{"$or":[', '{"n":1}', ']}')}}`);
    expect(reasonable.status).toBe(200);
    for (const [q, plain] of [
      ['parola '.repeat(300_000), true],
      ['('.repeat(2_000_000), false],
    ] as const) {
      const r = await api.post('datastore_search', { resource_id: rid, q, plain });
      expect(r.status).toBe(409);
      expect((r.body as any).error.query).toEqual(['Invalid query']);
      expect(r.text.length).toBeLessThan(5_000); // the huge query is not echoed whole
    }
  });

  it('quotes hostile column names everywhere they reach SQL', async () => {
    const r = await api.ok('datastore_search', { resource_id: rid, fields: [WEIRD], filters: { [WEIRD]: 'ok' }, sort: `"${WEIRD}" desc` });
    expect(r.records).toEqual([{ [WEIRD]: 'ok' }]);
    const sql = await api.ok('datastore_search_sql', { sql: `SELECT "${WEIRD}" AS w FROM "${rid}" WHERE _id = 1` });
    expect(sql.records).toEqual([{ w: 'ok' }]);
  });
});
