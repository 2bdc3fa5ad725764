/**
 * Every message code the server can send (`message('area.code', …)` or `code: 'area.code'` in
 * src/main and src/shared) has English and Italian wording under `messages.<code>`, with the
 * same interpolation variables, so the UI never shows a bare English sentence for one of them.
 * Codes must be written as literals for this check to see them.
 */
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import en from '../../../src/renderer/src/i18n/en.json';
import it_ from '../../../src/renderer/src/i18n/it.json';
import { formatMessage } from '../../../src/renderer/src/i18n/format-message';
import { message } from '../../../src/shared/messages';

const sources = import.meta.glob<string>(['../../../src/main/**/*.ts', '../../../src/shared/**/*.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const CODE = String.raw`['"\x60]([a-z0-9_]+(?:\.[a-z0-9_]+)+)['"\x60]`;
const PATTERNS = [new RegExp(String.raw`\bmessage\(\s*${CODE}`, 'g'), new RegExp(String.raw`\bcode:\s*${CODE}`, 'g')];

function serverCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const [file, text] of Object.entries(sources)) {
    for (const pattern of PATTERNS) for (const match of text.matchAll(pattern)) codes.set(match[1]!, file);
  }
  return codes;
}

type Tree = { readonly [key: string]: string | Tree };
function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const key of path.split('.')) node = typeof node === 'object' ? node[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}
const variables = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();

describe('message codes', () => {
  const codes = serverCodes();

  it('the scan finds the codes the server sends (a broken scan would check nothing)', () => {
    expect(codes.has('search.typeahead.too_long')).toBe(true);
    expect(codes.has('filters.empty_needs_boolean')).toBe(true);
  });

  it('every code has en and it wording with the same variables', () => {
    const missing: string[] = [];
    for (const [code, file] of codes) {
      const english = lookup(en, `messages.${code}`);
      const italian = lookup(it_, `messages.${code}`);
      if (english === undefined) missing.push(`en: ${code} (${file})`);
      if (italian === undefined) missing.push(`it: ${code} (${file})`);
      if (english !== undefined && italian !== undefined) expect(variables(italian), code).toEqual(variables(english));
    }
    expect(missing).toEqual([]);
  });

  it("words a message in the user's language, numbers included, and falls back to the server's English", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { en: { translation: en }, it: { translation: it_ } }, lng: 'it', interpolation: { escapeValue: false } });
    const tooLong = message('search.typeahead.too_long', 'The search text is too long.', { max: 1000, length: 12345 });
    expect(formatMessage(tooLong, i18n.t, 'it')).toBe(
      'Il testo da cercare è troppo lungo: al massimo 1.000 caratteri (questo ne ha 12.345).',
    );
    await i18n.changeLanguage('en');
    expect(formatMessage(tooLong, i18n.t, 'en')).toBe('The search text is too long: at most 1,000 characters (this one has 12,345).');
    expect(formatMessage(message('portal.future_code', 'Something new.'), i18n.t, 'en')).toBe('Something new.');
    expect(formatMessage('plain English', i18n.t, 'en')).toBe('plain English');
  });
});
