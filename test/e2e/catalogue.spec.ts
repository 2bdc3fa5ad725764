/**
 * The catalogue: first start with the sample, search, delete a resource (its dataset too when
 * it was the last), rename and delete a dataset, replace a resource's data keeping its id; and
 * the read-only mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { action, importFile, writeProvinceFile } from './api-helpers';
import { ISTAT, expect, test } from './fixtures';

test.describe('first start', () => {
  test.use({ sample: true });

  test('shows the embedded sample resource, whose table opens', async ({ page, openUi }) => {
    await openUi('/en/');
    const row = page.getByTestId('resource-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Elenco comuni (nord-est)');
    await expect(row).toContainText('571');
    await expect(row).toContainText('26');
    await expect(row).toContainText('comuni-italiani-nord-est.csv');
    await expect(row).toContainText('windows-1252');
    await row.getByRole('link', { name: 'Elenco comuni (nord-est)', exact: true }).click();
    await expect(page.getByTestId('row-counts')).toContainText('571 rows');
    await expect(page.getByTestId('grid-row').first()).toContainText('Allein');
  });
});

test('search the catalogue and delete a resource: its dataset goes too when it was the last', async ({ page, deskstore, openUi }) => {
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await expect(page.getByTestId('dataset')).toHaveCount(1);
  await page.getByTestId('catalogue-search').fill('nothing-like-this');
  await expect(page.getByText('Nothing matches “nothing-like-this”.')).toBeVisible();
  await page.getByTestId('catalogue-search').fill('istat');
  await expect(page.getByTestId('dataset')).toHaveCount(1);
  await expect(page.getByTestId('resource-row')).toContainText('7,901');

  await page.getByRole('button', { name: 'Delete istat-elenco-comuni-italiani.csv' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this resource?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('resource-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete istat-elenco-comuni-italiani.csv' }).click();
  // the last resource of its dataset: deleting the dataset too is offered, and chosen
  await expect(dialog.getByLabel('Also delete the dataset “ISTAT comuni”, which would be left empty')).toBeChecked();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('dataset')).toHaveCount(0);
  await expect(page.getByText('Nothing matches “istat”.')).toBeVisible();
  expect((await action(deskstore, 'package_search')).count).toBe(0);

  // unticked, the empty dataset stays (in Italian)
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await page.goto(`${deskstore.url}/it/`);
  await page.getByRole('button', { name: 'Elimina istat-elenco-comuni-italiani.csv' }).click();
  const dialogIt = page.getByRole('dialog', { name: 'Eliminare questa risorsa?' });
  await dialogIt.getByLabel('Elimina anche il dataset «ISTAT comuni», che resterebbe vuoto').uncheck();
  await dialogIt.getByRole('button', { name: 'Elimina' }).click();
  await expect(page.getByTestId('resource-row')).toHaveCount(0);
  await expect(page.getByTestId('dataset')).toHaveCount(1);
});

test('rename and delete a dataset, with confirmation (en and it)', async ({ page, deskstore, openUi }) => {
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  const before = (await action(deskstore, 'package_search')).results[0]!;
  await page.getByRole('button', { name: 'Rename the dataset ISTAT comuni' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename this dataset' });
  await expect(rename).toContainText(`Its name in API calls stays ${before.name}`);
  await rename.getByLabel('Title').fill('   ');
  await expect(rename.getByRole('button', { name: 'Rename' })).toBeDisabled();
  await rename.getByLabel('Title').fill('Comuni d’Italia');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { name: 'Comuni d’Italia' })).toBeVisible();
  const after = (await action(deskstore, 'package_search')).results[0]!;
  expect(after).toMatchObject({ id: before.id, name: before.name, title: 'Comuni d’Italia' });

  await page.getByTestId('language-it').click();
  await page.getByRole('button', { name: 'Elimina il dataset Comuni d’Italia' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eliminare questo dataset?' });
  await expect(confirm).toContainText('«Comuni d’Italia» e la sua risorsa saranno eliminati');
  await confirm.getByRole('button', { name: 'Annulla' }).click();
  await expect(page.getByTestId('dataset')).toHaveCount(1);
  await page.getByRole('button', { name: 'Elimina il dataset Comuni d’Italia' }).click();
  await confirm.getByRole('button', { name: 'Elimina' }).click();
  await expect(page.getByTestId('dataset')).toHaveCount(0);
  expect((await action(deskstore, 'package_search')).count).toBe(0);
});

test("replace a resource's data keeping its id: same preview and progress, the old rows until the new are in", async ({
  page,
  deskstore,
  openUi,
}) => {
  test.setTimeout(360_000); // a 25 MB file loaded while the test watches every step
  const id = await importFile(deskstore, ISTAT, 'Dati');
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-replace-'));
  try {
    const file = join(dir, 'province.csv');
    await writeProvinceFile(file, 1);
    await openUi('/en/');
    await page.getByRole('link', { name: 'Replace the data of istat-elenco-comuni-italiani.csv with another file' }).click();
    await expect(page.getByRole('heading', { name: 'Replace the data', level: 1 })).toBeVisible();
    await expect(page.getByTestId('replace-target')).toContainText(id);
    await expect(page.getByTestId('replace-target')).toContainText('It has 7,901 rows now');
    await page.getByTestId('file-input').setInputFiles(file);
    await expect(page.getByTestId('preview-table')).toContainText('Abruzzo');
    // no dataset to choose: it stays where it is
    await expect(page.getByTestId('dataset-title')).toHaveCount(0);
    // other columns than the table's: said, and asked about, before anything is replaced
    await expect(page.getByTestId('column-changes')).toContainText('Codice Regione');
    await expect(page.getByTestId('start-import')).toBeDisabled();
    await page.getByTestId('accept-column-changes').check();
    await page.getByTestId('start-import').click();
    await expect(page).toHaveURL(new RegExp(`#/import/${id}`));
    await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeAttached();
    // while the new file loads, scripts read the old rows under the same id, then all the new ones: nothing in between
    const totals: number[] = [];
    for (let status = 'running'; status === 'running' || status === 'pending';) {
      totals.push((await action(deskstore, 'datastore_search', { resource_id: id, limit: 0 })).total!);
      status = (await action(deskstore, 'deskstore_import_status', { resource_id: id })).status;
    }
    expect(totals[0]).toBe(7901);
    expect(
      totals.every((total) => total === 7901 || total === 262_807),
      totals.join(),
    ).toBe(true);
    // a replacement ends on its report (what the new file's import did), then the table
    await expect(page.getByTestId('import-report')).toContainText('262,807', { timeout: 120_000 });
    await page.getByTestId('open-table').click();
    await expect(page).toHaveURL(new RegExp(`#/resource/${id}`));
    await expect(page.getByTestId('row-counts')).toContainText('262,807 rows');
    const shown = await action(deskstore, 'resource_show', { id });
    expect(shown).toMatchObject({ id, name: 'istat-elenco-comuni-italiani.csv' });
    expect((await action(deskstore, 'package_search')).results.flatMap((p) => p.resources)).toHaveLength(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without a token the UI is read-only until a valid token is pasted', async ({ page, deskstore }) => {
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await page.goto(`${deskstore.url}/en/`);
  await expect(page.getByTestId('mode-badge')).toHaveText('Read-only');
  await expect(page.getByRole('button', { name: 'Delete istat-elenco-comuni-italiani.csv' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Rename the dataset ISTAT comuni' })).toBeDisabled();
  await expect(page.getByTestId('resource-row')).toContainText('7,901');
  const field = page.getByRole('textbox', { name: 'API token' });
  await field.fill('not-the-token');
  await page.getByRole('button', { name: 'Use this token' }).click();
  await expect(page.getByText('This token is not accepted.', { exact: false })).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(deskstore.token);
  await page.getByRole('button', { name: 'Use this token' }).click();
  await expect(page.getByTestId('mode-badge')).toHaveText('Changes allowed');
  await expect(page.getByRole('button', { name: 'Delete istat-elenco-comuni-italiani.csv' })).toBeEnabled();
  // the token from the URL fragment is stored and taken out of the address bar
  await page.getByRole('button', { name: 'Forget the API token' }).click();
  await expect(page.getByTestId('mode-badge')).toHaveText('Read-only');
  await page.goto(`${deskstore.url}/en/#token=${deskstore.token}`);
  await expect(page.getByTestId('mode-badge')).toHaveText('Changes allowed');
  expect(page.url()).not.toContain(deskstore.token);
});
