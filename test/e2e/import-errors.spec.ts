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
  await expect(page.getByText('anche compresso (.gz)', { exact: false })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByText('Non sono state trovate colonne', { exact: false })).toBeVisible();
  await expect(page.getByTestId('start-import')).toBeDisabled();

  // a spreadsheet or other binary file is refused at the preview, with what to do instead
  const binary = join(dir, 'binario.csv');
  await writeFile(binary, Buffer.concat([Buffer.from('PK\u0003\u0004'), (await readFile(process.execPath)).subarray(0, 4000)]));
  await page.getByRole('button', { name: 'Scegli un altro file' }).click();
  await page.getByTestId('file-input').setInputFiles(binary);
  const refused = page.getByRole('alert').filter({ hasText: 'Questo è un foglio di calcolo, non un file CSV' });
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('salvalo come CSV');
  await expect(page.getByTestId('preview-table')).toHaveCount(0);

  // a file whose problem lies past the previewed start fails during the import itself
  const late = join(dir, 'riga-rotta.csv');
  const good = Array.from({ length: 30_000 }, (_, i) => `${i};valore ${i}`).join('\n');
  await writeFile(late, `numero;testo\n${good}\n1;2;3;4;5\n`);
  await page.getByRole('button', { name: 'Riprova' }).click();
  await page.getByTestId('file-input').setInputFiles(late);
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await page.getByTestId('start-import').click();
  await expect(page.getByRole('alert').filter({ hasText: "L'importazione non è riuscita" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Non è stata importata nessuna riga', { exact: false })).toBeVisible();
  await expect(page.getByText('Row 30001 has 5 cells but the header has 2', { exact: false })).toBeVisible();
  // a failed import looks stopped too: nothing ticked
  await expect(page.getByTestId('import-card').locator('.step.done')).toHaveCount(0);
  await page.getByTestId('remove-empty').click();
  await expect(page.getByText("Ciò che l'importazione aveva avviato è stato rimosso.")).toBeVisible();
  // with the dataset made for it
  expect((await action<{ count: number }>(deskstore, 'package_search')).count).toBe(0);
});

test('cancel a running import: nothing is added, not even its dataset, and it looks cancelled (en and it)', async ({ page, deskstore, openUi }) => {
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
  const search = await action<{ count: number }>(deskstore, 'package_search');
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
