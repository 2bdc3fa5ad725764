/**
 * Versions and changes in the window (issue 25), against a second Deskstore playing the
 * portal: after a sync the table says "N added, M removed, K changed since <date>"; the
 * Changes view shows those rows in the grid, filtered by kind, a changed cell marked with its
 * old value on hover and when it is the active cell; it has its own URL, exports, shows its
 * API call and compares any two kept versions. A dataset synced on a schedule tells the window
 * what changed. In English and in Italian.
 */
import type { Page } from '@playwright/test';
import type { PortalJobStatus } from '../../src/shared/portal';
import { action } from './api-helpers';
import { expect, test } from './fixtures';
import { startServer, type DeskstoreServer } from './server';

let portal: DeskstoreServer;
let resourceId: string;

async function waitForJob(server: DeskstoreServer, job: PortalJobStatus): Promise<PortalJobStatus> {
  for (let i = 0; i < 600; i++) {
    const now = (await action(server, 'deskstore_portal_job_status', { job_id: job.job_id })) as PortalJobStatus;
    if (now.status !== 'pending' && now.status !== 'running') return now;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the portal job did not finish');
}

/** A portal dataset mirrored into `server`; its resource id. */
async function mirror(server: DeskstoreServer): Promise<string> {
  const pkg = await action(portal, 'package_create', { name: 'prezzi', title: 'Prezzi' });
  const created = await action(portal, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'Listino' },
    fields: [
      { id: 'codice', type: 'text' },
      { id: 'nome', type: 'text' },
      { id: 'prezzo', type: 'numeric' },
    ],
    primary_key: ['codice'],
    records: [
      { codice: 'A', nome: 'citta', prezzo: 2.5 },
      { codice: 'B', nome: 'Bob', prezzo: 3 },
      { codice: 'C', nome: 'Carl', prezzo: 4 },
      { codice: 'D', nome: 'Dora', prezzo: 5 },
    ],
  });
  const job = await waitForJob(server, await action(server, 'deskstore_mirror', { url: `${portal.url}/dataset/prezzi` }));
  expect(job.status).toBe('complete');
  return created.resource_id;
}

/** On the portal: an accent, a price, a row gone, a row new. */
async function changeOnPortal(): Promise<void> {
  await action(portal, 'datastore_upsert', {
    resource_id: resourceId,
    method: 'upsert',
    records: [
      { codice: 'A', nome: 'città' },
      { codice: 'C', prezzo: 40 },
      { codice: 'E', nome: 'Eve', prezzo: 1 },
    ],
  });
  await action(portal, 'datastore_delete', { resource_id: resourceId, filters: { codice: 'D' } });
}

async function mirrorAndSync(server: DeskstoreServer): Promise<void> {
  resourceId = await mirror(server);
  await changeOnPortal();
  const job = await waitForJob(server, await action(server, 'deskstore_sync', { datasets: ['prezzi'] }));
  expect(job.status).toBe('complete');
}

const cell = (page: Page, code: string, field: string) =>
  page
    .getByTestId('grid-row')
    .filter({ has: page.locator(`[data-field="codice"]`, { hasText: new RegExp(`^${code}$`) }) })
    .locator(`[data-field="${field}"]`);

test.beforeEach(async () => {
  portal = await startServer();
});

test.afterEach(async () => {
  await portal.stop();
});

