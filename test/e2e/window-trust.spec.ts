/**
 * Issue 22: the window must not mislead. Each test is one item of the issue, in English and
 * Italian where words or number formats are involved, checked against the server's own
 * answers; the screens the README shows are photographed into test-results/screenshots/.
 */
import type { Page } from '@playwright/test';
import { dataFile, fixtureFile } from '../helpers/fixtures';
import { action, importFile } from './api-helpers';
import { ISTAT, expect, test } from './fixtures';
import { startServer, type DeskstoreServer } from './server';

const PREZZI = fixtureFile('ui', 'prezzi-carburanti.csv');
const REGISTRY = fixtureFile('messy', 'registry-export.csv');
const NUMBERS = fixtureFile('ui', 'numbers.csv');
const WORKBOOK = fixtureFile('messy', 'comuni.xlsx');

type Locale = 'en' | 'it';
const LOCALES: readonly Locale[] = ['en', 'it'];
const tag = (locale: Locale) => (locale === 'it' ? 'it-IT' : 'en-US');

async function openTable(page: Page, deskstore: DeskstoreServer, locale: Locale, id: string, query = ''): Promise<void> {
  await page.goto(`${deskstore.url}/${locale}/#/resource/${id}${query}`);
  await expect(page.getByTestId('row-counts')).toBeVisible();
  if (!query.includes('view=')) await expect(page.getByTestId('grid-row').first()).toBeVisible();
}

async function total(deskstore: DeskstoreServer, id: string, filters: Record<string, unknown>): Promise<number> {
  return (await action(deskstore, 'datastore_search', { resource_id: id, limit: 0, filters })).total ?? -1;
}

// ---- 1. numbers typed in the UI's language -----------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`1. numbers are typed as the UI's language writes them; the other decimal sign is refused visibly (${locale})`, async ({
    page,
    deskstore,
    openUi,
    shot,
  }) => {
    const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
    await openUi(`/${locale}/`);
    await openTable(page, deskstore, locale, id);
    await page.getByTestId('open-conditions').click();
    await page.getByTestId('add-condition').click();
    await page.getByTestId('condition-field').selectOption('prezzo');
    await page.getByTestId('condition-op').selectOption('between');
    await page.getByTestId('condition-value').fill(it ? '1,9' : '1.9');
    await page.getByTestId('condition-value2').fill(it ? '2,1' : '2.1');
    const between = await total(deskstore, id, { prezzo: { gte: '1.9', lte: '2.1' } });
    expect(between).toBe(16);
    await expect(page.getByTestId('row-counts')).toContainText(it ? '16 righe su 200 corrispondono' : '16 of 200 rows match');
    await expect(page.getByTestId('condition-chips')).toContainText(it ? 'prezzo tra 1,9 – 2,1' : 'prezzo between 1.9 – 2.1');
    await shot(`${locale}-number-typed`);

    // the other language's decimal sign is not read as a thousands separator: refused, nothing applied
    await page.getByTestId('condition-value').fill(it ? '1.9' : '1,9');
    const problem = page.getByTestId('number-problem');
    await expect(problem).toContainText(it ? 'virgola' : 'point');
    await expect(page.getByTestId('condition-value')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('condition-chips')).toHaveCount(0);
    await expect(page.getByTestId('row-counts')).toContainText(it ? '200 righe' : '200 rows');
    await expect(page.getByTestId('row-counts')).not.toContainText(it ? 'corrispondono' : 'match');
    await shot(`${locale}-number-refused`);

    // thousands separators as the language writes them
    await page.getByTestId('condition-value').fill('0');
    await page.getByTestId('condition-value2').fill(it ? '1.234,5' : '1,234.5');
    await expect(problem).toHaveCount(0);
    await expect(page.getByTestId('condition-chips')).toContainText(it ? 'prezzo tra 0 – 1.234,5' : 'prezzo between 0 – 1,234.5');
    await expect(page.getByTestId('row-counts')).toContainText(it ? '200 righe su 200 corrispondono' : '200 of 200 rows match');
    await page.getByTestId('open-api').click();
    await expect(page.getByTestId('api-url')).toContainText(encodeURIComponent('"lte":"1234.5"'));
    await page.getByTestId('open-api').click();

    // finding a value of a number column in its filter panel: typed the same way
    await page.locator('[data-field="prezzo"] [data-testid="filter-button"]').click();
    await page.getByTestId('facet-search').fill(it ? '1,64' : '1.64');
    const panel = page.getByTestId('filter-panel');
    await expect(panel.locator('.facet:not(.facet-blank) .facet-value').first()).toContainText(it ? '1,64' : '1.64');
    await page.getByTestId('facet-search').fill(it ? '1.64' : '1,64');
    await expect(panel.getByTestId('number-problem')).toContainText(it ? 'virgola' : 'point');
  });
}

