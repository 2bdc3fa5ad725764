/** The catalogue: first start with the sample, search, delete; and the read-only mode. */
import { importFile } from './api-helpers';
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

test('search the catalogue and delete a resource', async ({ page, deskstore, openUi }) => {
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
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('resource-row')).toHaveCount(0);
  await expect(page.getByText('This dataset has no resources.')).toBeVisible();
});

test('without a token the UI is read-only until a valid token is pasted', async ({ page, deskstore }) => {
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await page.goto(`${deskstore.url}/en/`);
  await expect(page.getByTestId('mode-badge')).toHaveText('Read-only');
  await expect(page.getByRole('button', { name: /^Delete / })).toBeDisabled();
  await expect(page.getByTestId('resource-row')).toContainText('7,901');
  const field = page.getByRole('textbox', { name: 'API token' });
  await field.fill('not-the-token');
  await page.getByRole('button', { name: 'Use this token' }).click();
  await expect(page.getByText('This token is not accepted.', { exact: false })).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(deskstore.token);
  await page.getByRole('button', { name: 'Use this token' }).click();
  await expect(page.getByTestId('mode-badge')).toHaveText('Changes allowed');
  await expect(page.getByRole('button', { name: /^Delete / })).toBeEnabled();
  // the token from the URL fragment is stored and taken out of the address bar
  await page.getByRole('button', { name: 'Forget the API token' }).click();
  await expect(page.getByTestId('mode-badge')).toHaveText('Read-only');
  await page.goto(`${deskstore.url}/en/#token=${deskstore.token}`);
  await expect(page.getByTestId('mode-badge')).toHaveText('Changes allowed');
  expect(page.url()).not.toContain(deskstore.token);
});
