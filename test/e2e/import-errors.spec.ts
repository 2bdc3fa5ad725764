/** Import failures in the user's language, and cancelling a running import. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { action, writeProvinceFile } from './api-helpers';
import { expect, test } from './fixtures';

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deskstore-err-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a file that cannot be imported: the error in Italian, with what to do', async ({ page, deskstore, openUi }) => {
  const file = join(dir, 'vuoto.csv');
  await writeFile(file, '');
  await openUi('/it/#/import');
  // the picker offers gzipped files too, which import as they are
  await expect(page.getByTestId('file-input')).toHaveAttribute('accept', /(^|,)\.gz(,|$)/);
  await expect(page.getByText('anche compresso in .gz', { exact: false })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByText('Non sono state trovate colonne', { exact: false })).toBeVisible();
  await expect(page.getByTestId('start-import')).toBeDisabled();

  // a legacy .xls workbook is refused at the preview, with what to do instead
  const xls = join(dir, 'vecchio.xls');
  await writeFile(
    xls,
    Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), (await readFile(process.execPath)).subarray(0, 4000)]),
  );
  await page.getByRole('button', { name: 'Scegli un altro file' }).click();
  await page.getByTestId('file-input').setInputFiles(xls);
  const refused = page.getByRole('alert').filter({ hasText: 'Questa è una cartella di lavoro Excel di vecchio formato (.xls)' });
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('salvala come XLSX');
  await expect(page.getByTestId('preview-table')).toHaveCount(0);

  // and so is a binary file that is no format Deskstore reads
  const binary = join(dir, 'binario.csv');
  await writeFile(binary, (await readFile(process.execPath)).subarray(0, 4000));
  await page.getByRole('button', { name: 'Riprova' }).click();
  await page.getByTestId('file-input').setInputFiles(binary);
  await expect(page.getByRole('alert').filter({ hasText: 'Deskstore non può importare questo file' })).toBeVisible();

  // a type chosen in the preview that a value past the previewed start does not fit fails during the import itself
  const late = join(dir, 'valore-tardivo.csv');
  const good = Array.from({ length: 30_000 }, (_, i) => `${i};valore ${i}`).join('\n');
  await writeFile(late, `numero;testo\n${good}\nx;rotto\n`);
  await page.getByRole('button', { name: 'Riprova' }).click();
  await page.getByTestId('file-input').setInputFiles(late);
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await page.locator('[data-testid="type-select"][data-column="numero"]').selectOption('int4');
  await expect(page.locator('[data-testid="type-select"][data-column="numero"]')).toHaveClass(/type-forced/);
  await page.getByTestId('start-import').click();
  await expect(page.getByRole('alert').filter({ hasText: "L'importazione non è riuscita" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Non è stata importata nessuna riga', { exact: false })).toBeVisible();
  // the reason in Italian (a coded message), CKAN-style English kept under the technical details
  await expect(page.getByText('La colonna «numero» non può essere int4', { exact: false })).toBeVisible();
  await expect(page.getByRole('alert').getByText('Column "numero" cannot be int4', { exact: false })).toBeAttached();
  // a failed import looks stopped too: nothing ticked
  await expect(page.getByTestId('import-card').locator('.step.done')).toHaveCount(0);
  await page.getByTestId('remove-empty').click();
  await expect(page.getByText("Ciò che l'importazione aveva avviato è stato rimosso.")).toBeVisible();
  // with the dataset made for it
  expect((await action(deskstore, 'package_search')).count).toBe(0);
});

test('cancel a running import: nothing is added, not even its dataset, and it looks cancelled (en and it)', async ({
  page,
  deskstore,
  openUi,
}) => {
  // about a million rows (the province file four times): several seconds of work
  const file = join(dir, 'province-x4.csv');
  await writeProvinceFile(file, 4);
  await openUi('/en/#/import');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('preview-table')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('start-import').click();
  await expect(page.getByTestId('cancel-import')).toBeEnabled();
  await expect(page.getByTestId('import-rows')).not.toHaveText('0');
  await page.getByTestId('cancel-import').click();
  await expect(page.getByText('The import was cancelled and nothing was added.')).toBeVisible({ timeout: 60_000 });
  // the dataset made for the import went with its resource: no empty card in the catalogue
  const search = await action(deskstore, 'package_search');
  expect(search.count).toBe(0);

  // it looks cancelled: the bar stopped short and greyed, no "Done" figure, no step ticked, the step it stopped in marked
  const card = page.getByTestId('import-card');
  await expect(card.getByRole('heading', { name: 'Import cancelled' })).toBeVisible();
  const bar = page.getByTestId('progress-bar');
  await expect(bar).toHaveClass(/progress-stopped/);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
  await expect(bar).toHaveAttribute('aria-valuetext', /^cancelled after [\d,]+ rows$/);
  await expect(page.getByTestId('import-percent')).toHaveCount(0);
  await expect(card.locator('.step.done')).toHaveCount(0);
  await expect(card.locator('.step.stopped')).toHaveCount(1);
  await expect(card.locator('.step.stopped')).toContainText('(cancelled here)');
  await expect(card).not.toContainText('✓');
  await page.getByTestId('language-it').click();
  await expect(card.getByRole('heading', { name: 'Importazione annullata' })).toBeVisible();
  await expect(page.getByText("L'importazione è stata annullata e non è stato aggiunto nulla.")).toBeVisible();
  await expect(card.locator('.step.stopped')).toContainText('(annullata qui)');
  await page.getByRole('link', { name: 'Catalogo' }).first().click();
  await expect(page.getByTestId('dataset')).toHaveCount(0);
});