// ---- 2. charts on decimal columns -----------------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`2. a chart sums and averages a decimal column exactly; "Of" is not an identifier; a failed request clears the old figures (${locale})`, async ({
    page,
    deskstore,
    openUi,
    shot,
  }) => {
    const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
    const fields = await action(deskstore, 'datastore_search', { resource_id: id, limit: 0 });
    expect(fields.fields.find((f) => f.id === 'prezzo')?.type).toBe('numeric');
    await openUi(`/${locale}/`);
    await openTable(page, deskstore, locale, id, '?view=chart');
    await page.getByTestId('chart-group').selectOption('descCarburante');
    await page.getByTestId('chart-metric').selectOption('mean');
    // the measure offered first is the price, not the station's identifier
    await expect(page.getByTestId('chart-value')).toHaveValue('prezzo');
    const table = page.getByTestId('chart-table');
    await expect(table.locator('thead')).toContainText(it ? 'Media di prezzo' : 'Mean of prezzo');
    const mean = await action(deskstore, 'deskstore_group_by', {
      resource_id: id,
      group_by: 'descCarburante',
      metric: 'mean',
      value_field: 'prezzo',
    });
    const first = mean.groups[0]!;
    await expect(table.locator('tbody tr').first()).toContainText(String(first.keys[0]));
    const shownMean = new Intl.NumberFormat(tag(locale), { maximumFractionDigits: 2, useGrouping: true }).format(Number(first.value));
    await expect(table.locator('tbody tr').first()).toContainText(shownMean);
    await expect(page.getByTestId('error-notice')).toHaveCount(0);
    await shot(`${locale}-chart-decimal`);

    // the sum is exact: what the SQL of the chart computes on the same rows
    await page.getByTestId('chart-metric').selectOption('sum');
    await expect(table.locator('thead')).toContainText(it ? 'Somma di prezzo' : 'Sum of prezzo');
    const sql = await page.getByTestId('chart-sql').innerText();
    expect(sql).toContain('sum("prezzo")');
    const viaSql = await action(deskstore, 'datastore_search_sql', { sql });
    const sum = await action(deskstore, 'deskstore_group_by', {
      resource_id: id,
      group_by: 'descCarburante',
      metric: 'sum',
      value_field: 'prezzo',
    });
    // (exact text against JSON numbers read as doubles here; test/integration/search-api.test.ts checks the digits)
    expect(sum.groups.map((g) => Number(g.value))).toEqual(viaSql.records.map((r) => Number(r.sum)));

    // a request that fails leaves no figures of another question under the new heading
    await page.route('**/deskstore_group_by?**', (route) =>
      route.request().url().includes('metric=max')
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ success: false, error: { __type: 'Validation Error', value_field: ['refused for the test'] } }),
          })
        : route.continue(),
    );
    await page.getByTestId('chart-metric').selectOption('max');
    await expect(page.getByTestId('error-notice')).toBeVisible();
    await expect(page.getByTestId('chart-table')).toHaveCount(0);
    await expect(page.getByTestId('chart').locator('svg')).toHaveCount(0);
  });
}

