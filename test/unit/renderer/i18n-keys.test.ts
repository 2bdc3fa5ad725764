/**
 * Both languages have exactly the same keys (nested), no empty strings, the same
 * interpolation variables, and every literal key the UI asks for exists.
 */
import { describe, expect, it } from 'vitest';
import en from '../../../src/renderer/src/i18n/en.json';
import it_ from '../../../src/renderer/src/i18n/it.json';

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const english = flatten(en);
const italian = flatten(it_);
const variables = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();

const sources = import.meta.glob<string>('../../../src/renderer/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

describe('translations', () => {
  it('en and it have exactly the same keys', () => {
    expect([...italian.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('no value is empty', () => {
    for (const [lang, map] of [
      ['en', english],
      ['it', italian],
    ] as const) {
      for (const [key, value] of map) expect(value.trim(), `${lang}:${key}`).not.toBe('');
    }
  });

  it('Italian uses only variables the English text also has', () => {
    for (const [key, value] of italian) {
      const allowed = new Set(variables(english.get(key) ?? ''));
      for (const name of variables(value)) expect(allowed.has(name), `${key}: {{${name}}}`).toBe(true);
    }
  });

  it('plural keys come with every form both languages need (one, many, other)', () => {
    const bases = new Set([...english.keys()].filter((k) => /_(one|many|other)$/.test(k)).map((k) => k.replace(/_(one|many|other)$/, '')));
    for (const base of bases) {
      for (const form of ['one', 'many', 'other']) expect(english.has(`${base}_${form}`), `${base}_${form}`).toBe(true);
    }
    // and every category i18next will ask for in each language (Italian's CLDR data adds "many")
    for (const [language, keys] of [
      ['en', english],
      ['it', italian],
    ] as const) {
      for (const category of new Intl.PluralRules(language).resolvedOptions().pluralCategories) {
        for (const base of bases) expect(keys.has(`${base}_${category}`), `${language}: ${base}_${category}`).toBe(true);
      }
    }
  });

  it('every literal key used in the UI exists', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) {
        const key = match[1]!;
        if (!english.has(key) && !english.has(`${key}_other`)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
