/**
 * The main screens in both languages, saved to test-results/screenshots/ (the README's
 * pictures in docs/screenshots/ are picked from there). Each test also checks the screen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile, writeProvinceFile } from './api-helpers';
import type { Page } from '@playwright/test';
import { ISTAT, expect, previewIstat, test } from './fixtures';

const LOCALES = ['en', 'it'] as const;

/**
 * Starts importing a million rows (the province file four times, 100 MB: long enough to see
 * the bar move, or to cancel) through the UI, runs `then` once rows are being read.
 */
async function withMillionRowImport(
  page: Page,
  openUi: (path?: string) => Promise<void>,
  locale: string,
  then: () => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-shot-'));
  const file = join(dir, 'dpc-covid19-ita-province-x4.csv');
  try {
    await writeProvinceFile(file, 4);
    await openUi(`/${locale}/#/import`);
    await page.getByTestId('file-input').setInputFiles(file);
    await expect(page.getByTestId('preview-table')).toBeVisible({ timeout: 60_000 });
    await page.getByTestId('start-import').click();
    await expect(page.getByTestId('import-rows')).not.toHaveText('0');
    await then();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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
      for (const label of [
        'Codice Regione',
        "Codice dell'Unità",
        'Codice Provincia',
        'Progressivo del Comune',
        'Codice Comune formato alfanumerico',
      ]) {
        await page
          .getByTestId('columns-panel')
          .getByLabel(new RegExp(`^${label}`))
          .uncheck();
      }
      await page.locator('[data-field="Denominazione Regione"] [data-testid="filter-button"]').click();
      await expect(page.getByTestId('filter-panel')).toBeVisible();
      await page.getByTestId('data-grid').evaluate((el: { scrollLeft: number }) => {
        el.scrollLeft = 0;
      });
      await shot(`${locale}-table-filters`);

      // all columns again, so the call is short; a taller window shows the code too
      await page.getByTestId('open-columns').click();
      await page
        .getByTestId('columns-panel')
        .getByRole('button', { name: locale === 'it' ? 'Mostra tutte' : 'Show all' })
        .click();
      await page.getByTestId('open-api').click();
      await expect(page.getByTestId('api-url')).toContainText('datastore_search');
      await expect(page.getByTestId('api-url')).not.toContainText('fields=');
      await page.getByTestId('snippet-tab-python').click();
      await page.setViewportSize({ width: 1440, height: 1250 });
      await page.getByTestId('api-panel').evaluate((el: { scrollTop: number }) => {
        el.scrollTop = 0;
      });
      await shot(`${locale}-api-panel`);
    });

    test(`search as you type, blank-cell filter, export, catalogue actions, replace with its language choice (${locale})`, async ({
      page,
      deskstore,
      openUi,
      shot,
    }) => {
      const it = locale === 'it';
      const id = await importFile(deskstore, ISTAT, 'ISTAT Elenco comuni italiani');
      await openUi(`/${locale}/`);
      await page.goto(`${deskstore.url}/${locale}/#/resource/${id}`);
      await expect(page.getByTestId('grid-row').first()).toBeVisible();
      // the names, the other language's name and the region in view
      await page.getByTestId('open-columns').click();
      const columns = page.getByTestId('columns-panel');
      await columns.getByRole('button', { name: it ? 'Nascondi tutte' : 'Hide all' }).click();
      for (const label of ['Denominazione in italiano', 'Denominazione altra lingua', 'Denominazione Regione', 'Sigla automobilistica']) {
        await columns.getByLabel(new RegExp(`^${label}`)).check();
      }
      await page.getByTestId('open-columns').click();
      // search as you type: no accent typed, a word still being typed
      await page.getByTestId('table-search').fill('citta castel');
      await page.getByTestId('table-search').press('Enter');
      await expect(page.getByTestId('row-counts')).toContainText(it ? '1 riga su 7.901' : '1 of 7,901 rows match');
      await page.getByTestId('table-search').fill('citta');
      await page.getByTestId('table-search').press('Enter');
      await expect(page.getByTestId('grid-row')).toHaveCount(7);
      await page.getByTestId('open-api').click();
      await expect(page.getByTestId('api-extensions')).toBeVisible();
      await shot(`${locale}-search-as-you-type`);

      // blank cells as a filter value, with a second sort column
      await page.getByTestId('table-search').fill('');
      await page.getByTestId('table-search').press('Enter');
      await page.locator('[data-field="Denominazione Regione"] [data-testid="sort-button"]').click();
      await page.locator('[data-field="Denominazione in italiano"] [data-testid="sort-button"]').click({ modifiers: ['Shift'] });
      await page.locator('[data-field="Denominazione altra lingua"] [data-testid="filter-button"]').click();
      await page.getByTestId('filter-not-empty').check();
      await expect(page.getByTestId('filter-chips')).toContainText(it ? '(non vuoto)' : '(not empty)');
      await shot(`${locale}-filter-empty-sort`);

      await page.getByTestId('open-export').click();
      await expect(page.getByTestId('export-name')).toHaveValue(/Denominazione altra lingua/);
      await shot(`${locale}-export`);

      // the catalogue: dataset actions, and deleting the last resource offers the dataset too
      await page.goto(`${deskstore.url}/${locale}/#/`);
      await page
        .getByRole('button', { name: it ? 'Elimina istat-elenco-comuni-italiani.csv' : 'Delete istat-elenco-comuni-italiani.csv' })
        .click();
      await expect(page.getByTestId('delete-also-dataset')).toBeChecked();
      await shot(`${locale}-catalogue-delete`);
      await page.keyboard.press('Escape');

      // replace a resource's data: the same preview, with the full-text language
      await page.getByTestId('resource-row').filter({ hasText: 'istat-elenco' }).getByTestId('replace-data').click();
      await page.getByTestId('file-input').setInputFiles(ISTAT);
      await expect(page.getByTestId('preview-table')).toBeVisible();
      await expect(page.getByTestId('search-language-select')).toBeVisible();
      await shot(`${locale}-replace-data`);
    });

    test(`cancelled import (${locale})`, async ({ page, openUi, shot }) => {
      await withMillionRowImport(page, openUi, locale, async () => {
        await page.getByTestId('cancel-import').click();
        await expect(page.getByTestId('cancelled-notice')).toContainText(
          locale === 'it' ? 'non è stato aggiunto nulla' : 'nothing was added',
        );
        await shot(`${locale}-import-cancelled`);
      });
    });

    test(`import progress (${locale})`, async ({ page, openUi, shot }) => {
      await withMillionRowImport(page, openUi, locale, async () => {
        await shot(`${locale}-import-progress`);
        await expect(page).toHaveURL(/#\/resource\//, { timeout: 120_000 });
      });
    });
  }
});