// ---- 3. what an import repaired is kept with the resource ------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`3. the import's report: on the completion screen, on the resource page and in resource_show (${locale})`, async ({
    page,
    deskstore,
    openUi,
    shot,
  }) => {
    await openUi(`/${locale}/#/import`);
    await page.getByTestId('file-input').setInputFiles(REGISTRY);
    await expect(page.getByTestId('repairs')).toBeVisible({ timeout: 60_000 });
    await page.getByTestId('start-import').click();
    const report = page.getByTestId('import-report');
    await expect(report).toBeVisible({ timeout: 120_000 });
    await expect(page.getByTestId('import-card')).toContainText(it ? '240 righe importate' : '240 rows imported');
    await expect(report).toContainText(it ? '11 righe' : '11 row');
    await expect(report).toContainText('6, 8, 43, 49, 80');
    await expect(report).toContainText(it ? '9 righe' : '9 row');
    await expect(report).toContainText('4, 33, 62');
    await expect(report).toContainText('UTF-8');
    await expect(report).toContainText(it ? 'barra verticale' : 'pipe');
    await expect(report).toContainText('id_registro');
    await shot(`${locale}-import-report`);

    const id = /#\/import\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const source = (await action(deskstore, 'resource_show', { id })).deskstore?.source;
    expect(source?.repairs?.map((r) => [r.kind, r.rows, r.lines.slice(0, 3)])).toEqual([
      ['delimiter_in_value', 11, [6, 8, 43]],
      ['stray_quotes', 9, [4, 33, 62]],
    ]);
    expect(source?.columns).toHaveLength(10);

    await page.getByTestId('open-table').click();
    await expect(page.getByTestId('row-counts')).toContainText(it ? '240 righe' : '240 rows');
    const onPage = page.getByTestId('import-report');
    await onPage.locator('summary').first().click();
    await expect(onPage).toContainText(it ? '11 righe' : '11 row');
    await expect(onPage).toContainText('6, 8, 43, 49, 80');
  });
}

// ---- 4. the API panel of a mirrored resource names its portal ------------------------------

test('4. the API panel of a mirror shows the same call on its portal; a local file makes no portal claim', async ({
  page,
  deskstore,
  openUi,
}) => {
  const portal = await startServer();
  try {
    const pkg = await action(portal, 'package_create', { name: 'bilancio', title: 'Bilancio comunale' });
    const created = await action(portal, 'datastore_create', {
      resource: { package_id: pkg.id, name: 'Entrate 2024' },
      fields: [
        { id: 'voce', type: 'text' },
        { id: 'importo', type: 'numeric' },
      ],
      records: [
        { voce: 'Tributi', importo: 1200.5 },
        { voce: 'Trasferimenti', importo: 300 },
      ],
    });
    const job = await action(deskstore, 'deskstore_mirror', { url: `${portal.url}/dataset/bilancio` });
    await expect
      .poll(
        async () => {
          const status = await action(deskstore, 'deskstore_portal_job_status', { job_id: job.job_id });
          return Array.isArray(status) ? null : (status as { status: string }).status;
        },
        {
          timeout: 60_000,
        },
      )
      .toBe('complete');
    const resourceId = created.resource_id;
    await openUi('/en/');
    await openTable(page, deskstore, 'en', resourceId);
    await page.getByTestId('table-search').fill('tributi');
    await page.getByTestId('table-search').press('Enter');
    await expect(page.getByTestId('row-counts')).toContainText('1 of 2 rows match');
    await page.getByTestId('open-api').click();
    const section = page.getByTestId('api-portal');
    await expect(section).toContainText(portal.url);
    await expect(section.getByTestId('api-portal-url')).toHaveText(
      `${portal.url}/api/3/action/datastore_search?resource_id=${resourceId}&q=tributi&limit=100&offset=0`,
    );
    await expect(section).not.toContainText('/datastore/dump/');
    await expect(page.getByTestId('api-panel')).not.toContainText(`${deskstore.url}/datastore/dump/`);

    // a local file did not come from a portal: no such section
    const local = await importFile(deskstore, NUMBERS, 'Numeri');
    await openTable(page, deskstore, 'en', local);
    await page.getByTestId('open-api').click();
    await expect(page.getByTestId('api-url')).toBeVisible();
    await expect(page.getByTestId('api-portal')).toHaveCount(0);
    await expect(page.getByTestId('api-panel')).not.toContainText('original portal');
  } finally {
    await portal.stop();
  }
});

