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

test('a file that cannot be imported: the error in Italian, with what to do', async ({ page, openUi }) => {
  const file = join(dir, 'vuoto.csv');
  await writeFile(file, '');
  await openUi('/it/#/import');
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
  await page.getByTestId('remove-empty').click();
  await expect(page.getByText('La risorsa vuota è stata rimossa.')).toBeVisible();
});

test('cancel a running import: nothing is added', async ({ page, deskstore, openUi }) => {
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
  const search = await action<{ results: { resources: unknown[] }[] }>(deskstore, 'package_search');
  expect(search.results.flatMap((p) => p.resources)).toHaveLength(0);
});
