import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPAIR_CHOICES, REPAIR_KINDS } from '../../../src/shared/wire/import';

/** Every Message code the importer can send has an English and an Italian string (i18n key messages.<code>). */
const ROOT = join(__dirname, '../../../src');
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function codes(): string[] {
  const found = new Set<string>();
  for (const file of sources(join(ROOT, 'main/importer'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/message\(\s*'([a-z_.0-9]+)'/g)) found.add(m[1]!);
    for (const m of readFileSync(file, 'utf8').matchAll(/\btext\(\s*'([a-z_.0-9]+)'/g)) found.add(m[1]!);
  }
  // Codes built from parts.
  for (const kind of REPAIR_KINDS) for (const action of REPAIR_CHOICES[kind]) found.add(`import.repair.${kind}.${action}`);
  for (const what of ['values', 'decimal_separators', 'date_formats', 'zones']) found.add(`import.type.mixed_${what}`);
  for (const order of ['iso', 'dmy']) for (const dates of ['', '_with_dates']) found.add(`import.type.timestamp_${order}${dates}`);
  return [...found].sort();
}

function lookup(tree: unknown, code: string): unknown {
  return `messages.${code}`.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], tree);
}

describe('message strings', () => {
  const all = codes();
  it('finds the codes', () => {
    expect(all.length).toBeGreaterThan(60);
    expect(all).toContain('limits.too_many_columns');
  });
  for (const lang of ['en', 'it']) {
    it(`${lang} words every code`, () => {
      const tree = JSON.parse(readFileSync(join(ROOT, `renderer/src/i18n/${lang}.json`), 'utf8')) as unknown;
      expect(all.filter((code) => typeof lookup(tree, code) !== 'string')).toEqual([]);
    });
  }
});