// ---- 5. one rule for every number shown ------------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`5. identifiers never get thousands separators: grid, row page, filter, chart, SQL result (${locale})`, async ({
    page,
    deskstore,
    openUi,
  }) => {
    const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
    await openUi(`/${locale}/`);
    await openTable(page, deskstore, locale, id);
    const cell = (field: string) => page.locator(`[data-testid="grid-row"] [data-field="${field}"]`).first();
    await expect(cell('idImpianto')).toHaveText('6492');
    await expect(cell('prezzo')).toHaveText(it ? '1,644' : '1.644');
    // the row page: the same rule as the grid
    await cell('idImpianto').dblclick();
    const idRow = page.locator('[data-testid="record"] [data-field="idImpianto"] .record-value');
    await expect(idRow).toHaveText('6492');
    await page.goBack();
    // the filter panel and the chart's table
    await page.locator('[data-field="idImpianto"] [data-testid="filter-button"]').click();
    await expect(page.getByTestId('filter-panel').locator('.facet:not(.facet-blank) .facet-value').first()).toHaveText(/^\d+$/);
    await page.goto(`${deskstore.url}/${locale}/#/resource/${id}?view=chart`);
    await page.getByTestId('chart-group').selectOption('idImpianto');
    await expect(page.getByTestId('chart-table').locator('tbody tr').first().locator('td').first()).toHaveText(/^\d+$/);
    // the SQL result grid
    const sql = `SELECT "idImpianto", "prezzo" FROM "${id}" WHERE "idImpianto" = 6492 LIMIT 1`;
    await page.goto(`${deskstore.url}/${locale}/#/resource/${id}/sql?sql=${encodeURIComponent(sql)}`);
    await expect(page.locator('.sql-result [data-testid="grid-row"] [data-field="idImpianto"]').first()).toHaveText('6492');
  });
}

// ---- 6. no English inside the Italian window ---------------------------------------------

test('6. Italian throughout: SQL refusals worded, CKAN members under Technical details, "tab" named in Italian', async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
  await openUi('/it/');
  const sql = `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "prezzo") FROM "${id}"`;
  await page.goto(`${deskstore.url}/it/#/resource/${id}/sql?sql=${encodeURIComponent(sql)}`);
  const notice = page.getByTestId('error-notice');
  await expect(notice).toContainText('WITHIN GROUP');
  await expect(notice).toContainText("L'SQL di Deskstore non supporta WITHIN GROUP");
  // CKAN's members (query, info) only under Technical details
  const outsideDetails = async (box: typeof notice) => (await box.locator(':scope > :not(details)').allTextContents()).join(' ');
  expect(await outsideDetails(notice)).not.toContain('info');
  expect(await outsideDetails(notice)).not.toContain("is not supported by Deskstore's datastore_search_sql");
  await notice.getByText('Dettagli tecnici').click();
  await expect(notice.locator('details')).toContainText("WITHIN GROUP is not supported by Deskstore's datastore_search_sql");

  // a server validation message in Italian, with the English under Technical details
  await page.goto(`${deskstore.url}/it/#/resource/${id}?view=chart`);
  await page.route('**/deskstore_group_by?**', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('value_field', 'descCarburante');
    return route.continue({ url: url.toString() });
  });
  await page.getByTestId('chart-metric').selectOption('sum');
  await expect(page.getByTestId('error-notice')).toContainText('descCarburante');
  await expect(page.getByTestId('error-notice')).toContainText('numeri');
  expect(await outsideDetails(page.getByTestId('error-notice'))).not.toContain('needs a number column');
  await page.unroute('**/deskstore_group_by?**');

  // the preview's reasons name a TAB in Italian
  await page.goto(`${deskstore.url}/it/#/import`);
  await page.getByTestId('file-input').setInputFiles({
    name: 'valori.tsv',
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from('nome\tvalore\nuno\t1\ndue\t2\ntre\t3\n'),
  });
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await page.locator('.option-reasons summary').click();
  await expect(page.locator('.option-reasons')).toContainText('tabulazione');
  await expect(page.locator('.option-reasons')).not.toContainText(/\btab\b/);
});

// ---- 7. focus stays where the user is ---------------------------------------------------

const FOCUS_IN_FILTER_PANEL = `document.activeElement?.closest('[data-testid="filter-panel"]') != null`;

test('7. a value clicked in a filter panel keeps focus in the panel (Escape closes it); deleting a dataset leaves focus on the page', async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
  await importFile(deskstore, NUMBERS, 'Numeri');
  await openUi('/en/');
  await openTable(page, deskstore, 'en', id);
  await page.locator('[data-field="descCarburante"] [data-testid="filter-button"]').click();
  const panel = page.getByTestId('filter-panel');
  await panel.getByText('Benzina', { exact: true }).click();
  await expect(page.getByTestId('filter-chips')).toContainText('Benzina');
  expect(await page.evaluate(FOCUS_IN_FILTER_PANEL)).toBe(true);
  await panel.getByText('Gasolio', { exact: true }).click();
  await expect(page.getByTestId('filter-chips')).toContainText('Gasolio');
  expect(await page.evaluate(FOCUS_IN_FILTER_PANEL)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);

  await page.goto(`${deskstore.url}/en/#/`);
  await page.getByRole('button', { name: 'Delete the dataset Numeri' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('dataset')).toHaveCount(1);
  expect(await page.evaluate('document.activeElement !== null && document.activeElement !== document.body')).toBe(true);
});

