/**
 * A table of about a million rows (the province file four times): the scrollbar reaches the
 * last row although the full height would exceed what a browser can lay out, only the rows in
 * view are in the page, and a jump to the middle loads just that page from the server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile, writeProvinceFile } from './api-helpers';
import { expect, test } from './fixtures';

const ROWS = 262_807 * 4;

test('a million rows: scroll to the end and to the middle', async ({ page, deskstore, openUi, shot }) => {
  const dir = await mkdtemp(join(tmpdir(), 'deskstore-big-'));
  let id: string;
  try {
    const file = join(dir, 'province-x4.csv');
    await writeProvinceFile(file, 4);
    id = await importFile(deskstore, file, 'Province x4');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await openUi('/en/');
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('datastore_search')) requests.push(r.url());
  });
  await page.goto(`${deskstore.url}/en/#/resource/${id}`);
  await expect(page.getByTestId('row-counts')).toContainText('1,051,228 rows');
  const ids = page.locator('[data-testid="grid-row"] [data-field="_id"]');
  await expect(ids.first()).toHaveText('1');
  const grid = page.getByTestId('data-grid');
  expect(await grid.evaluate((el: { scrollHeight: number }) => el.scrollHeight)).toBeLessThan(9_000_000);
  expect(await page.getByTestId('grid-row').count()).toBeLessThan(80);

  // the very end
  await grid.evaluate((el: { scrollTop: number; scrollHeight: number }) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(ids.last()).toHaveText(ROWS.toLocaleString('en'));
  expect(await page.getByTestId('grid-row').count()).toBeLessThan(80);

  // the middle: one page fetched around row ~525,000, not everything before it
  const before = requests.length;
  await grid.evaluate((el: { scrollTop: number; scrollHeight: number; clientHeight: number }) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
  });
  const firstShown = async () => Number((await ids.first().innerText()).replace(/\D/g, ''));
  // Wait for the middle itself: the rows of the end are still shown until the grid re-renders,
  // and they too lie above ROWS / 2.
  await expect.poll(async () => Math.abs((await firstShown()) - ROWS / 2)).toBeLessThan(1000);
  expect(requests.length - before).toBeLessThanOrEqual(3);
  expect(requests.slice(before).every((url) => /offset=5\d{5}/.test(url))).toBe(true);
  await shot('en-table-million-rows');
});
