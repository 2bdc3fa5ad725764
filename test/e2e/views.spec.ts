/**
 * Issue 15's views on a real file (the DPC province file, 262,807 rows with coordinates,
 * timestamps, numbers and text), in English and Italian: profile, conditions, chart, map,
 * SQL screen and row page, each checked against the server's own answers and photographed
 * into test-results/screenshots/ (docs/screenshots/ holds the chosen ones).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { action, importFile, writeProvinceFile } from './api-helpers';
import { expect, test } from './fixtures';
import type { DeskstoreServer } from './server';

async function importProvinces(deskstore: DeskstoreServer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-views-'));
  try {
    const file = join(dir, 'dpc-covid19-ita-province.csv');
    await writeProvinceFile(file, 1);
    return await importFile(deskstore, file, 'DPC COVID-19 province');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const WORDS = {
  en: {
    profile: 'Profile',
    conditions: 'Conditions',
    match: 'of 262,807 rows match',
    deskstoreOnly: 'Deskstore only',
    rows: 'Rows',
    chart: 'Chart',
    map: 'Map',
    table: 'Table',
    sum: 'Sum',
    syntax: 'The query has a mistake near',
    notAllowed: 'CKAN does not let a query call coalesce',
    functions: 'Which functions can I call?',
  },
  it: {
    profile: 'Profilo',
    conditions: 'Condizioni',
    match: 'righe su 262.807 corrispondono',
    deskstoreOnly: 'Solo Deskstore',
    rows: 'Righe',
    chart: 'Grafico',
    map: 'Mappa',
    table: 'Tabella',
    sum: 'Somma',
    syntax: "L'interrogazione ha un errore vicino a",
    notAllowed: 'CKAN non permette a un’interrogazione di chiamare coalesce',
    functions: 'Quali funzioni posso chiamare?',
  },
} as const;

async function openTable(page: Page, deskstore: DeskstoreServer, locale: string, id: string, query = ''): Promise<void> {
  await page.goto(`${deskstore.url}/${locale}/#/resource/${id}${query}`);
  await expect(page.getByTestId('row-counts')).toBeVisible();
}

for (const locale of ['en', 'it'] as const) {
  const w = WORDS[locale];
  test(`profile, conditions, chart, map, SQL and row views (${locale})`, async ({ page, deskstore, openUi, shot }) => {
    const id = await importProvinces(deskstore);
    await openUi(`/${locale}/`);
    await openTable(page, deskstore, locale, id);

    // ---- profile of a number column over all rows, then over a filter ----
    await page.getByTestId('open-profile').click();
    await page.getByTestId('profile-column').selectOption('totale_casi');
    const server = await action(deskstore, 'deskstore_profile', { resource_id: id, fields: 'totale_casi' });
    const stats = page.getByTestId('profile-stats');
    await expect(stats).toContainText(server.fields[0]!.count.toLocaleString(locale === 'it' ? 'it-IT' : 'en-US'));
    await expect(page.getByTestId('profile-histogram').locator('tr')).not.toHaveCount(0);
    await expect(page.getByTestId('profile-top').locator('tr').first()).toBeVisible();
    await shot(`${locale}-profile`);
    await page.getByTestId('profile-column').selectOption('data');
    await expect(page.getByTestId('profile-histogram')).toContainText(locale === 'it' ? '2021' : '2021');

    // ---- conditions: a 2.12 operator (no badge) and a Deskstore one (badge), both in the API call ----
    await page.getByTestId('open-conditions').click();
    await page.getByTestId('add-condition').click();
    await page.getByTestId('condition-field').selectOption('totale_casi');
    await page.getByTestId('condition-op').selectOption('gte');
    await page.getByTestId('condition-value').fill('100000');
    await expect(page.getByTestId('deskstore-only')).toHaveCount(0);
    await page.getByTestId('add-condition').click();
    await page.getByTestId('condition-field').nth(1).selectOption('denominazione_regione');
    await page.getByTestId('condition-op').nth(1).selectOption('ne');
    await page.getByTestId('condition-value').nth(1).fill('Lombardia');
    await expect(page.getByTestId('deskstore-only')).toHaveCount(1);
    const expected = await action(deskstore, 'datastore_search', {
      resource_id: id,
      limit: 0,
      filters: { totale_casi: { gte: '100000' }, denominazione_regione: { deskstore_ne: 'Lombardia' } },
    });
    await expect(page.getByTestId('row-counts')).toContainText(expected.total!.toLocaleString(locale === 'it' ? 'it-IT' : 'en-US'));
    await expect(page.getByTestId('row-counts')).toContainText(w.match);
    await expect(page.getByTestId('condition-chips').locator('li')).toHaveCount(2);
    await shot(`${locale}-conditions`);
    await page.getByTestId('open-api').click();
    await expect(page.getByTestId('api-url')).toContainText('deskstore_ne');
    await expect(page.getByTestId('api-url')).toContainText('gte');
    await page.getByTestId('open-api').click();

    // ---- chart: sum of cases by region over the same rows, its SQL gives the same table ----
    await page.getByTestId('view-chart').click();
    await page.getByTestId('chart-group').selectOption('denominazione_regione');
    await page.getByTestId('chart-metric').selectOption('sum');
    await page.getByTestId('chart-value').selectOption('totale_casi');
    await expect(page.getByTestId('chart-sql')).toContainText('sum("totale_casi")');
    await expect(page.getByTestId('chart').locator('svg').first()).toBeVisible();
    const sql = await page.getByTestId('chart-sql').innerText();
    const viaSql = await action(deskstore, 'datastore_search_sql', { sql });
    const firstRegion = String(Object.values(viaSql.records[0])[0]);
    await expect(page.getByTestId('chart-table').locator('tbody tr').first()).toContainText(firstRegion);
    await expect(page.getByTestId('chart-table').locator('tbody tr')).toHaveCount(viaSql.records.length);
    for (const [button, extension] of [
      ['chart-csv', 'csv'],
      ['chart-svg', 'svg'],
      ['chart-png', 'png'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.getByTestId(button).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`\\.${extension}$`));
      const bytes = await readFile(await file.path());
      if (extension === 'png') expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
      if (extension === 'svg') expect(bytes.toString('utf8')).toContain('<svg');
      if (extension === 'csv') expect(bytes.toString('utf8').split('\r\n')[1]).toContain(firstRegion);
    }
    await page.getByTestId('chart-view').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 0;
    });
    await shot(`${locale}-chart`);
    // dates by month: a line
    await page.getByTestId('chart-group').selectOption('data');
    await page.getByTestId('chart-bucket').selectOption('month');
    await expect(page.getByTestId('chart-sql')).toContainText('substr("data"::text, 1, 7)');
    await expect(page.getByTestId('chart').locator('svg [aria-label="line"] path').first()).toBeVisible();
    await page.getByTestId('chart-view').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 0;
    });
    await shot(`${locale}-chart-line`);

    // ---- map: the same rows, binned; a bin zooms in, a point opens its row ----
    await page.getByTestId('view-map').click();
    await expect(page.getByTestId('map-status')).toContainText(expected.total!.toLocaleString(locale === 'it' ? 'it-IT' : 'en-US'));
    await expect(page.getByTestId('map').locator('svg').first()).toBeVisible();
    await page.getByTestId('map-color').selectOption('denominazione_regione');
    await expect(page.getByTestId('map').locator('svg')).not.toHaveCount(0);
    await shot(`${locale}-map`);
    await page.locator('.map-list summary').click();
    await page.getByTestId('map-list').getByRole('button').first().click();
    await expect(page.getByTestId('map-reset')).toBeVisible();

    // ---- the table again: Enter on a cell opens its row, with its own URL ----
    await page.getByTestId('view-table').click();
    await page.getByTestId('open-conditions').click();
    const grid = page.getByTestId('data-grid');
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const activeId = await page.locator('[data-testid="grid-row"] .grid-cell.active').first().getAttribute('id');
    expect(activeId).toBeTruthy();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('row-page')).toBeVisible();
    await expect(page).toHaveURL(/#\/resource\/[^/]+\/row\/\d+\?/);
    await expect(page.getByTestId('record').locator('[data-field="denominazione_provincia"] dd')).not.toBeEmpty();
    await shot(`${locale}-row`);
    await page.reload();
    await expect(page.getByTestId('row-page')).toBeVisible();
    await page.getByTestId('row-back').click();
    await expect(page.getByTestId('condition-chips').locator('li')).toHaveCount(2);

    // ---- SQL screen: an example, then an error worded in the user's language ----
    await page.getByTestId('open-sql').click();
    await page.getByTestId('sql-example-count').click();
    await expect(page.getByTestId('sql-status')).toContainText(locale === 'it' ? '1 riga' : '1 row');
    await page.getByTestId('sql-example-all').click();
    await expect(page.getByTestId('sql-status')).toContainText('100');
    await expect(page.getByTestId('sql-page').getByTestId('grid-row').first()).toBeVisible();
    await expect(page).toHaveURL(/sql=SELECT/);
    await shot(`${locale}-sql`);
    await page.getByTestId('sql-editor').fill('SELECT FROM WHERE');
    await page.getByTestId('sql-run').click();
    await expect(page.getByText(w.syntax)).toBeVisible();
    // A call CKAN refuses is refused here too, and the screen says which ones and why.
    await page.getByTestId('sql-editor').fill('SELECT coalesce(1, 2)');
    await page.getByTestId('sql-run').click();
    await expect(page.getByText(w.notAllowed)).toBeVisible();
    await page.getByTestId('sql-functions').getByText(w.functions).click();
    await expect(page.getByTestId('sql-functions')).toContainText('CAST(… AS …)');
    await expect(page.getByTestId('sql-functions')).toContainText('string_agg');
  });
}
