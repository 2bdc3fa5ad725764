/**
 * Keyboard and labelling: every control on the main screens has an accessible name, focus
 * is visible, and the table can be searched, sorted and filtered without a mouse.
 */
import type { Locator, Page } from '@playwright/test';
import { importFile } from './api-helpers';
import { ISTAT, expect, test } from './fixtures';

/** Controls without a name: inputs/selects without a label, buttons/links without text or aria-label. */
const UNLABELLED = `(() => {
  const named = (el) => {
    if (el.getAttribute('aria-hidden') === 'true' || el.tabIndex < 0 && el.tagName === 'INPUT' && el.type === 'file') return true;
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return true;
    if ((el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') && el.labels && el.labels.length) return true;
    return (el.tagName === 'BUTTON' || el.tagName === 'A') && el.textContent.trim() !== '';
  };
  return [...document.querySelectorAll('input, select, textarea, button, a[href]')]
    .filter((el) => !named(el)).map((el) => el.outerHTML.slice(0, 120));
})()`;

/** The focused element's outline style (the page's own getComputedStyle; no DOM types here). */
function outlineOf(locator: Locator): Promise<string> {
  return locator.evaluate(
    (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(el).outlineStyle,
  );
}

async function expectAllLabelled(page: Page): Promise<void> {
  expect(await page.evaluate(UNLABELLED)).toEqual([]);
}

test('controls are labelled and the table works from the keyboard', async ({ page, deskstore, openUi }) => {
  const id = await importFile(deskstore, ISTAT, 'ISTAT comuni');
  await openUi('/en/');
  await expectAllLabelled(page);

  // the first Tab reaches the skip link, which moves focus to the content
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  expect(await outlineOf(skip)).toMatch(/solid|auto/);

  await page.goto(`${deskstore.url}/en/#/resource/${id}`);
  await expect(page.getByTestId('grid-row').first()).toBeVisible();
  await expectAllLabelled(page);
  const searchBox = page.getByLabel('Search all columns');
  await searchBox.focus();
  await page.keyboard.type('bolzano');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('row-counts')).toContainText('of 7,901 rows match');

  // sort with the keyboard: focus the column's sort button, press Enter
  const sortButton = page.getByRole('button', { name: 'Sort by Denominazione in italiano' });
  await sortButton.focus();
  await expect(sortButton).toBeFocused();
  expect(await outlineOf(sortButton)).toMatch(/solid|auto/);
  await page.keyboard.press('Enter');
  await expect(page.locator('[role="columnheader"][data-field="Denominazione in italiano"]')).toHaveAttribute('aria-sort', 'ascending');

  // open a filter with the keyboard, choose a value with Space, close with Escape
  await page.getByRole('button', { name: 'Filter Denominazione Regione' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('facet-search')).toBeFocused();
  await expect(page.getByTestId('filter-panel').getByRole('checkbox').first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('filter-panel').getByRole('checkbox').first()).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('filter-chips')).toBeVisible();
  await expectAllLabelled(page);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('filter-panel')).toHaveCount(0);

  // the API panel's tabs move with the arrow keys
  await page.getByTestId('open-api').click();
  await expectAllLabelled(page);
  await page.getByTestId('snippet-tab-curl').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('snippet-tab-python')).toBeFocused();
  await expect(page.getByTestId('snippet-tab-python')).toHaveAttribute('aria-selected', 'true');

  // the import screen
  await page.goto(`${deskstore.url}/en/#/import`);
  await expectAllLabelled(page);
  await page.getByTestId('file-input').setInputFiles(ISTAT);
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await expectAllLabelled(page);
});
