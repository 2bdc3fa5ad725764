/**
 * The import screen with the ISTAT list (Windows-1252, `;`, 7,901 rows, header cells with
 * line breaks): preview with what was detected, changing options and types, the progress
 * screen, then the table. And a file dropped on the window.
 */
import { join } from 'node:path';
import { action } from './api-helpers';
import { DATA, expect, previewIstat, test } from './fixtures';

test('import the ISTAT file through the UI: preview, progress, then the table', async ({ page, openUi }) => {
  await openUi();
  await previewIstat(page);
  // detected: Windows-1252, semicolon, header on line 1, 26 columns
  await expect(page.getByTestId('option-encoding')).toHaveValue('windows-1252');
  await expect(page.getByTestId('option-delimiter')).toHaveValue(';');
  await expect(page.getByTestId('option-header-line')).toHaveValue('1');
  await expect(page.getByTestId('type-select')).toHaveCount(26);
  // a header cell with a line break keeps its full text as the label
  await expect(page.getByTestId('preview-table')).toContainText("Codice dell'Unità territoriale sovracomunale (valida a fini statistici)");
  await expect(page.getByTestId('preview-table')).toContainText('Agliè');
  await expect(page.getByText('8 column names were adjusted for the DataStore')).toBeVisible();
  await expect(page.getByTestId('dataset-title')).toHaveValue('Istat elenco comuni italiani');
  // switching the language keeps the preview (no reload)
  await page.getByTestId('language-it').click();
  await expect(page.getByRole('heading', { name: 'Anteprima di istat-elenco-comuni-italiani.csv' })).toBeVisible();
  await expect(page.getByTestId('option-delimiter').locator('option:checked')).toHaveText('punto e virgola (;)');
  await expect(page).toHaveURL(/\/it\/#\/import$/);
  await page.getByTestId('language-en').click();
  await expect(page.getByRole('heading', { name: 'Preview of istat-elenco-comuni-italiani.csv' })).toBeVisible();

  // a forced type that does not fit is reported, in words
  const catastale = page.locator('[data-testid="type-select"][data-column="Codice Catastale del comune"]');
  await catastale.selectOption('int4');
  await expect(page.getByText('“A074” cannot be read as integer', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Use the detected type' }).click();
  await expect(catastale).toHaveValue('text');
  // make the region code a number: the import uses it
  await page.locator('[data-testid="type-select"][data-column="Codice Regione"]').selectOption('int4');
  await expect(page.locator('[data-testid="type-select"][data-column="Codice Regione"]')).toHaveClass(/type-forced/);

  await page.getByTestId('dataset-title').fill('Comuni ISTAT');
  await page.getByTestId('start-import').click();
  // the progress screen first, then the table
  await expect(page).toHaveURL(/#\/import\/[0-9a-f-]{36}\?dataset=[0-9a-f-]{36}$/);
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeAttached();
  await expect(page).toHaveURL(/#\/resource\/[0-9a-f-]{36}/, { timeout: 120_000 });
  await expect(page.getByTestId('row-counts')).toContainText('7,901 rows');
  await expect(page.getByTestId('grid-row').first()).toContainText('Agliè');
  await expect(page.locator('[role="columnheader"][data-field="Codice Regione"] .type-badge')).toHaveText('integer');
  await expect(page.locator('[data-testid="grid-row"] [data-field="Codice Regione"]').first()).toHaveText('1');
  // the header with the line break is the column's label
  await expect(page.locator('[role="columnheader"][data-field^="Codice dell\'Unità"] .head-label')).toHaveText(
    "Codice dell'Unità territoriale sovracomunale (valida a fini statistici)",
  );
  await page.getByRole('link', { name: 'Catalogue' }).first().click();
  await expect(page.getByTestId('dataset')).toContainText('Comuni ISTAT');
  await expect(page.getByTestId('resource-row')).toContainText('7,901');
});

test('changing the delimiter and the header line re-reads the preview (no second upload)', async ({ page, openUi }) => {
  await openUi();
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('deskstore_import_preview')) uploads.push(request.headers()['content-type'] ?? '');
  });
  await previewIstat(page);
  await page.getByTestId('option-delimiter').selectOption(',');
  await expect(page.getByTestId('type-select')).toHaveCount(1);
  await page.getByTestId('option-delimiter').selectOption(';');
  await expect(page.getByTestId('type-select')).toHaveCount(26);
  await page.getByTestId('option-header-line').fill('2');
  await expect(page.getByTestId('preview-table').locator('thead')).toContainText('Agliè');
  await page.getByTestId('option-encoding').selectOption('utf-8');
  await expect(page.getByTestId('option-encoding')).toHaveValue('utf-8');
  expect(uploads.filter((type) => type.startsWith('multipart/'))).toHaveLength(1);
  expect(uploads.filter((type) => type.startsWith('application/json')).length).toBeGreaterThanOrEqual(4);
});

test('a file dropped anywhere on the window opens its preview', async ({ page, openUi }) => {
  await openUi();
  const csv = 'città;abitanti\nRoma;2873000\nMilano;1371000\n';
  const dataTransfer = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([${JSON.stringify(csv)}], 'città.csv', { type: 'text/csv' }));
    return dt;
  })()`);
  await page.dispatchEvent('h1', 'dragenter', { dataTransfer });
  await expect(page.getByText('Drop the file to import it')).toBeVisible();
  await page.dispatchEvent('h1', 'drop', { dataTransfer });
  await expect(page).toHaveURL(/#\/import$/);
  await expect(page.getByTestId('preview-table')).toContainText('Milano');
  await expect(page.getByTestId('type-select')).toHaveCount(2);
  await expect(page.locator('[data-testid="type-select"][data-column="abitanti"]')).toHaveValue('int4');
});

test("a file dropped on an open preview starts from its own title and name, not the previous file's edits", async ({ page, openUi }) => {
  await openUi();
  await previewIstat(page);
  await page.getByTestId('dataset-title').fill('Titolo scelto per ISTAT');
  await page.getByTestId('resource-name').fill('nome scelto');
  const dataTransfer = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['città;abitanti\\nRoma;2873000\\n'], 'popolazione-città.csv', { type: 'text/csv' }));
    return dt;
  })()`);
  await page.dispatchEvent('h1', 'drop', { dataTransfer });
  await expect(page.getByTestId('preview-table')).toContainText('Roma');
  await expect(page.getByTestId('dataset-title')).not.toHaveValue('Titolo scelto per ISTAT');
  await expect(page.getByTestId('dataset-title')).toHaveValue(/popolazione/i);
  await expect(page.getByTestId('resource-name')).toHaveValue('popolazione-città.csv');
});

