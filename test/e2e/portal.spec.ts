/**
 * A resource that came from a CKAN portal: the API panel offers the same call against the
 * portal once its address is given (the resource URL alone is not the portal's API root).
 */
import { action } from './api-helpers';
import { expect, test } from './fixtures';

const PORTAL_RESOURCE = '0a1b2c3d-0000-4000-8000-123456789abc';

test('the API panel builds the same call for the original portal', async ({ page, deskstore, openUi }) => {
  const pkg = await action(deskstore, 'package_create', { name: 'comuni-portale', title: 'Comuni dal portale' });
  const resource = await action(deskstore, 'resource_create', {
    package_id: pkg.id,
    name: 'Comuni (portale)',
    format: 'JSON',
    url: `https://dati.example.it/opendata/dataset/comuni/resource/${PORTAL_RESOURCE}/download/comuni.json`,
  });
  await action(deskstore, 'datastore_create', {
    resource_id: resource.id,
    force: true,
    fields: [
      { id: 'nome', type: 'text' },
      { id: 'abitanti', type: 'int4' },
    ],
    records: [
      { nome: 'Roma', abitanti: 2873000 },
      { nome: 'Città di Castello', abitanti: 39000 },
    ],
  });
  await openUi('/en/');
  await page.goto(`${deskstore.url}/en/#/resource/${resource.id}`);
  await expect(page.getByTestId('row-counts')).toContainText('2 rows');
  await page.getByTestId('table-search').fill('città');
  await page.getByTestId('table-search').press('Enter');
  await expect(page.getByTestId('row-counts')).toContainText('1 of 2 rows match');
  await page.getByTestId('open-api').click();
  const panel = page.getByTestId('api-panel');
  await expect(panel.getByRole('heading', { name: 'The same call on the original portal' })).toBeVisible();
  await expect(panel.getByText("Type the portal's address", { exact: false })).toBeVisible();
  const base = panel.getByLabel('Portal address (site root)');
  await expect(base).toHaveAttribute('placeholder', 'https://dati.example.it/opendata');
  await expect(panel.getByLabel('Resource id on the portal')).toHaveValue(PORTAL_RESOURCE);
  await base.fill('https://dati.example.it/opendata/');
  // the portal gets the words as CKAN's q (it has no deskstore_q)
  const portalUrl = `https://dati.example.it/opendata/api/3/action/datastore_search?resource_id=${PORTAL_RESOURCE}&q=citt%C3%A0&limit=100&offset=0`;
  await expect(panel.locator('.portal .code-url')).toHaveText(portalUrl);
  // the portal's snippets carry no local token
  await expect(panel.locator('.portal [data-testid="snippet-code"]')).toContainText(portalUrl);
  await expect(panel.locator('.portal [data-testid="snippet-code"]')).not.toContainText(deskstore.token);
  await expect(panel).toContainText('For the portal the search words go in q');
});
