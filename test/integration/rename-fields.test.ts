/**
 * Issue 23: renaming columns locally (deskstore_rename_fields, `deskstore rename-columns`).
 * The rename publishes the same rows under the new names as a new version; afterwards every
 * reader knows only the new names (datastore_search's fields, filters, sort and q, the full
 * text, datastore_search_sql's table, datastore_info, the primary key of an upsert), the old
 * ones are CKAN's validation errors, and a restart keeps it. Bad names are refused with
 * datastore_create's rules and nothing changes. The CLI renames through a running server and
 * without one.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenameFieldsResult } from '../../src/shared/wire/actions';
import { ckan, type ActionResponse } from '../helpers/ckan-client';
import { lastJsonLine, removeDir, runCli, runCliAsync, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

let server: ServerProcess;
let dataDir: string;
let table: string;

// 63 characters, as datastore_create allows, but 65 bytes: more than a portal keeps.
const LONG = 'popolazione residente nella città al 1° gennaio'.padEnd(63, '.');

/** An answer's envelope as JSON (the tests below check answers that did parse). */
const envelope = (r: ActionResponse): any => (typeof r.body === 'string' ? {} : r.body);

async function fieldIds(s: ServerProcess): Promise<string[]> {
  const info = await ckan(s.url).get('datastore_info', { id: table });
  return (info.body as { result: { fields: { id: string }[] } }).result.fields.map((f) => f.id);
}

async function versionSources(s: ServerProcess): Promise<string[]> {
  const r = await ckan(s.url, s.token).ok('deskstore_versions', { resource_id: table });
  return r.versions.map((v) => `${v.version}:${v.source}:${v.rows}`);
}

/** What a reader of the renamed table sees: every path that names a column. */
async function expectRenamed(s: ServerProcess): Promise<void> {
  const api = ckan(s.url, s.token);
  expect(await fieldIds(s)).toEqual(['codice', 'comune', 'residenti', 'note']);
  const search = await api.ok('datastore_search', { resource_id: table, filters: { comune: 'Bari' }, sort: 'residenti desc' });
  expect(search.fields.map((f) => f.id)).toEqual(['_id', 'codice', 'comune', 'residenti', 'note']);
  expect(search.records.map((r) => r.codice)).toEqual(['BA2', 'BA1']);
  // Full text: the whole row, and one column by its new name.
  const q = await api.ok('datastore_search', { resource_id: table, q: 'lungomare', fields: ['codice'] });
  expect(q.records.map((r) => r.codice)).toEqual(['BA2']);
  const qColumn = await api.ok('datastore_search', { resource_id: table, q: { comune: 'Lecce' }, fields: ['codice'] });
  expect(qColumn.records.map((r) => r.codice)).toEqual(['LE1']);
  const sql = await api.ok('datastore_search_sql', {
    sql: `SELECT "codice", "residenti" FROM "${table}" WHERE "comune" = 'Bari' ORDER BY "residenti"`,
  });
  expect(sql.records.map((r) => [r.codice, String(r.residenti)])).toEqual([
    ['BA1', '100'],
    ['BA2', '250'],
  ]);
  // The old names are gone, with CKAN's errors for a column a table does not have.
  const oldFilter = await api.post('datastore_search', { resource_id: table, filters: { [LONG]: 100 } });
  expect(oldFilter.status).toBe(409);
  expect(envelope(oldFilter).error.filters).toEqual([`invalid value "${LONG}"`]);
  const oldSort = await api.post('datastore_search', { resource_id: table, sort: 'city' });
  expect(oldSort.status).toBe(409);
  const oldSql = await api.post('datastore_search_sql', { sql: `SELECT "city" FROM "${table}"` });
  expect(oldSql.status).toBe(409);
  expect(envelope(oldSql).success).toBe(false);
}

beforeAll(async () => {
  dataDir = tempDir();
  server = await startServer({ dataDir });
  const api = ckan(server.url, server.token);
  const pkg = await api.ok('package_create', { name: 'i23-rename' });
  table = (
    await api.ok('datastore_create', {
      resource: { package_id: pkg.id, name: 'Comuni' },
      fields: [
        { id: 'code', type: 'text' },
        { id: 'city', type: 'text' },
        { id: LONG, type: 'int4', info: { label: 'Residenti' } },
        { id: 'note', type: 'text' },
      ],
      primary_key: ['code'],
      records: [
        { code: 'BA1', city: 'Bari', [LONG]: 100, note: 'centro storico' },
        { code: 'LE1', city: 'Lecce', [LONG]: 90, note: 'barocco' },
      ],
    })
  ).resource_id;
  // Not yet checkpointed: the rename must carry the journal's rows too.
  await api.ok('datastore_upsert', {
    resource_id: table,
    method: 'insert',
    records: [{ code: 'BA2', city: 'Bari', [LONG]: 250, note: 'lungomare' }],
  });
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) removeDir(dataDir);
});