// ---- 8. the SQL screen -------------------------------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`8. SQL: an error replaces the previous result; a write is told "only SELECT"; _full_text comes last (${locale})`, async ({
    page,
    deskstore,
    openUi,
  }) => {
    const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
    await openUi(`/${locale}/`);
    const open = (sql: string) => page.goto(`${deskstore.url}/${locale}/#/resource/${id}/sql?sql=${encodeURIComponent(sql)}`);
    await open(`SELECT * FROM "${id}" LIMIT 5`);
    const headers = page.locator('.sql-result [role="columnheader"]');
    await expect(headers.first()).toBeVisible();
    const names = await headers.evaluateAll((els) => els.map((el) => el.getAttribute('data-field')));
    expect(names.indexOf('_full_text')).toBe(names.length - 1);
    expect(names.slice(0, 2)).toEqual(['_id', 'idImpianto']);

    await page.getByTestId('sql-editor').fill(`SELECT "nope" FROM "${id}"`);
    await page.getByTestId('sql-run').click();
    await expect(page.getByTestId('error-notice')).toBeVisible();
    await expect(page.locator('.sql-result')).toHaveCount(0);

    await page.getByTestId('sql-editor').fill(`DELETE FROM "${id}" WHERE "prezzo" > 2`);
    await page.getByTestId('sql-run').click();
    await expect(page.getByTestId('error-notice')).toContainText(it ? 'solo interrogazioni SELECT' : 'only SELECT queries');
    const mainBox = (await page.getByTestId('error-notice').locator(':scope > :not(details)').allTextContents()).join(' ');
    expect(mainBox).not.toContain(it ? 'errore vicino' : 'mistake near');
    expect(await total(deskstore, id, {})).toBe(200);
  });
}

// ---- 9. publishing needs the portal's token ---------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`9. Publish says the portal's token is needed and asks for it before trying (${locale})`, async ({ page, deskstore, openUi }) => {
    const id = await importFile(deskstore, NUMBERS, 'Numeri');
    await openUi(`/${locale}/`);
    let pushes = 0;
    page.on('request', (r) => {
      if (r.url().includes('deskstore_push')) pushes += 1;
    });
    await page.goto(`${deskstore.url}/${locale}/#/publish/${id}`);
    const token = page.getByTestId('publish-token');
    await expect(page.locator(`label[for="${await token.getAttribute('id')}"]`)).not.toContainText(it ? 'solo per' : 'only for');
    await expect(page.locator(`label[for="${await token.getAttribute('id')}"]`)).toContainText(it ? 'necessario' : 'needed');
    await page.getByTestId('publish-portal').fill('http://127.0.0.1:9/');
    await page.getByTestId('publish-button').click();
    await expect(page.getByTestId('publish-token-needed')).toBeVisible();
    await expect(token).toBeFocused();
    expect(pushes).toBe(0);
  });
}

// ---- 10. replacing data: columns that change are shown and asked about ------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`10. replacing a table with other columns asks first; a workbook's progress shows no "0 bytes of 0 bytes" (${locale})`, async ({
    page,
    deskstore,
    openUi,
    shot,
  }) => {
    const id = await importFile(deskstore, PREZZI, 'Prezzi carburanti');
    await openUi(`/${locale}/`);
    await page.goto(`${deskstore.url}/${locale}/#/import?replace=${id}`);
    await page.getByTestId('file-input').setInputFiles(NUMBERS);
    await expect(page.getByTestId('preview-table')).toBeVisible();
    const changes = page.getByTestId('column-changes');
    await expect(changes).toBeVisible();
    await expect(changes).toContainText('idImpianto');
    await expect(changes).toContainText('geonameid');
    await expect(page.getByTestId('start-import')).toBeDisabled();
    await shot(`${locale}-replace-columns`);
    await changes.getByTestId('accept-column-changes').check();
    await expect(page.getByTestId('start-import')).toBeEnabled();

    // a workbook: no byte counts it cannot know
    await page.getByRole('button', { name: it ? 'Scegli un altro file' : 'Choose another file' }).click();
    await page.getByTestId('file-input').setInputFiles(WORKBOOK);
    await expect(page.getByTestId('preview-table')).toBeVisible();
    await page.getByTestId('accept-column-changes').check();
    await page.getByTestId('start-import').click();
    await expect(page.getByTestId('import-card')).toContainText(it ? 'righe importate' : 'rows imported', { timeout: 60_000 });
    await expect(page.getByTestId('import-card')).not.toContainText(it ? '0 byte di 0 byte' : '0 bytes of 0 bytes');
  });
}

