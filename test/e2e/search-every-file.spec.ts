/**
 * The search box on every vendored data file, with words taken from the file: the count the
 * table shows is at least what `datastore_search` with `q` finds for the same words, and while
 * the word is still being typed (a prefix of it) the table finds every one of those rows that
 * holds a word starting with what was typed.
 */
import type { Page } from '@playwright/test';
import { basename, join } from 'node:path';
import { recordHasWordStartingWith, wordsFrom } from '../helpers/data-words';
import type { ActionParams } from '../../src/shared/wire/actions';
import { action, importFile } from './api-helpers';
import { DATA, expect, test } from './fixtures';

const FILES = [
  'istat-elenco-comuni-italiani.csv',
  'mise-carburanti-prezzo_alle_8-2022-03-24.csv',
  'dpc-covid19-ita-note.csv',
  'country-codes.csv',
  'world-cities.csv',
  'dpc-covid19-ita-province.csv.gz',
];

interface Found {
  total: number;
  records: Record<string, unknown>[];
}

/** Types `text` in the search box and waits for the table to say it shows `count` of `total` rows. */
async function expectShown(page: Page, text: string, count: number, total: number): Promise<void> {
  await page.getByTestId('table-search').fill(text);
  await page.getByTestId('table-search').press('Enter');
  await expect(page.getByTestId('row-counts')).toContainText(`${count.toLocaleString('en')} of ${total.toLocaleString('en')} row`);
}

for (const file of FILES) {
  test(`search as you type finds at least what q finds: ${file}`, async ({ page, deskstore, openUi }) => {
    const id = await importFile(deskstore, join(DATA, file), basename(file).replace(/\..*/, ''));
    const search = (params: Omit<ActionParams<'datastore_search'>, 'resource_id' | 'id'>): Promise<Found> =>
      action(deskstore, 'datastore_search', { resource_id: id, ...params }).then((found) => ({
        total: found.total!,
        records: found.records,
      }));
    const total = (await search({ limit: 0 })).total;
    const sample = [...(await search({ limit: 100 })).records, ...(await search({ limit: 100, offset: Math.floor(total / 2) })).records];
    // the first words of the sample that q finds (stop words of the index's language find nothing)
    const words: string[] = [];
    for (const word of wordsFrom(sample, 40)) {
      if (words.length < 2 && (await search({ q: word, limit: 0 })).total > 0) words.push(word);
    }
    expect(words).toHaveLength(2);

    await openUi('/en/');
    await page.goto(`${deskstore.url}/en/#/resource/${id}`);
    await expect(page.getByTestId('grid-row').first()).toBeVisible();
    for (const word of words) {
      const byQ = await search({ q: word, limit: 32000 });
      const shown = (await search({ deskstore_q: word, limit: 0 })).total;
      await expectShown(page, word, shown, total);
      expect(shown, word).toBeGreaterThanOrEqual(byQ.total);

      const prefix = word.slice(0, Math.max(3, word.length - 2));
      const holding = byQ.records.filter((record) => recordHasWordStartingWith(record, prefix)).length;
      const whileTyping = (await search({ deskstore_q: prefix, limit: 0 })).total;
      await expectShown(page, prefix, whileTyping, total);
      expect(whileTyping, `${prefix} (of ${word})`).toBeGreaterThanOrEqual(holding);
      expect(holding, `${prefix} (of ${word})`).toBeGreaterThan(0);
    }
  });
}
