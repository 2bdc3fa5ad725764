/**
 * Numbers keep their written form in the window (docs/sql-and-values.md): an Italian money
 * column imported from a CSV shows its scale (`2.199,50`, not `2.199,5`) and a 19-digit quantity
 * every digit, in Italian and in English.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile } from './api-helpers';
import { columnTexts, expect, test } from './fixtures';

test('an Italian money column shows its scale, an int8 all its digits', async ({ page, deskstore }) => {
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-exact-'));
  try {
    const file = join(dir, 'spese.csv');
    await writeFile(file, 'voce;importo;quantita\nAffitto;2.199,50;9223372036854775807\nLuce;10,00;12\nAcqua;0,05;9007199254740993\n');
    const id = await importFile(deskstore, file, 'Spese');
    await page.goto(`${deskstore.url}/it/#token=${deskstore.token}`);
    await page.goto(`${deskstore.url}/it/#/resource/${id}`);
    await expect(page.locator('[data-testid="grid-row"] [data-field="_id"]').first()).toHaveText('1');
    expect(await columnTexts(page, 'importo', 3)).toEqual(['2.199,50', '10,00', '0,05']);
    expect(await columnTexts(page, 'quantita', 3)).toEqual(['9.223.372.036.854.775.807', '12', '9.007.199.254.740.993']);

    await page.goto(`${deskstore.url}/en/#/resource/${id}`);
    await expect(page.locator('[data-testid="grid-row"] [data-field="_id"]').first()).toHaveText('1');
    expect(await columnTexts(page, 'importo', 3)).toEqual(['2,199.50', '10.00', '0.05']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
