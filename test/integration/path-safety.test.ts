import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8, "a resource id can leave the data folder": every id that becomes a path is checked
 * with CKAN's rule for resource ids (after its advisory on crafted ids, CVE-2023-32321) and
 * answered with CKAN's validation error, before anything touches the disk. The data folder sits
 * inside a scratch folder with a sentinel file, so a path that climbs out would be seen.
 */
let outer: string;
let dataDir: string;
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
let packageId: string;

const sentinel = () => join(outer, 'sentinel.txt');
const outerListing = () => readdirSync(outer).sort();

beforeAll(async () => {
  outer = tempDir('deskstore-paths-');
  dataDir = join(outer, 'data');
  mkdirSync(dataDir);
  writeFileSync(sentinel(), 'must survive');
  server = await startServer({ dataDir });
  api = ckan(server.url, server.token);
  packageId = (await api.ok('package_create', { name: 'paths' })).id;
});
afterAll(async () => {
  await server.stop();
  removeDir(outer);
});

const CRAFTED = [
  '..',
  '.',
  '../..',
  '../../escape',
  '../data/resources/x',
  'a/b/c/d/e',
  '..\\..\\escape',
  'abc\u0000defgh',
  'C:\\Windows\\x',
  '%2e%2e%2fescape',
  '/etc/passwd',
  'über-resource',
  'semi;colon',
  'x'.repeat(101),
  'short',
];

describe('crafted resource ids are refused before they reach a path', () => {
  it('package_create with a resource id "../.." is refused, and package_delete then touches nothing outside', async () => {
    const before = outerListing();
    const created = await api.post('package_create', {
      name: 'climb',
      resources: [{ url: 'http://example.invalid/a.csv' }, { id: '../..', url: 'http://example.invalid/b.csv' }, { id: 'x' }],
    });
    expect(created.status).toBe(409);
    // CKAN's shape: one dict per resource, empty for the valid ones.
    expect((created.body as any).error).toEqual({
      __type: 'Validation Error',
      resources: [{}, { id: ['Invalid characters in resource id'] }, { id: ['Invalid length for resource id'] }],
    });
    const deleted = await api.post('package_delete', { id: 'climb' });
    expect(deleted.status).toBe(404);
    expect(existsSync(sentinel())).toBe(true);
    expect(existsSync(join(dataDir, 'catalogue.json'))).toBe(true);
    expect(outerListing()).toEqual(before);
  });

  it.each(CRAFTED)('resource_create and datastore_create refuse %j with CKAN’s validation error', async (id) => {
    const before = outerListing();
    const expected = /^[0-9a-zA-Z _-]*$/.test(id) ? 'Invalid length for resource id' : 'Invalid characters in resource id';
    const viaResource = await api.post('resource_create', { package_id: packageId, id, url: 'http://example.invalid/x.csv' });
    expect([viaResource.status, (viaResource.body as any).error]).toEqual([409, { __type: 'Validation Error', id: [expected] }]);
    const viaDatastore = await api.post('datastore_create', { resource: { package_id: packageId, id }, records: [{ a: 1 }] });
    expect([viaDatastore.status, (viaDatastore.body as any).error]).toEqual([409, { __type: 'Validation Error', id: [expected] }]);
    expect(outerListing()).toEqual(before);
    expect(readdirSync(join(dataDir, 'resources'))).toEqual([]);
  });

  it('accepts the ids CKAN accepts (UUIDs, and CKAN ≤ 2.10 custom ids a portal may carry) and keeps their data inside', async () => {
    for (const id of ['3b4e1e5c-0a43-4f7e-9d38-2a1f0c8d9e11', 'portale_Comune-01 dati']) {
      const created = await api.ok('datastore_create', { resource: { package_id: packageId, id }, records: [{ a: 1 }] });
      expect(created.resource_id).toBe(id);
      expect((await api.ok('datastore_search', { resource_id: id })).total).toBe(1);
      expect(existsSync(join(dataDir, 'resources', id))).toBe(true);
      await api.ok('resource_delete', { id });
      expect(existsSync(join(dataDir, 'resources', id))).toBe(false);
    }
  });

  it('refuses an id that names the same folder as another one on a case-insensitive disk', async () => {
    await api.ok('resource_create', { package_id: packageId, id: 'Risorsa-Comune', url: 'http://example.invalid/x.csv' });
    for (const id of ['risorsa-comune', 'RISORSA-COMUNE', 'Risorsa-Comune ']) {
      const again = await api.post('resource_create', { package_id: packageId, id, url: 'http://example.invalid/x.csv' });
      expect([id, again.status, (again.body as any).error?.id]).toEqual([id, 409, ['Resource id already exists.']]);
    }
    await api.ok('resource_delete', { id: 'Risorsa-Comune' });
  });

  it('deskstore import refuses a crafted --resource-id before creating anything', () => {
    const cliData = join(outer, 'cli-data');
    const csv = join(outer, 'small.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const before = outerListing();
    // resources/../../cli-escape inside cli-data would be outer/cli-escape.
    const r = runCli(['import', csv, '--data', cliData, '--resource-id', '../../cli-escape']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--resource-id: Invalid characters in resource id');
    expect(outerListing()).toEqual(before);
    removeDir(csv);
  });
});
