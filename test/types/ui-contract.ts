/**
 * Compile-time proof that the UI's client calls actions through the contract
 * (src/shared/wire/actions.ts): `npm run typecheck` fails if any line marked `@ts-expect-error`
 * below compiles, i.e. if the client accepted an action that does not exist, a parameter the
 * action does not take, a value of the wrong type or a call without a required parameter.
 * Checked with the renderer's own compiler settings (tsconfig.web.json). Nothing here runs.
 */
import { call } from '../../src/renderer/src/api/client';
import type { DatastoreSearchResult } from '../../src/shared/wire/search';
import type { FacetsResult } from '../../src/shared/wire/facets';

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error: no such action
  await call('datastore_serch', { resource_id: 'r' });
  // @ts-expect-error: datastore_search takes `limit`, not `limt`
  await call('datastore_search', { resource_id: 'r', limt: 5 });
  // @ts-expect-error: `limit` is a number
  await call('datastore_search', { resource_id: 'r', limit: '5' });
  // @ts-expect-error: deskstore_facets needs `field`
  await call('deskstore_facets', { resource_id: 'r' });
  // @ts-expect-error: `metric` is one of count, sum, mean, min, max
  await call('deskstore_group_by', { resource_id: 'r', group_by: 'a', metric: 'median' });
  // @ts-expect-error: status_show takes no parameters
  await call('status_show', { verbose: true });
  // @ts-expect-error: `change` is added, removed or changed
  await call('deskstore_changes', { resource_id: 'r', change: 'modified' });
  // @ts-expect-error: deskstore_sync_schedule names the dataset by `id`
  await call('deskstore_sync_schedule', { dataset: 'd', every_hours: 6 });
  // @ts-expect-error: `fields` maps each old name to its new one, not a list
  await call('deskstore_rename_fields', { resource_id: 'r', fields: ['a', 'b'] });
}

export async function rightCalls(): Promise<[DatastoreSearchResult, FacetsResult, string, number]> {
  const search = await call('datastore_search', { resource_id: 'r', limit: 5, filters: { a: 1 } });
  const facets = await call('deskstore_facets', { resource_id: 'r', field: 'a' });
  // The result is typed by the action's name: a package's title, the number of rows changed.
  const title = (await call('package_show', { id: 'p' })).title ?? '';
  const changed = (await call('deskstore_changes', { resource_id: 'r', change: 'changed' })).counts.changed;
  return [search, facets, title, changed];
}
