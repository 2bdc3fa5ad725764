import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRequest } from '../../../src/main/params/search-params';
import { Engine } from '../../../src/main/engine/engine';
import { ValidationError } from '../../../src/main/errors';
import { hasWordStartingWith } from '../../../src/main/engine/search/typeahead';
import { ENGLISH_STOP_WORDS } from '../../../src/main/engine/fts/stop-words';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * `deskstore_q` (search as you type) against a small English-indexed table whose `name`
 * column is mostly unique (row-level inverted index) and whose `region` column repeats
 * (searched through its dictionary): both paths must fold accents, split punctuated names,
 * reach past stems, and always include what `q` finds.
 */
const NAMES = [
  'Colorado Springs',
  'Springfield',
  'Palm Springs',
  'Spring Valley',
  'Città di Castello',
  'Cittadella',
  'San Floriano del Collio-Števerjan',
  'Bolzano/Bozen',
  'University of Bologna',
  'Universities of Padova',
  'The Theatre',
  'Cats and dogs',
  'Catalogue of ships',
  "Sant'Angelo",
  "Reggio nell'Emilia",
  'Bozen Hütte',
];
const REGIONS = ['Trentino-Alto Adige/Südtirol', 'Emilia-Romagna', 'Città metropolitana'];

let engine: Engine;
let dataDir: string;
const rid = '00000000-0000-4000-8000-0000000000aa';

async function ids(params: Record<string, unknown>): Promise<number[]> {
  const out = engine.search(searchRequest({ resource_id: rid, limit: 1000, fields: '_id', sort: '_id', ...params }));
  return (JSON.parse(out.records) as { _id: number }[]).map((r) => r._id);
}

async function names(text: string): Promise<string[]> {
  const out = engine.search(searchRequest({ resource_id: rid, limit: 1000, deskstore_q: text, sort: '_id' }));
  return (JSON.parse(out.records) as { name: string; region: string }[]).map((r) => r.name);
}