describe('deskstore_rename_fields', () => {
  it('refuses bad names with datastore_create’s rules, and changes nothing', async () => {
    const api = ckan(server.url, server.token);
    const before = await fieldIds(server);
    const versionsBefore = await versionSources(server);
    const refusals: [Record<string, string>, Record<string, string[]>][] = [
      [{ city: '_città' }, { fields: ['"_città" is not a valid field name'] }],
      [{ city: '_id' }, { fields: ['"_id" is not a valid field name'] }],
      [{ city: '_full_text' }, { fields: ['"_full_text" is not a valid field name'] }],
      [{ city: 'a"b' }, { fields: ['"a"b" is not a valid field name'] }],
      [{ city: ' city' }, { fields: ['" city" is not a valid field name'] }],
      [{ city: 'à'.repeat(32) }, { fields: [`Column heading "${'à'.repeat(32)}" exceeds limit of 63 bytes.`] }],
      [{ city: 'x'.repeat(64) }, { fields: [`Column heading "${'x'.repeat(64)}" exceeds limit of 63 characters.`] }],
      [{ city: 'Note' }, { field: ['Duplicate column names are not supported'] }],
      [{ city: 'x', code: 'x' }, { field: ['Duplicate column names are not supported'] }],
      [{ nope: 'x' }, { fields: ['field "nope" not in table'] }],
      [{ city: 'x', [`${LONG} `]: 'y' }, { fields: [`field "${LONG} " not in table`] }],
    ];
    for (const [fields, error] of refusals) {
      const r = await api.post('deskstore_rename_fields', { resource_id: table, fields });
      expect(r.status, JSON.stringify(fields)).toBe(409);
      expect(envelope(r).error, JSON.stringify(fields)).toEqual({ __type: 'Validation Error', ...error });
    }
    const malformed = await api.post('deskstore_rename_fields', { resource_id: table, fields: ['city'] });
    expect(malformed.status).toBe(409);
    const empty = await api.post('deskstore_rename_fields', { resource_id: table, fields: {} });
    expect(envelope(empty).error.fields).toEqual(['Missing value']);
    const missing = await ckan(server.url, server.token).post('deskstore_rename_fields', { resource_id: 'no-such-table', fields: { a: 'b' } });
    expect(missing.status).toBe(404);
    const anonymous = await ckan(server.url).post('deskstore_rename_fields', { resource_id: table, fields: { city: 'comune' } });
    expect(anonymous.status).toBe(403);
    expect(await fieldIds(server)).toEqual(before);
    expect(await versionSources(server)).toEqual(versionsBefore);
  });

  it('renames columns as a new version that every reader sees, and the old names are gone', async () => {
    const api = ckan(server.url, server.token);
    const result = await api.ok('deskstore_rename_fields', {
      resource_id: table,
      fields: { code: 'codice', city: 'comune', [LONG]: 'residenti' },
    });
    expect(result.renamed).toEqual([
      { from: 'code', to: 'codice' },
      { from: 'city', to: 'comune' },
      { from: LONG, to: 'residenti' },
    ]);
    expect(result.version).toBe(2);
    // The label (datastore_create's info) stays with the column.
    expect(result.fields.find((f) => f.id === 'residenti')?.info).toEqual({ label: 'Residenti' });
    expect(await versionSources(server)).toEqual(['2:rename:3', '1:create:3']);
    await expectRenamed(server);
    // The primary key follows the rename: an upsert matches rows by the new name.
    await api.ok('datastore_upsert', { resource_id: table, method: 'upsert', records: [{ codice: 'LE1', residenti: 95 }] });
    const le = await api.ok('datastore_search', { resource_id: table, filters: { codice: 'LE1' } });
    expect(le.records.map((r) => r.residenti)).toEqual([95]);
    const total = await api.ok('datastore_search', { resource_id: table, limit: 0 });
    expect(total.total).toBe(3);
    // A name unchanged publishes nothing.
    const same = await api.ok('deskstore_rename_fields', { resource_id: table, fields: { note: 'note' } });
    expect(same.version).toBeNull();
    expect(await versionSources(server)).toEqual(['2:rename:3', '1:create:3']);
  });

  it('keeps the new names across a restart', async () => {
    await server.stop();
    server = await startServer({ dataDir });
    await expectRenamed(server);
    const le = await ckan(server.url).get('datastore_search', { resource_id: table, filters: JSON.stringify({ codice: 'LE1' }) });
    expect(envelope(le).result.records[0].residenti).toBe(95);
  });

  it('renames from the CLI, through the running server and without one', async () => {
    const through = await runCliAsync(['rename-columns', '--data', dataDir, table, '--column', 'note', '--to', 'nota']);
    expect(through.status, through.stderr).toBe(0);
    expect(through.stderr).toContain('running the rename there');
    const viaServer = lastJsonLine<RenameFieldsResult>(through.stdout);
    expect(viaServer.renamed).toEqual([{ from: 'note', to: 'nota' }]);
    expect(await fieldIds(server)).toEqual(['codice', 'comune', 'residenti', 'nota']);
    const q = await ckan(server.url).get('datastore_search', { resource_id: table, q: 'barocco' });
    expect(envelope(q).result.records.map((r: { codice: string }) => r.codice)).toEqual(['LE1']);
    await server.stop();

    const local = runCli(['rename-columns', '--data', dataDir, table, '--column', 'nota', '--to', 'descrizione', '--column', 'comune', '--to', 'luogo']);
    expect(local.status, local.stderr).toBe(0);
    expect(lastJsonLine<RenameFieldsResult>(local.stdout).version).toBe(4);
    const refused = runCli(['rename-columns', '--data', dataDir, table, '--column', 'luogo', '--to', '_luogo']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Validation Error');
    expect(refused.stderr).toContain('_luogo');
    const unpaired = runCli(['rename-columns', '--data', dataDir, table, '--column', 'luogo']);
    expect(unpaired.status).toBe(2);

    server = await startServer({ dataDir });
    expect(await fieldIds(server)).toEqual(['codice', 'luogo', 'residenti', 'descrizione']);
    const sql = await ckan(server.url).post('datastore_search_sql', {
      sql: `SELECT "codice" FROM "${table}" WHERE "descrizione" = 'lungomare'`,
    });
    expect(envelope(sql).result.records).toEqual([{ codice: 'BA2' }]);
    expect(await versionSources(server)).toEqual(['4:rename:3', '3:rename:3', '2:rename:3']);
  });
});

describe('a rename the engine crashed in (DESKSTORE_TEST_FAULT, src/main/engine/test-faults.ts)', () => {
  let crashing: ServerProcess;
  let rid: string;
  const notSaved = /was not saved: nothing of it is in the data, and sending it again is safe/;
  const columnsFiles = () => readdirSync(join(crashing.dataDir, 'resources', rid)).filter((f) => f.endsWith('.columns'));

  beforeAll(async () => {
    crashing = await startServer({
      env: { DESKSTORE_TEST_FAULT: 'before-commit:crash-rename-before,after-commit:crash-rename-after' },
    });
    const api = ckan(crashing.url, crashing.token);
    const pkg = await api.ok('package_create', { name: 'i23-rename-crash' });
    rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id }, fields: [{ id: 'testo', type: 'text' }], records: [{ testo: 'uno' }] }))
      .resource_id;
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ testo: 'due' }] });
  });
  afterAll(async () => {
    await crashing?.stop();
    if (crashing) removeDir(crashing.dataDir);
  });

  it('before its commit: not saved, the table as it was, the half-written version gone', async () => {
    const api = ckan(crashing.url, crashing.token);
    const r = await api.post('deskstore_rename_fields', { resource_id: rid, fields: { testo: 'crash-rename-before' } });
    expect(crashing.stderr()).toMatch(/engine worker stopped unexpectedly \(exit code 70\)/);
    expect(envelope(r).success).toBe(false);
    expect(r.text).toMatch(notSaved);
    const rows = await api.ok('datastore_search', { resource_id: rid, sort: '_id' });
    expect(rows.fields.map((f) => f.id)).toEqual(['_id', 'testo']);
    expect(rows.records.map((x) => x.testo)).toEqual(['uno', 'due']);
    const versions = await api.ok('deskstore_versions', { resource_id: rid });
    expect(versions.versions.map((v) => v.source)).toEqual(['create']);
    expect(columnsFiles()).toHaveLength(1);
  });

  it('after its commit: answered as done, and the new names are there', async () => {
    const api = ckan(crashing.url, crashing.token);
    const r = await api.post('deskstore_rename_fields', { resource_id: rid, fields: { testo: 'crash-rename-after' } });
    expect(r.status, r.text).toBe(200);
    expect(envelope(r).result.renamed).toEqual([{ from: 'testo', to: 'crash-rename-after' }]);
    const rows = await api.ok('datastore_search', { resource_id: rid, sort: '_id' });
    expect(rows.fields.map((f) => f.id)).toEqual(['_id', 'crash-rename-after']);
    expect(rows.records.map((x) => x['crash-rename-after'])).toEqual(['uno', 'due']);
    const versions = await api.ok('deskstore_versions', { resource_id: rid });
    expect(versions.versions.map((v) => v.source)).toEqual(['rename', 'create']);
  });
});