test('the full-text language: chosen at import, Italian suggested for Italian data, shown on the table (en and it)', async ({
  page,
  deskstore,
  openUi,
}) => {
  await openUi('/it/');
  await previewIstat(page);
  const select = page.getByTestId('search-language-select');
  await expect(select).toHaveValue('italian');
  await expect(page.getByTestId('search-language-hint')).toContainText('Suggerita: italiano, i dati sembrano in italiano.');
  await expect(select.locator('option')).toHaveText(['inglese (predefinita di CKAN)', 'italiano', 'nessuna: solo parole esatte']);
  await page.getByTestId('start-import').click();
  await expect(page).toHaveURL(/#\/resource\/[0-9a-f-]{36}/, { timeout: 120_000 });
  await expect(page.getByTestId('search-language')).toHaveText('Lingua della ricerca testuale: italiano');
  const id = /#\/resource\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const resource = await action(deskstore, 'resource_show', { id });
  expect(resource.deskstore?.searchLanguage).toBe('italian');
  // q stems in Italian now: `comuni` finds `Comune`-only rows as well (English would not)
  const q = await action(deskstore, 'datastore_search', { resource_id: id, q: 'Valli', limit: 0 });
  const qSingular = await action(deskstore, 'datastore_search', { resource_id: id, q: 'Valle', limit: 0 });
  expect(q.total).toBe(qSingular.total);

  // an English file: English, CKAN's default, and another choice is kept
  await page.goto(`${deskstore.url}/en/#/import`);
  await page.getByTestId('file-input').setInputFiles(join(DATA, 'world-cities.csv'));
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await expect(page.getByTestId('search-language-select')).toHaveValue('english');
  await expect(page.getByTestId('search-language-hint')).toContainText('Decides which forms of a word a search finds');
  await page.getByTestId('search-language-select').selectOption('simple');
  await page.getByTestId('start-import').click();
  await expect(page).toHaveURL(/#\/resource\//, { timeout: 120_000 });
  await expect(page.getByTestId('search-language')).toHaveText('Full-text search language: none (exact words)');
});
