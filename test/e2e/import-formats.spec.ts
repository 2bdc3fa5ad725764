/**
 * Messy files and other formats through the import screen (issue 10): the review of rows that
 * do not fit, in Italian and English, the sheet and zip-entry pickers, and the imports done.
 */
import { fixtureFile } from '../helpers/fixtures';
import { expect, test } from './fixtures';

test('the registry export: every row kept, the problem rows reviewed in Italian, imported', async ({ page, openUi }) => {
  await openUi('/it/#/import');
  await page.getByTestId('file-input').setInputFiles(fixtureFile('messy', 'registry-export.csv'));
  const repairs = page.getByTestId('repairs');
  await expect(repairs.getByRole('heading', { name: "Righe che non corrispondono all'intestazione" })).toBeVisible({ timeout: 60_000 });
  const quotes = page.getByTestId('repair-stray_quotes');
  await expect(quotes).toContainText('che apre un valore senza chiuderlo');
  await expect(quotes).toContainText('"Cooperativa');
  await expect(page.getByTestId('repair-choice-stray_quotes')).toHaveValue('repair');
  await expect(page.getByTestId('repair-delimiter_in_value')).toContainText('resta intero nella colonna');
  // type reasons in Italian too
  await expect(page.getByTestId('preview-table')).toContainText('numeri interi entro int4');
  await expect(page.getByTestId('option-delimiter')).toHaveValue('|');
  await page.screenshot({ path: 'test-results/screenshots/it-import-repairs.png', fullPage: true });

  // choosing to skip a kind is previewed, then undone
  await page.getByTestId('repair-choice-stray_quotes').selectOption('skip');
  await expect(quotes).toContainText('vengono tralasciate');
  await page.getByTestId('repair-choice-stray_quotes').selectOption('repair');
  await expect(quotes).toContainText('con " come testo');

  await page.getByTestId('start-import').click();
  // rows were repaired: the completion screen shows what was done before the table
  await expect(page.getByTestId('import-report')).toContainText('11 righe', { timeout: 120_000 });
  await page.getByTestId('open-table').click();
  await expect(page).toHaveURL(/#\/resource\/[0-9a-f-]{36}/);
  await expect(page.getByTestId('row-counts')).toContainText('240 righe');
});

test('the same review in English', async ({ page, openUi }) => {
  await openUi('/en/#/import');
  await page.getByTestId('file-input').setInputFiles(fixtureFile('messy', 'registry-export.csv'));
  await expect(page.getByTestId('repair-stray_quotes')).toContainText('that opens a value it never closes', { timeout: 60_000 });
  await expect(page.getByTestId('repair-choice-delimiter_in_value').locator('option:checked')).toHaveText('Join the split value again');
  await page.screenshot({ path: 'test-results/screenshots/en-import-repairs.png', fullPage: true });
});

test('a workbook: the first sheet with values, the header under its title, real types; a zip: its files to choose from', async ({
  page,
  openUi,
}) => {
  await openUi('/en/#/import');
  await page.getByTestId('file-input').setInputFiles(fixtureFile('messy', 'comuni.xlsx'));
  await expect(page.getByTestId('option-sheet')).toHaveValue('Comuni 2023', { timeout: 60_000 });
  await expect(page.getByTestId('option-sheet').locator('option')).toHaveText(['Note (empty)', 'Comuni 2023']);
  await expect(page.getByTestId('option-encoding')).toHaveCount(0);
  await expect(page.locator('[data-testid="type-select"][data-column="Data rilevazione"]')).toHaveValue('timestamp');
  await expect(page.locator('[data-testid="type-select"][data-column="Capoluogo"]')).toHaveValue('bool');
  await expect(page.locator('[data-testid="type-select"][data-column="Codice"]')).toHaveValue('text');
  // types the workbook's cells give are not guessed again, and the preview says whose they are
  await expect(page.getByTestId('preview-table')).toContainText('the file says so: its cells are typed int4');
  await page.screenshot({ path: 'test-results/screenshots/en-import-xlsx.png', fullPage: true });
  await page.getByTestId('start-import').click();
  await expect(page).toHaveURL(/#\/resource\/[0-9a-f-]{36}/, { timeout: 120_000 });
  await expect(page.getByTestId('row-counts')).toContainText('3 rows');

  await openUi('/it/#/import');
  await page.getByTestId('file-input').setInputFiles(fixtureFile('messy', 'two-csvs.zip'));
  await expect(page.getByTestId('option-entry')).toHaveValue('dati/comuni.csv', { timeout: 60_000 });
  await expect(page.getByTestId('preview-table')).toContainText('Aosta');
  await page.getByTestId('option-entry').selectOption('dati/province.csv');
  await expect(page.getByTestId('preview-table')).toContainText('Torino');
  await expect(page.getByTestId('option-delimiter')).toHaveValue(',');
});
