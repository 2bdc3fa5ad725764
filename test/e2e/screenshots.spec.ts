/**
 * The main screens in both languages, saved to test-results/screenshots/ (the README's
 * pictures in docs/screenshots/ are picked from there). Each test also checks the screen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile, writeProvinceFile } from './api-helpers';
import { ISTAT, expect, previewIstat, test } from './fixtures';

const LOCALES = ['en', 'it'] as const;

test.describe('screenshots', () => {
  test.use({ sample: true });

  for (const locale of LOCALES) {
    test(`catalogue, import preview, table with filters, API panel (${locale})`, async ({ page, deskstore, openUi, shot }) => {
      await importFile(deskstore, ISTAT, 'ISTAT Elenco comuni italiani');
      await openUi(`/${locale}/`);
      await expect(page.getByTestId('dataset')).toHaveCount(2);
      await shot(`${locale}-catalogue`);

      await previewIstat(page);
      await shot(`${locale}-import-preview`);

      // the table of the ISTAT resource, searched, filtered and sorted
      await page.goto(`${deskstore.url}/${locale}/#/`);
      await page.getByTestId('resource-row').filter({ hasText: 'istat-elenco' }).getByRole('link').first().click();
      await expect(page.getByTestId('grid-row').first()).toBeVisible();
      await page.getByTestId('table-search').fill('san');
      await page.getByTestId('table-search').press('Enter');
      await expect(page.getByTestId('row-counts')).toContainText(locale === 'it' ? 'corrispondono' : 'match');
      await page.locator('[data-field="Denominazione Regione"] [data-testid="filter-button"]').click();
      const panel = page.getByTestId('filter-panel');
      await panel.getByLabel(/^Friuli-Venezia Giulia/).check();
      await panel.getByLabel(/^Trentino-Alto Adige/).check();
      await page.locator('[data-field="Denominazione in italiano"] [data-testid="sort-button"]').click();
      await expect(page.getByTestId('row-counts')).toContainText(locale === 'it' ? '35 righe su 7.901' : '35 of 7,901 rows');
      await expect(page.locator('[data-testid="grid-row"] [data-field="Denominazione in italiano"]').first()).toHaveText('Campo Tures');
      // hide the code columns so that the names are in view
      await page.getByTestId('open-columns').click();
      for (const label of ['Codice Regione', "Codice dell'Unità", 'Codice Provincia', 'Progressivo del Comune', 'Codice Comune formato alfanumerico']) {
        await page.getByTestId('columns-panel').getByLabel(new RegExp(`^${label}`)).uncheck();
      }
      await page.locator('[data-field="Denominazione Regione"] [data-testid="filter-button"]').click();
      await expect(page.getByTestId('filter-panel')).toBeVisible();
      await page.getByTestId('data-grid').evaluate((el: { scrollLeft: number }) => { el.scrollLeft = 0; });
      await shot(`${locale}-table-filters`);

      // all columns again, so the call is short; a taller window shows the code too
      await page.getByTestId('open-columns').click();
      await page.getByTestId('columns-panel').getByRole('button', { name: locale === 'it' ? 'Mostra tutte' : 'Show all' }).click();
      await page.getByTestId('open-api').click();
      await expect(page.getByTestId('api-url')).toContainText('datastore_search');
      await expect(page.getByTestId('api-url')).not.toContainText('fields=');
      await page.getByTestId('snippet-tab-python').click();
      await page.setViewportSize({ width: 1440, height: 1250 });
      await page.getByTestId('api-panel').evaluate((el: { scrollTop: number }) => { el.scrollTop = 0; });
      await shot(`${locale}-api-panel`);
    });

    test(`import progress (${locale})`, async ({ page, openUi, shot }) => {
      // a million rows (100 MB): long enough to see the bar move
      const dir = await mkdtemp(join(tmpdir(), 'deskstore-shot-'));
      const file = join(dir, 'dpc-covid19-ita-province-x4.csv');
      try {
        await writeProvinceFile(file, 4);
        await openUi(`/${locale}/#/import`);
        await page.getByTestId('file-input').setInputFiles(file);
        await expect(page.getByTestId('preview-table')).toBeVisible({ timeout: 60_000 });
        await page.getByTestId('start-import').click();
        await expect(page.getByTestId('import-rows')).not.toHaveText('0');
        await shot(`${locale}-import-progress`);
        await expect(page).toHaveURL(/#\/resource\//, { timeout: 120_000 });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
