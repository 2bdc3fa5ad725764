/**
 * Issue 25 in the window: how the Changes feature words its counts (each count with its own
 * plural form, in both languages) and keeps its view in the address.
 */
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../src/renderer/src/i18n/en.json';
import it_ from '../../../src/renderer/src/i18n/it.json';
import { countsText, sinceText, versionLabel } from '../../../src/renderer/src/features/changes/change-words';
import { changesParams, viewFromQuery, viewToQuery } from '../../../src/renderer/src/features/changes/use-changes-page';

const t = i18next.createInstance();
beforeAll(async () => {
  await t.init({ resources: { en: { translation: en }, it: { translation: it_ } }, lng: 'en', interpolation: { escapeValue: false } });
});

describe('the words of changes', () => {
  it('says each count with its own plural, in English and Italian', async () => {
    await t.changeLanguage('en');
    expect(countsText(t.t, { added: 1, removed: 0, changed: 1234 }, 'en')).toBe('1 added, 0 removed, 1,234 changed');
    await t.changeLanguage('it');
    expect(countsText(t.t, { added: 1, removed: 2, changed: 1234 }, 'it')).toBe('1 riga aggiunta, 2 righe rimosse, 1.234 righe modificate');
    expect(countsText(t.t, { added: 0, removed: 1, changed: 1 }, 'it')).toBe('0 righe aggiunte, 1 riga rimossa, 1 riga modificata');
  });

  it('says since when, or that nothing changed', async () => {
    await t.changeLanguage('en');
    const since = sinceText(t.t, { added: 3, removed: 1, changed: 2 }, '2026-11-27T19:25:40.705Z', 'en');
    expect(since).toMatch(/^3 added, 1 removed, 2 changed since Nov 27, 2026/);
    expect(sinceText(t.t, { added: 0, removed: 0, changed: 0 }, '2026-11-27T19:25:40.705Z', 'en')).toMatch(
      /^No rows changed since Nov 27, 2026/,
    );
    await t.changeLanguage('it');
    expect(sinceText(t.t, { added: 1, removed: 0, changed: 0 }, '2026-11-27T19:25:40.705Z', 'it')).toMatch(
      /^1 riga aggiunta, 0 righe rimosse, 0 righe modificate dal 27 nov 2026/,
    );
  });

  it('names a kept version by number, date, source, rows and size', async () => {
    await t.changeLanguage('it');
    const label = versionLabel(
      t.t,
      { version: 3, created: '2026-11-27T19:25:40Z', rows: 1, source: 'sync', current: true, size_bytes: 14127 },
      'it',
    );
    expect(label).toMatch(/^Versione 3 · 27 nov 2026.* · sincronizzazione · 1 riga · 14,1 kB \(attuale\)$/);
  });
});

describe('the Changes view in the address', () => {
  it('reads and writes versions, kind and panel, ignoring what is not one', () => {
    const view = viewFromQuery(new URLSearchParams('from=2&to=5&change=removed&panel=api'));
    expect(view).toEqual({ from: 2, to: 5, change: 'removed' });
    expect(viewToQuery(view, 'api').toString()).toBe('from=2&to=5&change=removed&panel=api');
    expect(viewFromQuery(new URLSearchParams('from=-1&to=x&change=moved'))).toEqual({ from: null, to: null, change: null });
    expect(changesParams('rid-rid-rid', { from: null, to: 3, change: null })).toEqual({ resource_id: 'rid-rid-rid', to: 3 });
  });
});
