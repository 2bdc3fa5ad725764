/**
 * The table's rough edges, each as a user meets it: Back undoes each change of search, filter
 * and sort, a link reproduces the view; blank cells as filter values; sorting by several
 * columns; focus back on the opening button when a panel closes and no ring on the heading;
 * numbers that read as data; the server's refusals in the user's language.
 */
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { action, importFile } from './api-helpers';
import { FIXTURES } from '../helpers/fixtures';
import { ISTAT, columnTexts, expect, test } from './fixtures';

const NAME = 'Denominazione in italiano';
const REGION = 'Denominazione Regione';
const OTHER_LANGUAGE = 'Denominazione altra lingua';

async function openTable(page: Page, url: string, id: string, locale = 'en'): Promise<void> {
  await page.goto(`${url}/${locale}/#/resource/${id}`);
  await expect(page.locator('[data-testid="grid-row"] [data-field="_id"]').first()).toHaveText('1');
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('table-search').fill(text);
  await page.getByTestId('table-search').press('Enter');
}

const counts = (page: Page) => page.getByTestId('row-counts');

test('Back undoes each change of search, filter and sort; a copied link opens the same view', async ({
  page,
  context,
  deskstore,
  openUi,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: deskstore.url });
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await openTable(page, deskstore.url, id);
  // a search refined in steps is one history step
  await search(page, 'san');
  await expect(counts(page)).toContainText('of 7,901 rows match');
  await search(page, 'san marco');
  const searched = (await action(deskstore, 'datastore_search', { resource_id: id, limit: 0, deskstore_q: 'san marco' })).total;
  await expect(counts(page)).toContainText(`${searched} of 7,901 rows match`);
  await page.locator(`[data-field="${REGION}"] [data-testid="filter-button"]`).click();
  await page
    .getByTestId('filter-panel')
    .getByLabel(/^Calabria/)
    .check();
  const inCalabria = (
    await action(deskstore, 'datastore_search', { resource_id: id, limit: 0, deskstore_q: 'san marco', filters: { [REGION]: 'Calabria' } })
  ).total;
  const filtered = new RegExp(`^${inCalabria} of 7,901 rows? match`);
  await expect(counts(page)).toContainText(filtered);
  await page.locator(`[data-field="${NAME}"] [data-testid="sort-button"]`).click();
  await expect(page.locator(`[role="columnheader"][data-field="${NAME}"]`)).toHaveAttribute('aria-sort', 'ascending');

  await page.getByTestId('copy-link').click();
  const link = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(link).toBe(page.url());
  expect(link).not.toContain(deskstore.token);

  await page.goBack(); // the sort
  await expect(page.locator(`[role="columnheader"][data-field="${NAME}"]`)).not.toHaveAttribute('aria-sort');
  await expect(counts(page)).toContainText(filtered);
  await page.goBack(); // the filter
  await expect(counts(page)).toContainText(`${searched} of 7,901 rows match`);
  await expect(page.getByTestId('table-search')).toHaveValue('san marco');
  await page.goBack(); // the search
  await expect(counts(page)).not.toContainText('match');
  await expect(page.getByTestId('table-search')).toHaveValue('');
  await expect(page).toHaveURL(new RegExp(`#/resource/${id}$`));
  await page.goForward();
  await expect(page.getByTestId('table-search')).toHaveValue('san marco');

  // the link, opened afresh, shows the same rows in the same order
  const fresh = await page.context().newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('row-counts')).toContainText(filtered);
  await expect(fresh.getByTestId('table-search')).toHaveValue('san marco');
  await expect(fresh.locator(`[role="columnheader"][data-field="${NAME}"]`)).toHaveAttribute('aria-sort', 'ascending');
  await fresh.close();
});

test('blank cells as filter values: (empty) and (not empty), also in the API panel (en and it)', async ({ page, deskstore, openUi }) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  const total = async (filters: Record<string, unknown>) =>
    (await action(deskstore, 'datastore_search', { resource_id: id, limit: 0, filters })).total!;
  const empty = await total({ [OTHER_LANGUAGE]: { deskstore_empty: true } });
  const notEmpty = await total({ [OTHER_LANGUAGE]: { deskstore_empty: false } });
  expect(empty + notEmpty).toBe(7901);
  expect(notEmpty).toBeGreaterThan(100);

  await openUi('/en/');
  await openTable(page, deskstore.url, id);
  await page.locator(`[data-field="${OTHER_LANGUAGE}"] [data-testid="filter-button"]`).click();
  const panel = page.getByTestId('filter-panel');
  await expect(panel.getByLabel(/^\(empty\)/)).toBeEnabled();
  await panel.getByTestId('filter-empty').check();
  await expect(counts(page)).toContainText(`${empty.toLocaleString('en')} of 7,901 rows match`);
  await expect(page.getByTestId('filter-chips')).toContainText(`${OTHER_LANGUAGE}: (empty)`);
  await panel.getByTestId('filter-not-empty').check();
  await expect(panel.getByTestId('filter-empty')).not.toBeChecked();
  await expect(counts(page)).toContainText(`${notEmpty.toLocaleString('en')} of 7,901 rows match`);
  // a value beside "(not empty)" would say nothing: choosing one replaces it
  const firstValue = panel.locator('.facet:not(.facet-blank) input').first();
  await firstValue.check();
  await expect(panel.getByTestId('filter-not-empty')).not.toBeChecked();
  await firstValue.uncheck();
  await panel.getByTestId('filter-not-empty').check();

  await page.getByTestId('open-api').click();
  const url = new URL(await page.getByTestId('api-url').innerText());
  expect(JSON.parse(url.searchParams.get('filters')!)).toEqual({ [OTHER_LANGUAGE]: { deskstore_empty: false } });
  expect(((await (await fetch(url)).json()) as { result: { total: number } }).result.total).toBe(notEmpty);
  await expect(page.getByTestId('api-extensions')).toContainText('deskstore_empty');

  await page.getByTestId('language-it').click();
  await expect(page.getByTestId('filter-chips')).toContainText(`${OTHER_LANGUAGE}: (non vuoto)`);
});