test('after a sync the table says what changed, and the Changes view shows it (en)', async ({ page, deskstore, openUi, shot }) => {
  await mirrorAndSync(deskstore);
  await openUi('/en/');
  await page.goto(`${deskstore.url}/en/#/resource/${resourceId}`);
  const summary = page.getByTestId('changes-summary');
  await expect(summary).toContainText(/^1 added, 1 removed, 2 changed since /);
  await shot('en-changes-summary');
  await summary.getByRole('link', { name: 'Show changes' }).click();

  await expect(page).toHaveURL(new RegExp(`#/resource/${resourceId}/changes$`));
  await expect(page.getByRole('heading', { name: 'Changes in Listino' })).toBeVisible();
  await expect(page.getByTestId('changes-counts')).toContainText('1 added, 1 removed, 2 changed since');
  await expect(page.getByTestId('changes-key')).toHaveText('Rows matched by codice, unique in both versions.');
  await expect(page.getByTestId('grid-row')).toHaveCount(4);
  await expect(cell(page, 'E', '_change')).toHaveText('Added');
  await expect(cell(page, 'D', '_change')).toHaveText('Removed');
  await expect(cell(page, 'D', 'nome')).toHaveClass(/cell-removed/);

  // A changed cell is marked; its old value shows on hover and is read with the cell.
  const accent = cell(page, 'A', 'nome');
  await expect(accent).toHaveText(/^città/); // then the old value, hidden until hover or focus
  await expect(accent).toHaveClass(/cell-changed/);
  await expect(accent).toHaveAttribute('aria-description', 'Before: citta');
  await expect(cell(page, 'A', 'prezzo')).not.toHaveClass(/cell-changed/);
  await accent.hover();
  await expect(accent.locator('.cell-before')).toBeVisible();
  await expect(accent.locator('.cell-before')).toHaveText('Before: citta');
  await shot('en-changes-hover');

  // …and when the keyboard makes it the active cell (the mouse elsewhere).
  await cell(page, 'C', 'codice').click();
  await page.mouse.move(0, 0);
  const grid = page.getByTestId('data-grid');
  const price = cell(page, 'C', 'prezzo');
  await grid.press('ArrowRight');
  await expect(price.locator('.cell-before')).toBeHidden();
  await grid.press('ArrowRight');
  await expect(price).toHaveClass(/active/);
  await expect(price.locator('.cell-before')).toBeVisible();
  await expect(price.locator('.cell-before')).toHaveText('Before: 4');
  await grid.press('ArrowLeft');
  await expect(price.locator('.cell-before')).toBeHidden();

  // Filtered by kind, in the address.
  await page.getByTestId('kind-changed').click();
  await expect(page).toHaveURL(/change=changed/);
  await expect(page.getByTestId('grid-row')).toHaveCount(2);
  await expect(page.getByTestId('kind-changed')).toHaveAttribute('aria-pressed', 'true');

  // Its API call, and its export.
  await page.getByTestId('open-api').click();
  await expect(page.getByTestId('api-url')).toContainText(`/api/3/action/deskstore_changes?resource_id=${resourceId}&change=changed`);
  await page.getByTestId('open-export').click();
  const csv = page.getByTestId('export-csv');
  await expect(csv).toHaveAttribute(
    'href',
    new RegExp(`^/datastore/changes/${resourceId}\\?format=csv&deskstore_filename=.*&change=changed$`),
  );
  const file = await page.request.get(`${deskstore.url}${await csv.getAttribute('href')}`);
  expect((await file.text()).split('\r\n')[0]).toBe('_change,_id,codice,nome,prezzo,_before');
  await shot('en-changes-export');

  // Its own URL: a reload shows the same view; Back undoes the filter.
  await page.reload();
  await expect(page.getByTestId('grid-row')).toHaveCount(2);
  await page.goBack();
  await expect(page.getByTestId('grid-row')).toHaveCount(4);

  // Any two kept versions: a version against itself has nothing.
  const versions = page.getByTestId('version-from').locator('option');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('Version 2');
  await expect(versions.first()).toContainText('(current)');
  await page.getByTestId('version-from').selectOption('2');
  await expect(page).toHaveURL(/from=2&to=2/);
  await expect(page.getByTestId('no-changes')).toBeVisible();
  await expect(page.getByTestId('changes-counts')).toContainText('No rows changed since');
});

test('the same in Italian, and a scheduled sync tells the window what it changed (it)', async ({ page, shot }) => {
  // An "hour" of the schedule lasts two seconds on this server (a test-only setting).
  const server = await startServer({ env: { DESKSTORE_SCHEDULE_HOUR_MS: '2000' } });
  try {
    resourceId = await mirror(server);
    // Changed before the schedule is set: one scheduled sync brings all of it.
    await changeOnPortal();
    await page.goto(`${server.url}/it/#token=${encodeURIComponent(server.token)}`);
    const schedule = page.getByTestId('sync-every');
    await expect(schedule).toHaveValue('0');
    await expect(page.getByTestId('sync-schedule')).toContainText('Sincronizza automaticamente');
    await schedule.selectOption({ label: 'ogni ora' });
    await expect(schedule).toHaveValue('1');
    expect((await action(server, 'package_show', { id: 'prezzi' })).deskstore_sync_schedule).toEqual({ every_hours: 1 });

    const notice = page.getByTestId('sync-notice');
    await expect(notice).toContainText('La sincronizzazione automatica di «prezzi» ha portato modifiche:', { timeout: 60_000 });
    await expect(notice).toContainText('Listino: 1 riga aggiunta, 1 riga rimossa, 2 righe modificate');
    await shot('it-sync-notice');
    await notice.getByRole('link', { name: 'Listino' }).click();

    await expect(page.getByRole('heading', { name: 'Modifiche a Listino' })).toBeVisible();
    await expect(page.getByTestId('changes-counts')).toContainText('1 riga aggiunta, 1 riga rimossa, 2 righe modificate dal');
    await expect(cell(page, 'E', '_change')).toHaveText('Aggiunta');
    const accent = cell(page, 'A', 'nome');
    await expect(accent).toHaveAttribute('aria-description', 'Prima: citta');
    await accent.hover();
    await expect(accent.locator('.cell-before')).toHaveText('Prima: citta');
    await page.getByTestId('kind-removed').click();
    await expect(page.getByTestId('grid-row')).toHaveCount(1);
    await expect(cell(page, 'D', '_change')).toHaveText('Rimossa');
    await expect(page.getByTestId('version-to').locator('option').first()).toContainText('(attuale)');
    await shot('it-changes');

    await page.getByTestId('dismiss-notice').first().click();
    await expect(page.getByTestId('sync-notice')).toHaveCount(0);
    await page.getByRole('link', { name: 'Torna alla tabella' }).click();
    await expect(page.getByTestId('changes-summary')).toContainText('1 riga aggiunta, 1 riga rimossa, 2 righe modificate dal');
  } finally {
    await server.stop();
  }
});
