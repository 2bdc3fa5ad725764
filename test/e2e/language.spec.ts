/**
 * English and Italian: switching at any time keeps the screen (the client route in the
 * fragment), moves the URL to /en/ or /it/, is remembered for the next visit of `/`, and
 * formats numbers and dates for the language.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile } from './api-helpers';
import { ISTAT, expect, test } from './fixtures';

test('switch to Italian: labels, URL locale, formatted numbers, remembered', async ({ page, deskstore, openUi }) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
  await page.goto(`${deskstore.url}/en/#/resource/${id}`);
  await expect(page.getByTestId('row-counts')).toContainText('7,901 rows');
  // a code column reads without thousands separators, in either language
  const code = page.locator('[data-testid="grid-row"] [data-field="Codice Comune formato numerico"]').first();
  await expect(code).toHaveText('1001');

  await page.getByTestId('language-it').click();
  await expect(page).toHaveURL(new RegExp(`/it/#/resource/${id}$`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page.getByTestId('row-counts')).toContainText('7.901 righe');
  await expect(code).toHaveText('1001');
  await expect(page.getByLabel('Cerca in tutte le colonne')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Colonne', exact: true })).toBeVisible();
  await expect(page.locator('[role="columnheader"][data-field="Codice Comune formato numerico"] .type-badge')).toHaveText('intero');
  await expect(page.getByRole('navigation', { name: 'Principale' }).getByRole('link', { name: 'Catalogo' })).toBeVisible();
  await expect(page.getByTestId('language-it')).toHaveAttribute('aria-pressed', 'true');

  // remembered: the bare address opens in Italian, and a reload stays Italian
  await page.goto(`${deskstore.url}/`);
  await expect(page).toHaveURL(/\/it\/(#\/)?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogo');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogo');

  await page.getByTestId('language-en').click();
  await expect(page).toHaveURL(/\/en\/(#\/)?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
  await page.goto(`${deskstore.url}/`);
  await expect(page).toHaveURL(/\/en\/(#\/)?$/);
});

test('numbers and dates follow the language (1.234,56 in Italian)', async ({ page, deskstore, openUi }) => {
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-fmt-'));
  try {
    const file = join(dir, 'misure.csv');
    await writeFile(
      file,
      'name,amount,day,moment\nalpha,1234.56,2024-01-31,2024-01-31T10:05:00\nbeta,-0.5,2023-12-01,2023-12-01T23:59:30\n',
    );
    const id = await importFile(deskstore, file, 'Misure');
    await openUi('/it/');
    await page.goto(`${deskstore.url}/it/#/resource/${id}`);
    const cell = (field: string) => page.locator(`[data-testid="grid-row"] [data-field="${field}"]`);
    await expect(cell('amount').first()).toHaveText('1.234,56');
    // the column's two decimals are kept on every value
    await expect(cell('amount').nth(1)).toHaveText('-0,50');
    await expect(cell('day').first()).toContainText('gen 2024');
    await expect(cell('moment').first()).toContainText('10:05');
    await expect(cell('moment').nth(1)).toContainText('23:59:30');
    await page.getByTestId('language-en').click();
    await expect(cell('amount').first()).toHaveText('1,234.56');
    await expect(cell('day').first()).toContainText('Jan 31, 2024');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