test('sort by several columns: Shift-click adds a column', async ({ page, deskstore, openUi }) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await openTable(page, deskstore.url, id);
  const region = page.locator(`[role="columnheader"][data-field="${REGION}"]`);
  const name = page.locator(`[role="columnheader"][data-field="${NAME}"]`);
  await region.getByTestId('sort-button').click();
  await region.getByTestId('sort-button').click(); // descending: Veneto first
  await name.getByTestId('sort-button').click({ modifiers: ['Shift'] });
  await expect(region).toHaveAttribute('aria-sort', 'descending');
  await expect(region).toHaveAttribute('data-sort-rank', '1');
  await expect(name).toHaveAttribute('data-sort-rank', '2');
  await expect(name.getByTestId('sort-button')).toHaveAccessibleName(`Sort by ${NAME}, sort key 2, ascending`);
  const regions = await columnTexts(page, REGION, 5);
  const names = await columnTexts(page, NAME, 5);
  expect(new Set(regions)).toEqual(new Set(['Veneto']));
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'it')));
  const expected = await action(deskstore, 'datastore_search', { resource_id: id, limit: 5, sort: `"${REGION}" desc, "${NAME}" asc` });
  expect(names).toEqual(expected.records.map((r) => r[NAME]));
  await page.getByTestId('open-api').click();
  expect(new URL(await page.getByTestId('api-url').innerText()).searchParams.get('sort')).toBe(`"${REGION}" desc,"${NAME}" asc`);

  // Shift-click again turns the second column around; a plain click sorts by that column alone
  await name.getByTestId('sort-button').click({ modifiers: ['Shift'] });
  await expect(name).toHaveAttribute('data-sort-rank', '2');
  await expect(name.getByTestId('sort-button')).toHaveAccessibleName(`Sort by ${NAME}, sort key 2, descending`);
  await name.getByTestId('sort-button').click();
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  await expect(region).not.toHaveAttribute('data-sort-rank');
});

test('a closed side panel gives focus back to its button; no ring around the heading after navigation', async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  // navigating with the keyboard: the heading takes focus, without a focus ring
  await page.getByRole('link', { name: `Open the table of istat-elenco-comuni-italiani.csv` }).focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1, name: 'istat-elenco-comuni-italiani.csv' });
  await expect(heading).toBeFocused();
  expect(
    await heading.evaluate(
      (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(el).outlineStyle,
    ),
  ).toBe('none');
  await expect(page).toHaveURL(new RegExp(`#/resource/${id}`));

  for (const [button, panel] of [
    ['open-api', 'api-panel'],
    ['open-export', 'export-panel'],
    ['open-columns', 'columns-panel'],
  ] as const) {
    await page.getByTestId(button).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(panel)).toBeVisible();
    await page.getByTestId(panel).getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(panel)).toHaveCount(0);
    await expect(page.getByTestId(button)).toBeFocused();
  }
  // the filter panel (its search box has focus) and its × button
  const filterButton = page.locator(`[data-field="${REGION}"] [data-testid="filter-button"]`);
  await filterButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('facet-search')).toBeFocused();
  await page.getByTestId('filter-panel').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('filter-panel')).toHaveCount(0);
  await expect(filterButton).toBeFocused();
});

test("numbers: ids and years without separators, a column's decimals kept, long fractions rounded with the whole value at hand (it)", async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, join(FIXTURES, 'ui', 'numbers.csv'), 'Numeri');
  await openUi('/it/');
  await openTable(page, deskstore.url, id, 'it');
  const cell = (field: string) => page.locator(`[data-testid="grid-row"] [data-field="${field}"]`).first();
  await expect(cell('geonameid')).toHaveText('3173435');
  await expect(cell('anno')).toHaveText('2021');
  await expect(cell('abitanti')).toHaveText('1.371.498');
  await expect(cell('prezzo')).toHaveText('2.199,50');
  await expect(cell('lat')).toHaveText('45,464271');
  await expect(cell('lat')).toHaveAttribute('title', '45,464271234567');
  await expect(page.locator('[data-testid="grid-row"] [data-field="prezzo"]').nth(3)).toHaveText('3,00');
  await page.getByTestId('language-en').click();
  await expect(cell('prezzo')).toHaveText('2,199.50');
  await expect(cell('geonameid')).toHaveText('3173435');
});

test("a refusal from the server in the user's language, CKAN's English under Technical details (it)", async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/it/');
  await openTable(page, deskstore.url, id, 'it');
  const words = Array.from({ length: 40 }, (_, i) => `parola${String.fromCharCode(97 + (i % 26))}${i}`).join(' ');
  await search(page, words);
  const notice = page.getByTestId('error-notice');
  await expect(notice).toContainText('La ricerca ha troppe parole: al massimo 32 parole diverse (questa ne ha 40).');
  await notice.getByText('Dettagli tecnici').click();
  await expect(notice).toContainText('deskstore_q: At most 32 different words (this text has 40)');
  await expect(notice).toContainText('search.typeahead.too_many_words');
  await page.getByTestId('language-en').click();
  await expect(notice).toContainText('The search has too many words: at most 32 different words (this one has 40).');
});
