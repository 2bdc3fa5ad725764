/**
 * The portal flows in the window (issues 12 and 13), against a second Deskstore playing the
 * portal: "From a portal" mirrors a dataset's resources with progress; the catalogue shows
 * where a mirror came from and Update says what changed; an unreachable portal is told in
 * the user's language; "Publish to a portal…" pushes a local table and links to the result.
 */
import { action } from './api-helpers';
import { expect, test } from './fixtures';
import { startServer, type DeskstoreServer } from './server';

let portal: DeskstoreServer;

test.beforeEach(async () => {
  portal = await startServer();
  const pkg = await action(portal, 'package_create', {
    name: 'bilancio',
    title: 'Bilancio comunale',
    notes: 'Entrate e uscite',
  });
  await action(portal, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'Entrate 2024' },
    fields: [
      { id: 'voce', type: 'text', info: { label: 'Voce' } },
      { id: 'importo', type: 'numeric' },
    ],
    records: [
      { voce: 'Tributi', importo: 1200.5 },
      { voce: 'Trasferimenti', importo: 300 },
    ],
  });
});

test.afterEach(async () => {
  await portal.stop();
});

test('mirror a dataset from a portal, then Update says what changed (en)', async ({ page, deskstore, openUi, shot }) => {
  await openUi('/en/');
  await page.getByRole('link', { name: 'From a portal' }).click();
  await page.getByTestId('portal-url').fill(`${portal.url}/dataset/bilancio`);
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { name: 'Bilancio comunale' })).toBeVisible();
  await expect(page.getByTestId('remote-resource')).toHaveCount(1);
  await expect(page.getByTestId('remote-resource')).toContainText('in the DataStore');
  await page.getByTestId('mirror-button').click();
  await expect(page.getByTestId('mirror-results')).toContainText('Entrate 2024: mirrored · 2 rows');
  await shot('en-portal-mirror');

  await page.getByRole('link', { name: 'Back to the catalogue' }).click();
  const info = page.getByTestId('mirror-info');
  await expect(info).toContainText(`Mirrored from ${portal.url}/dataset/bilancio`);
  const [resource] = await action(deskstore, 'package_show', { id: 'bilancio' }).then((p) => p.resources);
  await action(portal, 'datastore_upsert', { resource_id: resource!.id, method: 'insert', records: [{ voce: 'Sanzioni', importo: 12 }] });
  await info.getByTestId('mirror-update').click();
  await expect(info.getByTestId('mirror-results')).toContainText('1 added, 0 removed, 0 changed');
  await shot('en-portal-update');
  await info.getByTestId('mirror-update').click();
  await expect(info.getByTestId('nothing-changed')).toBeVisible();
});

test('an unreachable portal is told in Italian, and the catalogue keeps working (it)', async ({ page, openUi }) => {
  await openUi('/it/');
  await page.getByRole('link', { name: 'Da un portale' }).click();
  await page.getByTestId('portal-url').fill('http://127.0.0.1:9/opendata/dataset/niente');
  await page.getByRole('button', { name: 'Apri' }).click();
  const problem = page.getByTestId('portal-problem');
  await expect(problem).toContainText('non è raggiungibile');
  await expect(problem).toContainText('continua a funzionare');
  await page.getByRole('link', { name: 'Catalogo' }).click();
  await expect(page.getByRole('heading', { name: 'Catalogo' })).toBeVisible();
});

test('publish a local table to a portal with a link to it (it)', async ({ page, deskstore, openUi, shot }) => {
  const pkg = await action(deskstore, 'package_create', { name: 'tabella-pulita', title: 'Tabella pulita' });
  const created = await action(deskstore, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'Pulita' },
    fields: [
      { id: 'nome', type: 'text' },
      { id: 'n', type: 'int4' },
    ],
    records: [
      { nome: 'Città', n: 1 },
      { nome: 'caffè "forte"', n: 2 },
      { nome: '', n: null },
    ],
  });
  await openUi('/it/');
  await page.getByRole('link', { name: 'Pubblica Pulita su un portale' }).click();
  await expect(page.getByRole('heading', { name: 'Pubblica Pulita su un portale' })).toBeVisible();
  await page.getByTestId('publish-portal').fill(portal.url);
  await page.getByTestId('publish-token').fill(portal.token);
  await page.getByTestId('publish-button').click();
  const done = page.getByTestId('publish-done');
  await expect(done).toContainText('Pubblicata: 3 righe.');
  const link = done.getByRole('link');
  await expect(link).toHaveAttribute('href', new RegExp(`^${portal.url}/dataset/tabella-pulita/resource/`));
  await shot('it-publish-done');
  const remoteId = (await link.getAttribute('href'))!.split('/').pop()!;
  const remote = await action(portal, 'datastore_search', { resource_id: remoteId });
  expect(remote.records).toEqual([
    { _id: 1, nome: 'Città', n: 1 },
    { _id: 2, nome: 'caffè "forte"', n: 2 },
    { _id: 3, nome: '', n: null },
  ]);
  void created;
  await page.getByTestId('publish-button').click();
  await expect(done).toContainText('Nulla è cambiato');
});

