import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { collationKey, collationPrimaryKey, compareCollated } from '../../../src/main/engine/collation/glibc-collation';
import { rankCodes } from '../../../src/main/engine/column-store/sort-order';
import { dataFile, fixtureFile } from '../../helpers/fixtures';

/**
 * Text sorts as PostgreSQL's `en_US.UTF-8` collation on a real CKAN 2.10.10 (issue 23). The
 * expected orders are that CKAN's `datastore_search` answers, sorted by the value, written by
 * scripts/collation/compare-text-order.mjs into test/fixtures/collation/en-us-order.json:
 * hand-picked names, 3000 seeded random strings of letters, digits, punctuation, accents, other
 * scripts and undefined characters, and (as SHA-256 of the whole order) every distinct name of
 * world-cities.csv and of the ISTAT comuni list.
 */
const fixture = JSON.parse(readFileSync(fixtureFile('collation', 'en-us-order.json'), 'utf8')) as {
  ordered: Record<string, string[]>;
  sha256: Record<string, { count: number; sha256: string }>;
};

const byKey = (values: readonly string[]) => {
  const keys = new Map(values.map((v) => [v, collationKey(v)]));
  return [...values].sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : keys.get(a)! > keys.get(b)! ? 1 : 0));
};

/** A deterministic shuffle, so the order found is the key's and not the input's. */
const shuffled = (values: readonly string[]) =>
  [...values]
    .map((v, i) => [(i * 7919) % 104729, v] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, v]) => v);

const distinct = (text: string, delimiter: string, header: string) => {
  const rows = Papa.parse<string[]>(text, { delimiter }).data;
  const at = rows[0]!.indexOf(header);
  return [
    ...new Set(
      rows
        .slice(1)
        .map((r) => r[at])
        .filter((v): v is string => typeof v === 'string' && v !== ''),
    ),
  ];
};

describe('text order (glibc en_US.UTF-8, as CKAN on PostgreSQL)', () => {
  it('reads the rules the issue lists: punctuation ignored first, accents second, lower case first, æ ß ø ł as letters', () => {
    const sorted = byKey([
      'Zed',
      "'Akra",
      'abd',
      'ábc',
      '6th',
      '"  double"',
      '(x)',
      '-dash',
      'æ',
      'ø',
      'ł',
      'ß',
      'z',
      'àbc',
      'Abc',
      'abc',
      'ABC',
    ]);
    expect(sorted).toEqual([
      '6th',
      'abc',
      'Abc',
      'ABC',
      'ábc',
      'àbc',
      'abd',
      'æ',
      "'Akra",
      '-dash',
      '"  double"',
      'ł',
      'ø',
      'ß',
      '(x)',
      'z',
      'Zed',
    ]);
  });

  it('keeps glibc’s own walk of digits and punctuation at the accent level (11a before 1-1a)', () => {
    expect(byKey(['1-1a', '11a', '11', '1-1'])).toEqual(['1-1', '11', '11a', '1-1a']);
  });

  it('orders the hand-picked names as the real CKAN does', () => {
    expect(byKey(shuffled(fixture.ordered.picked!))).toEqual(fixture.ordered.picked);
  });

  it('orders 3000 random strings as the real CKAN does', () => {
    expect(fixture.ordered.random).toHaveLength(3000);
    expect(byKey(shuffled(fixture.ordered.random!))).toEqual(fixture.ordered.random);
  });

  it('orders every world city and every Italian comune as the real CKAN does', () => {
    const sets: Record<string, string[]> = {
      'world-cities name': distinct(readFileSync(dataFile('world-cities.csv'), 'utf8'), ',', 'name'),
      'comuni Denominazione': distinct(
        iconv.decode(readFileSync(dataFile('istat-elenco-comuni-italiani.csv')), 'win1252'),
        ';',
        'Denominazione (Italiana e straniera)',
      ),
    };
    for (const [set, values] of Object.entries(sets)) {
      const expected = fixture.sha256[set]!;
      expect(values).toHaveLength(expected.count);
      expect(createHash('sha256').update(byKey(values).join('\n')).digest('hex'), set).toBe(expected.sha256);
    }
  });

  it('a primary key orders as the full key wherever they differ', () => {
    const values = fixture.ordered.random!;
    for (let i = 1; i < values.length; i++) {
      const [a, b] = [collationPrimaryKey(values[i - 1]!), collationPrimaryKey(values[i]!)];
      expect(a <= b, `${values[i - 1]} / ${values[i]}`).toBe(true);
      expect(collationKey(values[i - 1]!).startsWith(a)).toBe(true);
    }
  });

  it('gives every distinct text its own rank in a column, in that order, and equal texts one rank', () => {
    const picked = fixture.ordered.picked!;
    const dictionary = [null, ...shuffled(picked), picked[3]!];
    const ranks = rankCodes(dictionary, 'text');
    const byRank = dictionary.slice(1).map((v, i) => [ranks[i + 1]!, v] as const);
    expect([...new Set(byRank.sort((a, b) => a[0] - b[0]).map(([, v]) => v))]).toEqual(picked);
    expect(ranks[dictionary.length - 1]).toBe(ranks[dictionary.indexOf(picked[3]!)]);
    expect(new Set(ranks.slice(1)).size).toBe(picked.length);
  });

  it('keys never hold a surrogate, so SQLite (UTF-8 bytes) and JavaScript order them alike', () => {
    for (const v of [...fixture.ordered.random!, '😀𝐀\uffff', '\ud800x']) expect(/[\ud800-\udfff]/.test(collationKey(v))).toBe(false);
    expect(compareCollated('a\uffff', 'a😀')).toBe(-1); // U+FFFF before U+1F600, as strcmp of UTF-8
  });
});
