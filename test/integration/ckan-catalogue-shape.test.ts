import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 23: catalogue dicts with the keys and key order the real CKAN 2.10.10 gives
 * (package_show of a dataset with a DataStore resource, seen on 2026-11-27), package_show's
 * missing-id message and organization_list's `organizations` filter.
 */
let server: ServerProcess;
let api: ReturnType<typeof ckan>;
beforeAll(async () => {
  server = await startServer();
  api = ckan(server.url, server.token);
  await api.ok('organization_create', { name: 'i23-org-a' });
  await api.ok('organization_create', { name: 'i23-org-b' });
  await api.ok('package_create', { name: 'i23-shape' });
  await api.ok('datastore_create', { resource: { package_id: 'i23-shape', name: 'r' }, records: [{ a: 1 }] });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('catalogue answers shaped as CKAN (issue 23)', () => {
  it("package_show: CKAN's keys, plain ones sorted, then resources, tags, extras, groups, relationships", async () => {
    const pkg = (await api.ok('package_show', { id: 'i23-shape' })) as unknown as Record<string, unknown>;
    // The real CKAN's keys for such a dataset, in its order.
    const ckanKeys = [
      'author', 'author_email', 'creator_user_id', 'id', 'isopen', 'license_id', 'license_title', 'maintainer',
      'maintainer_email', 'metadata_created', 'metadata_modified', 'name', 'notes', 'num_resources', 'num_tags',
      'organization', 'owner_org', 'private', 'state', 'title', 'type', 'url', 'version',
      'resources', 'tags', 'extras', 'groups', 'relationships_as_subject', 'relationships_as_object',
    ]; // prettier-ignore
    expect(Object.keys(pkg)).toEqual(ckanKeys);
    expect(pkg.creator_user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect([pkg.license_title, pkg.relationships_as_subject, pkg.relationships_as_object]).toEqual([null, [], []]);
    const resource = (pkg.resources as Record<string, unknown>[])[0]!;
    const resourceKeys = Object.keys(resource).filter((k) => k !== 'deskstore'); // Deskstore's own, ignored by clients
    expect(resourceKeys).toEqual([
      'cache_last_updated', 'cache_url', 'created', 'datastore_active', 'description', 'format', 'hash', 'id',
      'last_modified', 'metadata_modified', 'mimetype', 'mimetype_inner', 'name', 'package_id', 'position',
      'resource_type', 'size', 'state', 'url', 'url_type',
    ]); // prettier-ignore
    expect(Object.keys(resource)).toEqual([...Object.keys(resource)].sort());
    const shown = (await api.ok('resource_show', { id: String(resource.id) })) as unknown as Record<string, unknown>;
    expect([shown.cache_url, shown.cache_last_updated, shown.mimetype_inner]).toEqual([null, null, null]);
  });

  it('package_show without an id: {"name_or_id": ["Missing value"]}, as CKAN', async () => {
    const r = await api.post('package_show', {});
    expect(r.status).toBe(409);
    expect((r.body as { error: unknown }).error).toEqual({ name_or_id: ['Missing value'], __type: 'Validation Error' });
  });

  it('organization_list filters by `organizations` and ignores `groups`, as get.py does', async () => {
    expect(await api.ok('organization_list', { organizations: 'i23-org-b' })).toEqual(['i23-org-b']);
    expect(await api.ok('organization_list', { organizations: ['i23-org-a', 'i23-org-b'] })).toEqual(['i23-org-a', 'i23-org-b']);
    expect(await api.ok('organization_list', { groups: 'i23-org-b' })).toEqual(['i23-org-a', 'i23-org-b']);
  });
});