test('publishing names the columns a portal keeps shorter, with their names there (en)', async ({ page, deskstore, openUi }) => {
  // 63 characters, which datastore_create accepts (CKAN counts characters), but 64 bytes.
  const long = `Denominazione dell'Unità territoriale sovracomunale (valida a f`;
  const pkg = await action(deskstore, 'package_create', { name: 'nomi-lunghi', title: 'Nomi lunghi' });
  await action(deskstore, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'Lunghi' },
    fields: [{ id: long, type: 'text' }],
    records: [{ [long]: 'Trieste' }],
  });
  await openUi('/');
  await page.getByRole('link', { name: 'Publish Lunghi to a portal' }).click();
  await page.getByTestId('publish-portal').fill(portal.url);
  await page.getByTestId('publish-token').fill(portal.token);
  await page.getByTestId('publish-button').click();
  const done = page.getByTestId('publish-done');
  await expect(done).toContainText('Published: 1 rows.');
  await expect(done).toContainText('One column name is longer than the portal keeps (63 bytes)');
  await expect(page.getByTestId('publish-renamed')).toHaveText(`“${long}” → “${long.slice(0, 62).trimEnd()}”`);
});

test('rename a column here before publishing, and the portal gets the new name (en)', async ({ page, deskstore, openUi }) => {
  const long = `Denominazione dell'Unità territoriale sovracomunale (valida a f`; // 63 characters, 64 bytes
  const pkg = await action(deskstore, 'package_create', { name: 'nomi-propri', title: 'Nomi propri' });
  const table = await action(deskstore, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'Propri' },
    fields: [{ id: long, type: 'text' }],
    records: [{ [long]: 'Trieste' }],
  });
  await openUi('/');
  await page.getByRole('link', { name: 'Publish Propri to a portal' }).click();
  const panel = page.getByTestId('rename-columns');
  // Open by itself: a name is longer than a portal keeps.
  await expect(panel).toHaveAttribute('open', '');
  await expect(panel).toContainText('(64 bytes: too long for a portal)');
  const input = panel.getByRole('textbox', { name: `New name for ${long}` });
  await input.fill('_sovracomunale');
  await panel.getByTestId('rename-columns-button').click();
  await expect(panel.getByRole('alert')).toContainText('is not a valid field name');
  await input.fill('Unità sovracomunale');
  await panel.getByTestId('rename-columns-button').click();
  await expect(panel.getByTestId('rename-columns-done')).toHaveText('1 column renamed: version 2 of the data.');
  await expect(panel.getByRole('textbox', { name: 'New name for Unità sovracomunale' })).toBeVisible();
  const info = await action(deskstore, 'datastore_info', { id: table.resource_id });
  expect(info.fields.map((f) => f.id)).toEqual(['Unità sovracomunale']);

  await page.getByTestId('publish-portal').fill(portal.url);
  await page.getByTestId('publish-token').fill(portal.token);
  await page.getByTestId('publish-button').click();
  await expect(page.getByTestId('publish-done')).toContainText('Published: 1 rows.');
  await expect(page.getByTestId('publish-renamed')).toHaveCount(0);
  const pushed = await action(portal, 'package_show', { id: 'nomi-propri' });
  const there = await action(portal, 'datastore_search', { resource_id: pushed.resources[0]!.id });
  expect(there.fields.map((f) => f.id)).toEqual(['_id', 'Unità sovracomunale']);
  expect(there.records[0]).toMatchObject({ 'Unità sovracomunale': 'Trieste' });
});
