/**
 * The grid as people expect it (issue 15): resize, reorder and freeze columns, remembered per
 * resource; select cells with the keyboard and copy them as TSV; side panels that leave the
 * data in view at 900 px; a usable page at 390 px; dark mode following the system.
 */
import type { Locator, Page } from '@playwright/test';
import { importFile } from './api-helpers';
import { ISTAT, expect, test } from './fixtures';

const NAME = 'Codice Regione'; // on screen, so its edge can be dragged
const REGION = 'Denominazione Regione';

async function openIstat(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}/en/#/resource/${id}`);
  await expect(page.getByTestId('grid-row').first()).toBeVisible();
}

const box = async (l: Locator) => (await l.boundingBox())!;

test('columns are resized, moved and frozen, and the layout is remembered', async ({ page, deskstore, openUi }) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await openIstat(page, deskstore.url, id);
  const header = (field: string) => page.locator(`[role="columnheader"][data-field="${field}"]`);

  // resize by dragging the edge, and with the keyboard
  const before = (await box(header(NAME))).width;
  const handle = header(NAME).getByTestId('resize-handle');
  const h = await box(handle);
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + 120, h.y + h.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await box(header(NAME))).width).toBeGreaterThan(before + 100);
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  const resized = (await box(header(NAME))).width;

  // move the region column one place left with Alt+ArrowLeft on its sort button
  const order = () => page.locator('[role="columnheader"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
  const start = await order();
  const at = start.indexOf(REGION);
  await header(REGION).locator('.sort-button').focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect.poll(order).toEqual([...start.slice(0, at - 1), REGION, start[at - 1], ...start.slice(at + 1)]);

  // freeze the first two columns: they stay put when the grid scrolls sideways
  await page.getByTestId('open-columns').click();
  await page.getByTestId('freeze-columns').fill('2');
  await page.getByTestId('open-columns').click();
  const frozen = page.locator('[data-testid="grid-row"]').first().locator('.grid-cell').nth(2);
  const x0 = (await box(frozen)).x;
  await page.getByTestId('data-grid').evaluate((el: { scrollLeft: number }) => {
    el.scrollLeft = 600;
  });
  await expect.poll(async () => (await box(frozen)).x).toBeCloseTo(x0, 0);
  const third = page.locator('[data-testid="grid-row"]').first().locator('.grid-cell').nth(3);
  expect((await box(third)).x).toBeLessThan(x0);

  // all of it survives a reload
  await page.reload();
  await expect(page.getByTestId('grid-row').first()).toBeVisible();
  expect(Math.round((await box(header(NAME))).width)).toBe(Math.round(resized));
  expect((await order()).indexOf(REGION)).toBe(at - 1);
  await page.getByTestId('open-columns').click();
  await expect(page.getByTestId('freeze-columns')).toHaveValue('2');
  await page.getByTestId('reset-layout').click();
  await expect(page.getByTestId('freeze-columns')).toHaveValue('0');
  expect(await order()).toEqual(start);
});

test('cells are selected from the keyboard and copied as TSV; Enter opens the row', async ({ page, context, deskstore, openUi }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await page.goto(
    `${deskstore.url}/en/#/resource/${id}?hidden=${encodeURIComponent(JSON.stringify(['Codice Regione', "Codice dell'Unità territoriale sovracomunale \n(valida a fini statistici)"]))}`,
  );
  await expect(page.getByTestId('grid-row').first()).toBeVisible();
  await page.getByTestId('data-grid').focus();
  await page.keyboard.press('ArrowDown'); // the cursor appears on the first row
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.locator('.grid-cell.selected')).toHaveCount(4);
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('grid-copied')).toHaveText('4 cells copied');
  const copied = await page.evaluate<string>('navigator.clipboard.readText()');
  const lines = copied.split('\n').map((l: string) => l.split('\t'));
  expect(lines).toHaveLength(2);
  expect(lines.every((l: string[]) => l.length === 2)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/resource\/[^/]+\/row\/2/);
  await expect(page.getByRole('heading', { name: 'Row 2' })).toBeVisible();
});

test('side panels leave the data in view at 900 px; the page works at 390 px; dark mode follows the system', async ({
  page,
  deskstore,
  openUi,
  shot,
}) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await page.setViewportSize({ width: 900, height: 800 });
  await openUi('/en/');
  await openIstat(page, deskstore.url, id);
  for (const panel of ['open-profile', 'open-conditions', 'open-columns', 'open-api']) {
    await page.getByTestId(panel).click();
    const side = page.locator('.side-panel');
    await expect(side).toBeVisible();
    const g = await box(page.getByTestId('data-grid'));
    const s = await box(side);
    const overlap = g.x < s.x + s.width && s.x < g.x + g.width && g.y < s.y + s.height && s.y < g.y + g.height;
    expect(overlap, `${panel} covers the grid`).toBe(false);
    expect(g.height, `${panel} leaves the grid too little room`).toBeGreaterThanOrEqual(200);
    expect(g.width).toBeGreaterThan(800);
    await page.getByTestId(panel).click();
  }
  await page.getByTestId('open-profile').click();
  await shot('en-narrow-900-profile');

  await page.setViewportSize({ width: 390, height: 844 });
  await openIstat(page, deskstore.url, id);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(1);
  for (const testId of ['table-search', 'view-map', 'open-conditions', 'open-export']) {
    const b = await box(page.getByTestId(testId));
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
  await expect(page.getByTestId('grid-row').nth(3)).toBeVisible();
  await shot('en-narrow-390');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openIstat(page, deskstore.url, id);
  expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(18, 22, 28)');
  expect(await page.evaluate('getComputedStyle(document.querySelector(\'[data-testid="data-grid"]\')).backgroundColor')).toBe(
    'rgb(27, 33, 41)',
  );
  await page.getByTestId('open-profile').click();
  await expect(page.getByTestId('profile-stats')).toBeVisible();
  await shot('en-dark');
});
