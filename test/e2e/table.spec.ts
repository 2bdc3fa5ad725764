/**
 * The table view of the ISTAT list (imported through the API: the import UI has its own
 * test): search as you type (deskstore_q), a value filter, sorting, Italian formatting, the API
 * panel's URL against the table, and the CSV/JSON export against the filtered rows.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { action, importFile } from './api-helpers';
import { ISTAT, columnTexts, expect, test } from './fixtures';

const NAME = 'Denominazione in italiano';
const FULL_NAME = 'Denominazione (Italiana e straniera)';
const REGION = 'Denominazione Regione';
const CODE = 'Codice Comune formato numerico';

interface SearchResult {
  total: number;
  records: Record<string, unknown>[];
}

async function openIstat(page: Page, url: string, token: string, locale = 'en'): Promise<string> {
  const response = await fetch(`${url}/api/3/action/package_search`);
  const pkg = ((await response.json()) as { result: { results: { resources: { id: string }[] }[] } }).result.results[0]!;
  const id = pkg.resources[0]!.id;
  await page.goto(`${url}/${locale}/#token=${token}`);
  await page.goto(`${url}/${locale}/#/resource/${id}`);
  await expect(page.locator('[data-testid="grid-row"] [data-field="_id"]').first()).toHaveText('1');
  return id;
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('table-search').fill(text);
  await page.getByTestId('table-search').press('Enter');
}

test.beforeEach(async ({ deskstore }) => {
  await importFile(deskstore, ISTAT, 'ISTAT comuni');
});

test('search as you type: accents optional, word beginnings, names with a slash, never less than q', async ({ page, deskstore }) => {
  const id = await openIstat(page, deskstore.url, deskstore.token);
  const count = async (param: 'q' | 'deskstore_q', text: string) =>
    (await action(deskstore, 'datastore_search', { resource_id: id, [param]: text, limit: 0 })).total!;
  await search(page, 'Števerjan');
  await expect(page.getByTestId('row-counts')).toContainText('1 of 7,901 rows match');
  await expect(page.getByTestId('grid-row')).toHaveCount(1);
  await expect(page.getByTestId('grid-row').first()).toContainText('San Floriano del Collio-Števerjan');
  await expect(page).toHaveURL(/q=%C5%A0teverjan/);

  // accents optional: steverjan finds Števerjan, citta finds Città (and Cittadella, a word starting with it)
  await search(page, 'steverjan');
  await expect(page.getByTestId('row-counts')).toContainText('1 of 7,901 rows match');
  await search(page, 'citta');
  await expect(page.getByTestId('row-counts')).toContainText(`${await count('deskstore_q', 'citta')} of 7,901 rows match`);
  const names = await columnTexts(page, NAME, 7);
  expect(names).toEqual(expect.arrayContaining(['Città della Pieve', 'Città di Castello', "Città Sant'Angelo", 'Cittadella']));
  expect(await count('q', 'Città')).toBe(3);

  // both halves of a name with a slash, which q finds by neither (PostgreSQL reads it as one token)
  await search(page, 'Bozen');
  await expect(page.getByTestId('grid-row').first()).toContainText('Bolzano/Bozen');
  expect(await count('q', 'Bozen')).toBeLessThan(await count('deskstore_q', 'Bozen'));

  // several words: all must match, each as a word beginning
  await search(page, 'città castel');
  await expect(page.getByTestId('row-counts')).toContainText('1 of 7,901 rows match');
  await expect(page.getByTestId('grid-row').first()).toContainText('Città di Castello');
});

test('filter by a column value, then sort', async ({ page, deskstore }) => {
  await openIstat(page, deskstore.url, deskstore.token);
  await page.locator(`[data-field="${REGION}"] [data-testid="filter-button"]`).click();
  const panel = page.getByTestId('filter-panel');
  await panel.getByTestId('facet-search').fill('mol');
  await expect(panel.getByLabel(/^Molise/)).toBeVisible();
  await expect(panel.getByLabel(/^Lombardia/)).toHaveCount(0);
  await expect(panel.getByText('136', { exact: true })).toBeVisible();
  await panel.getByLabel(/^Molise/).check();
  await expect(page.getByTestId('row-counts')).toContainText('136 of 7,901 rows match');
  expect(new Set(await columnTexts(page, REGION, 100))).toEqual(new Set(['Molise']));
  await expect(page.getByTestId('filter-chips')).toContainText('Molise');

  // sort by name, descending on the second click
  const sortName = page.locator(`[data-field="${NAME}"] [data-testid="sort-button"]`);
  await sortName.click();
  await expect(page.locator(`[role="columnheader"][data-field="${NAME}"]`)).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await columnTexts(page, NAME, 136);
  expect(ascending[0]).toBe('Acquaviva Collecroce');
  expect([...ascending].sort((a, b) => a.localeCompare(b))).toEqual(ascending.slice().sort((a, b) => a.localeCompare(b)));
  await sortName.click();
  await expect(page.locator(`[role="columnheader"][data-field="${NAME}"]`)).toHaveAttribute('aria-sort', 'descending');
  await expect(page.locator(`[data-testid="grid-row"] [data-field="${NAME}"]`).first()).toHaveText('Vinchiaturo');

  // the chip removes the filter
  await page.getByRole('button', { name: `Remove the filter on ${REGION}` }).click();
  await expect(page.getByTestId('row-counts')).toContainText('7,901 rows');
  await expect(page.getByTestId('row-counts')).not.toContainText('match');
});

test('the API panel URL returns the rows the table shows', async ({ page, context, deskstore }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: deskstore.url });
  await openIstat(page, deskstore.url, deskstore.token);
  await search(page, 'san');
  await expect(page.getByTestId('row-counts')).toContainText('match');
  await page.locator(`[data-field="${REGION}"] [data-testid="filter-button"]`).click();
  await page
    .getByTestId('filter-panel')
    .getByLabel(/^Toscana/)
    .check();
  await page.locator(`[data-field="${NAME}"] [data-testid="sort-button"]`).click();
  await expect(page.getByTestId('row-counts')).toContainText(/\d+ of 7,901 rows match/);
  await page.getByTestId('open-api').click();
  await page.getByTestId('copy-api-url').click();
  await expect(page.getByTestId('api-panel')).toContainText('Copied');
  const copied = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(copied).toBe(await page.getByTestId('api-url').innerText());
  const url = new URL(copied);
  expect(url.searchParams.get('deskstore_q')).toBe('san');
  expect(url.searchParams.get('q')).toBeNull();
  expect(JSON.parse(url.searchParams.get('filters')!)).toEqual({ [REGION]: 'Toscana' });
  expect(url.searchParams.get('sort')).toBe(`"${NAME}" asc`);

  const response = await fetch(copied, { headers: { Authorization: deskstore.token } });
  const body = (await response.json()) as { success: boolean; result: SearchResult };
  expect(body.success).toBe(true);
  const count = await page.getByTestId('row-counts').innerText();
  expect(count).toContain(`${body.result.total} of 7,901`);
  const shown = body.result.records.length;
  expect(shown).toBeGreaterThan(5);
  const names = await columnTexts(page, NAME, shown);
  const full = await columnTexts(page, FULL_NAME, shown);
  const ids = await columnTexts(page, '_id', shown);
  expect(names).toEqual(body.result.records.map((r) => r[NAME]));
  expect(full).toEqual(body.result.records.map((r) => r[FULL_NAME]));
  expect(ids.map((text) => Number(text.replace(/\D/g, '')))).toEqual(body.result.records.map((r) => r._id));

  // the snippets carry the same call, and the write token only when asked (reads need none)
  await page.getByTestId('snippet-tab-curl').click();
  await expect(page.getByTestId('snippet-code')).toContainText(copied);
  const includeToken = page.getByLabel('Include my API token (reads work without it)');
  await expect(includeToken).not.toBeChecked();
  await expect(page.getByTestId('snippet-code')).not.toContainText(deskstore.token);
  await includeToken.check();
  await expect(page.getByTestId('snippet-code')).toContainText(`Authorization: ${deskstore.token}`);
  await includeToken.uncheck();
  await expect(page.getByTestId('api-extensions')).toContainText('deskstore_q');
  await page.getByTestId('snippet-tab-ckanapi').click();
  await expect(page.getByTestId('snippet-code')).toContainText(`filters={"${REGION}": "Toscana"}`);
  await expect(page.getByTestId('snippet-code')).toContainText('deskstore_q="san"');
  await expect(page.getByTestId('snippet-code')).not.toContainText('apikey');
  await page.getByTestId('snippet-tab-javascript').click();
  await expect(page.getByTestId('snippet-code')).toContainText('await fetch(');
});

test('export CSV (with and without BOM) and JSON: exactly the filtered rows', async ({ page, deskstore }) => {
  const id = await openIstat(page, deskstore.url, deskstore.token);
  await search(page, 'Città');
  await page.locator(`[data-field="${REGION}"] [data-testid="filter-button"]`).click();
  await page
    .getByTestId('filter-panel')
    .getByLabel(/^Umbria/)
    .check();
  await expect(page.getByTestId('row-counts')).toContainText('2 of 7,901 rows match');
  // hide all but two columns: the export follows
  await page.getByTestId('open-columns').click();
  await page.getByTestId('columns-panel').getByRole('button', { name: 'Hide all' }).click();
  await page
    .getByTestId('columns-panel')
    .getByLabel(new RegExp(`^${NAME.replace(/[()]/g, '\\$&')}`))
    .check();
  await page
    .getByTestId('columns-panel')
    .getByLabel(/^Codice Comune formato numerico/)
    .check();
  await expect(page.getByTestId('row-counts')).toContainText('2 of 26 columns shown');
  const grid = await columnTexts(page, NAME, 2);
  expect(grid).toEqual(['Città della Pieve', 'Città di Castello']);

  await page.getByTestId('open-export').click();
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csv = await readFile(await csvDownload.path(), 'utf8');
  expect(csv.charCodeAt(0)).not.toBe(0xfeff);
  const lines = csv.trim().split(/\r?\n/);
  // the columns in table order, the rows in table order
  expect(lines[0]).toBe(`_id,${NAME},${CODE}`);
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(grid);

  await page.getByTestId('export-bom').check();
  const [bomDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const bom = await readFile(await bomDownload.path());
  expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bom.subarray(3).toString('utf8')).toBe(csv);

  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const json = JSON.parse(await readFile(await jsonDownload.path(), 'utf8')) as { fields: { id: string }[]; records: unknown[][] };
  expect(json.records).toHaveLength(2);
  const jsonNameAt = json.fields.findIndex((f) => f.id === NAME);
  expect(json.records.map((r) => r[jsonNameAt])).toEqual(grid);

  // and the dump agrees with datastore_search on the same query
  const expected = await action(deskstore, 'datastore_search', { resource_id: id, deskstore_q: 'Città', filters: { [REGION]: 'Umbria' } });
  expect(expected.records.map((r) => r[NAME])).toEqual(grid);
});