// ---- 11. the catalogue at 390 px ------------------------------------------------------

test('11. at 390 px the catalogue keeps its headers apart and its buttons on screen', async ({ page, deskstore, openUi, shot }) => {
  await importFile(deskstore, ISTAT, 'ISTAT Elenco comuni italiani');
  await page.setViewportSize({ width: 390, height: 844 });
  await openUi('/it/');
  await expect(page.getByTestId('resource-row')).toHaveCount(1);
  const row = page.getByTestId('resource-row');
  for (const button of await row.locator('a.button, button').all()) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  // no two header cells of the resource list overlap
  // (header cells shown, and the dataset's heading and buttons)
  const boxes = (
    await page
      .locator('table.resources thead th:not(.c-actions), .dataset-head > *, [data-testid="resource-row"] td')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()))
  )
    .filter((r) => r.width > 2 && r.height > 2)
    .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }));
  expect(boxes.length).toBeGreaterThan(3);
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
      expect(overlap).toBe(false);
    }
  await shot('it-catalogue-390');
});

// ---- 12. a jump through a big table; words ----------------------------------------------------

test('12. dragging the scrollbar to the middle fetches the rows where it stops, not every page passed', async ({
  page,
  deskstore,
  openUi,
}) => {
  const id = await importFile(deskstore, dataFile('mise-carburanti-prezzo_alle_8-2022-03-24.csv'), 'Prezzi');
  await openUi('/en/');
  await openTable(page, deskstore, 'en', id);
  await expect(page.getByTestId('row-counts')).toContainText('91,070 rows');
  const offsets: number[] = [];
  page.on('request', (r) => {
    const m = /datastore_search\?.*offset=(\d+)/.exec(r.url());
    if (m) offsets.push(Number(m[1]));
  });
  // a drag: 30 scroll positions over about half a second
  await page.getByTestId('data-grid').evaluate(async (el: { scrollTop: number; scrollHeight: number; clientHeight: number }) => {
    const target = (el.scrollHeight - el.clientHeight) / 2;
    for (let i = 1; i <= 30; i++) {
      el.scrollTop = (target * i) / 30;
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
  });
  const ids = page.locator('[data-testid="grid-row"] [data-field="_id"]');
  await expect.poll(async () => Number((await ids.first().innerText()).replace(/\D/g, ''))).toBeGreaterThan(44_000);
  await expect(page.locator('[data-testid="grid-row"] .grid-cell.loading')).toHaveCount(0);
  // before: one request per page passed (34 for these 30 positions); now the pages where the
  // drag paused long enough to be a stop, and where it ended
  expect(offsets.length, offsets.join()).toBeLessThanOrEqual(8);
  expect(offsets.at(-1)).toBeGreaterThanOrEqual(44_000);
});

test('12. the words: one row is "la prima riga", no doubled bracket', async ({ page, openUi }) => {
  await openUi('/it/#/import');
  await expect(page.getByText('anche compresso', { exact: false })).toBeVisible();
  await expect(page.getByText('))', { exact: false })).toHaveCount(0);
  await page.getByTestId('file-input').setInputFiles({ name: 'uno.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await expect(page.locator('.preview-head')).toContainText('2 colonne. Qui sotto, la prima riga come sarà importata.');
  await expect(page.locator('.preview-head')).not.toContainText('le prime 1 righe');
});

// ---- what a search matches ------------------------------------------------------------

for (const locale of LOCALES) {
  const it = locale === 'it';
  test(`the search box says what it matches: word forms of the table's language, or word beginnings (${locale})`, async ({
    page,
    deskstore,
    openUi,
  }) => {
    const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
    await openUi(`/${locale}/`);
    await openTable(page, deskstore, locale, id);
    const help = page.getByTestId('search-help');
    await expect(help).toBeVisible();
    await expect(help).toContainText(it ? 'forme inglesi' : 'English forms');
    await expect(help).toContainText(it ? "l'inizio" : 'beginning');
    await expect(page.getByTestId('table-search')).toHaveAttribute('aria-describedby', (await help.getAttribute('id'))!);
  });
}