beforeAll(async () => {
  dataDir = tempDir();
  engine = new Engine({ dataDir });
  // 16 names × 10 rows: each name 10 times would make `name` a dictionary column too, so
  // names get a running number and stay unique; regions repeat (dictionary column).
  const records = Array.from({ length: 160 }, (_, i) => ({
    name: `${NAMES[i % NAMES.length]!} ${i}`,
    region: REGIONS[i % REGIONS.length]!,
  }));
  engine.packageCreate({ name: 'typeahead' }, 'http://x');
  engine.resourceCreate({ package_id: 'typeahead', id: rid, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({
    resourceId: rid,
    fields: [
      { id: 'name', type: 'text' },
      { id: 'region', type: 'text' },
    ],
    records,
    force: true,
    deleteFields: false,
  });
});

afterAll(async () => {
  await engine.close();
  removeDir(dataDir);
});

const base = (list: string[]) => [...new Set(list.map((n) => n.replace(/ \d+$/, '')))].sort();

describe('deskstore_q', () => {
  it('finds a word as it is typed and once it is complete (stems)', async () => {
    expect(base(await names('Sprin'))).toEqual(['Colorado Springs', 'Palm Springs', 'Spring Valley', 'Springfield']);
    // `springs` is indexed as its stem `spring`: a literal prefix would find nothing
    expect(base(await names('Springs'))).toEqual(['Colorado Springs', 'Palm Springs', 'Spring Valley']);
    // past the stem: `universit` is no prefix of the lexeme `univers`, yet it starts both words
    expect(base(await names('universit'))).toEqual(['Universities of Padova', 'University of Bologna']);
    // and a stem that is a prefix of the typed word does not bring in other words
    expect(base(await names('catalog'))).toEqual(['Catalogue of ships']);
  });

  it('ignores accents and case, in the index and in repeated columns', async () => {
    expect(base(await names('steverjan'))).toEqual(['San Floriano del Collio-Števerjan']);
    expect(base(await names('citta di'))).toEqual(['Città di Castello']);
    // `Città metropolitana` is a region (dictionary column)
    expect((await ids({ deskstore_q: 'citta metro' })).length).toBe(53);
    expect(base(await names('HUTTE'))).toEqual(['Bozen Hütte']);
  });

  it('finds both halves of names joined by a slash, a hyphen or an apostrophe', async () => {
    expect(base(await names('Bozen'))).toEqual(['Bolzano/Bozen', 'Bozen Hütte']);
    expect(base(await names('bolzano/boz'))).toEqual(['Bolzano/Bozen']);
    expect(base(await names('angelo'))).toEqual(["Sant'Angelo"]);
    expect(base(await names('emilia'))).toContain("Reggio nell'Emilia");
    // the region `Trentino-Alto Adige/Südtirol` by its last part, folded
    expect((await ids({ deskstore_q: 'sudtirol' })).length).toBe(54);
    expect((await ids({ deskstore_q: 'romagna' })).length).toBe(53);
  });

  it('drops stop words as q does, unless they are all there is', async () => {
    expect(await ids({ deskstore_q: 'the springs' })).toEqual(await ids({ deskstore_q: 'springs' }));
    expect(base(await names('the'))).toEqual(['The Theatre']);
  });

  it('always includes what q finds, and every row with a word starting with what is typed', async () => {
    const all = engine.search(searchRequest({ resource_id: rid, limit: 1000, sort: '_id' }));
    const rows = JSON.parse(all.records) as { _id: number; name: string; region: string }[];
    // ground truth without the engine: the row's text, folded, has a word starting with the
    // prefix (stop words are not indexed, as in PostgreSQL: `o` cannot find `of`)
    const fold = (t: string) =>
      t
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
    const stop = new Set(ENGLISH_STOP_WORDS);
    const holding = (prefix: string) =>
      rows
        .filter((r) => {
          const text = fold(`${r.name} ${r.region}`);
          const p = fold(prefix);
          return [...text.matchAll(/[\p{L}\p{N}]+/gu)].some((m) => !stop.has(m[0]) && text.slice(m.index).startsWith(p));
        })
        .map((r) => r._id);
    const words = new Set([...NAMES, ...REGIONS].flatMap((n) => n.split(/[^\p{L}]+/u)).filter((w) => w.length > 1));
    for (const word of words) {
      const typed = new Set(await ids({ deskstore_q: word }));
      expect(
        (await ids({ q: word })).filter((id) => !typed.has(id)),
        word,
      ).toEqual([]);
      for (let end = 1; end <= word.length; end++) {
        const prefix = word.slice(0, end);
        const found = new Set(await ids({ deskstore_q: prefix }));
        expect(
          holding(prefix).filter((id) => !found.has(id)),
          `${prefix} (of ${word})`,
        ).toEqual([]);
      }
    }
  });

  it('follows writes: new rows are found, deleted ones are not', async () => {
    await engine.datastoreUpsert({
      resourceId: rid,
      records: [{ name: 'Città Nuova/Neustadt', region: 'Molise' }],
      method: 'insert',
      force: true,
      dryRun: false,
    });
    expect(base(await names('neustadt'))).toEqual(['Città Nuova/Neustadt']);
    expect(base(await names('citta nuo'))).toEqual(['Città Nuova/Neustadt']);
    expect((await ids({ deskstore_q: 'molise' })).length).toBe(1);
    await engine.datastoreDelete({ resourceId: rid, filters: { region: 'Molise' }, force: true });
    expect(await names('neustadt')).toEqual([]);
  });

  it('narrows rows like a filter: table order without a sort, keyset paging works; q still ranks', () => {
    const plain = engine.search(searchRequest({ resource_id: rid, deskstore_q: 'spring', limit: 5, include_next_page: true }));
    const rows = (JSON.parse(plain.records) as { _id: number }[]).map((r) => r._id);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(plain.nextPage).toEqual({ _id: { gt: rows[rows.length - 1] } });
    expect(plain.fields.map((f) => f.id)).not.toContain('rank');
    const withQ = engine.search(searchRequest({ resource_id: rid, deskstore_q: 'spring', q: 'springs', limit: 5 }));
    expect(withQ.fields.map((f) => f.id)).toContain('rank');
  });

  it('works with q and filters (AND), and in facets', async () => {
    const both = await ids({ deskstore_q: 'spring', q: 'colorado', filters: { region: REGIONS[0] } });
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((id) => (id - 1) % 16 === 0 && (id - 1) % 3 === 0)).toBe(true);
    const facets = engine.facets({ resourceId: rid, field: 'region', deskstoreQ: 'citta', plain: true, limit: 10 });
    expect(facets.rows).toBe((await ids({ deskstore_q: 'citta' })).length);
  });

  it('refuses texts too long to be typed, with a message naming the parameter and a coded message for people', () => {
    try {
      engine.search(searchRequest({ resource_id: rid, deskstore_q: 'x'.repeat(1001) }));
      expect.unreachable();
    } catch (err) {
      expect((err as ValidationError).members).toEqual({ deskstore_q: ['At most 1000 characters (this text has 1001)'] });
      expect((err as ValidationError).deskstoreMessage).toMatchObject({
        code: 'search.typeahead.too_long',
        params: { max: 1000, length: 1001 },
      });
    }
    expect(() => engine.search(searchRequest({ resource_id: rid, deskstore_q: 'a '.repeat(600) }))).toThrow(ValidationError);
    expect(() =>
      engine.search(searchRequest({ resource_id: rid, deskstore_q: Array.from({ length: 40 }, (_, i) => `w${i}x`).join(' ') })),
    ).toThrow(/deskstore_q|different words/);
  });
});

describe('hasWordStartingWith', () => {
  it('matches at the start of the text or after a non-word character only', () => {
    expect(hasWordStartingWith('colorado springs', 'spr')).toBe(true);
    expect(hasWordStartingWith('bolzano/bozen', 'boz')).toBe(true);
    expect(hasWordStartingWith('misprint', 'spr')).toBe(false);
    expect(hasWordStartingWith('aspring spring', 'spring')).toBe(true);
  });
});
