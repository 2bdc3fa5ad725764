import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf, type FieldType } from '../../../src/main/engine/field-types';
import type { InvertedIndex } from '../../../src/main/engine/fts';
import { buildResourceVersion } from '../../../src/main/engine/import/build-version';
import { SpilledTextIndex } from '../../../src/main/engine/import/spilled-text-index';
import { StreamedVersionWriter, type ColumnChunk, type StreamedColumn } from '../../../src/main/engine/import/version-writer';
import { loadSqlJs } from '../../../src/main/engine/sqlite/sql-js';
import { readColumnsFile, sqlitePath } from '../../../src/main/engine/storage/resource-files';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { lcg } from '../../helpers/random';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * An import streamed a chunk at a time (engine/import/version-writer.ts) must write the same
 * generation as one built from the whole column store (build-version.ts): the same values and
 * codes, the same full-text index term by term, the same table; and leave no spill behind.
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

const WORDS = ['fiume', 'città', 'scuola', 'strada', 'Forlì', '東京', 'running', 'the', 'ponte', 'x1', 'dell’acqua'];

interface Spec {
  id: string;
  type: FieldType;
  /** Values known up front; further ones arrive with the rows (each new one gets a new code). */
  fixed: number;
  value: (rnd: () => number, row: number) => StoredValue;
}

const SPECS: Spec[] = [
  {
    id: 'testo',
    type: fieldTypeOf('text'),
    fixed: 50,
    value: (r, row) => (r() < 0.05 ? null : `${WORDS[Math.floor(r() * WORDS.length)]} ${row} ${WORDS[row % 7]}`),
  },
  { id: 'regione', type: fieldTypeOf('text'), fixed: Infinity, value: (r) => (r() < 0.1 ? null : WORDS[Math.floor(r() * 5)]!) },
  {
    id: 'importo',
    type: fieldTypeOf('numeric'),
    fixed: 10,
    value: (r) => (r() < 0.2 ? `${Math.floor(r() * 100)}.50` : Math.floor(r() * 1e6) / 100),
  },
  { id: 'n', type: fieldTypeOf('int4'), fixed: 0, value: (_r, row) => row * 3 },
  { id: 'flag', type: fieldTypeOf('bool'), fixed: Infinity, value: (r) => (r() < 0.5 ? 1 : 0) },
  { id: 'giorno', type: fieldTypeOf('date'), fixed: Infinity, value: (r) => `2024-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}` },
  // A lone surrogate (possible only from JSON input) cannot go through UTF-8: the JSON form keeps it.
  { id: 'strano', type: fieldTypeOf('text'), fixed: 3, value: (_r, row) => (row % 997 === 0 ? `x\ud800${row}` : `riga ${row}`) },
];

/** Columns as an import produces them: a dictionary of the first values, then values that arrive. */
function generate(rows: number, seed: number): { columns: StreamedColumn[]; codes: Uint32Array[]; arrivals: StoredValue[][] } {
  const rnd = lcg(seed);
  const columns: StreamedColumn[] = [];
  const codes: Uint32Array[] = [];
  const arrivals: StoredValue[][] = [];
  for (const spec of SPECS) {
    const dictionary: StoredValue[] = [null];
    const lookup = new Map<StoredValue, number>();
    const arrived: StoredValue[] = [];
    const c = new Uint32Array(rows);
    for (let r = 0; r < rows; r++) {
      const v = spec.value(rnd, r + 1);
      if (v === null) continue;
      const known = lookup.get(v);
      if (known !== undefined) c[r] = known;
      else if (dictionary.length <= spec.fixed) {
        lookup.set(v, dictionary.length);
        c[r] = dictionary.length;
        dictionary.push(v);
      } else {
        c[r] = dictionary.length + arrived.length;
        arrived.push(v);
      }
    }
    columns.push({ id: spec.id, type: spec.type, mayRepeat: arrived.length > 0, dictionary, entries: dictionary.length + arrived.length });
    codes.push(c);
    arrivals.push(arrived);
  }
  return { columns, codes, arrivals };
}

/**
 * `early`: the arriving texts of column `testo` from the second chunk on are indexed apart, as
 * the import's second worker does while the file is read (spilled-text-index.ts), and merged.
 */
function writeStreamed(
  generation: number,
  rows: number,
  chunkRows: number,
  runRows: number,
  seed: number,
  early = false,
): StreamedColumn[] {
  const { columns, codes, arrivals } = generate(rows, seed);
  const testo = columns.findIndex((c) => c.id === 'testo');
  const elsewhere = early ? new SpilledTextIndex(dir, `early-${generation}`, 'english') : null;
  const writer = new StreamedVersionWriter({
    resourceId: 'streamed-table',
    dir,
    generation,
    columns,
    rows,
    ftsLanguage: 'english',
    runRows,
    ...(early ? { indexedElsewhere: new Map([['testo', chunkRows + 1]]) } : {}),
  });
  const sent = columns.map((c) => c.dictionary.length);
  for (let first = 0; first < rows; first += chunkRows) {
    const count = Math.min(chunkRows, rows - first);
    const chunk: ColumnChunk[] = columns.map((c, i) => {
      const part = codes[i]!.slice(first, first + count);
      let top = sent[i]!;
      for (const code of part) top = Math.max(top, code + 1);
      const values = arrivals[i]!.slice(sent[i]! - c.dictionary.length, top - c.dictionary.length);
      sent[i] = Math.max(sent[i]!, top);
      return { codes: part, values };
    });
    if (elsewhere && first >= chunkRows) {
      const { codes: part, values } = chunk[testo]!;
      const rowIds = Uint32Array.from(
        Array.from(part.keys())
          .filter((k) => part[k]! >= columns[testo]!.dictionary.length)
          .map((k) => first + k + 1),
      );
      elsewhere.add('testo', rowIds, values as string[]);
    }
    writer.addRows(count, chunk);
  }
  writer.finish(elsewhere ? [elsewhere.finish().testo!] : []);
  elsewhere?.remove();
  return columns;
}

async function writeWhole(generation: number, rows: number, seed: number): Promise<void> {
  const { columns, codes, arrivals } = generate(rows, seed);
  const live = new Uint8Array(rows + 1).fill(1);
  live[0] = 0;
  const store = new TableStore(
    columns.map((c, i) => {
      const all = new Uint32Array(rows + 1);
      all.set(codes[i]!, 1);
      return new Column(c.id, c.type, [...c.dictionary, ...arrivals[i]!], all, c.mayRepeat);
    }),
    live,
    rows,
  );
  await buildResourceVersion({ resourceId: 'streamed-table', dir, generation, columns: store.columns, rows, ftsLanguage: 'english' });
}

function indexTerms(index: InvertedIndex): Record<string, number[][]> {
  const out: Record<string, number[][]> = {};
  for (let t = 0; t < index.termCount; t++) {
    const p = index.postings(t);
    out[index.term(t)] = [Array.from(p.rowIds), Array.from(p.tfs)];
  }
  return out;
}

async function tableRows(generation: number): Promise<unknown> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(sqlitePath(dir, generation)));
  try {
    expect(db.exec('PRAGMA integrity_check')[0]!.values).toEqual([['ok']]);
    const cols = SPECS.map((s) => `"${s.id}", typeof("${s.id}")`).join(', ');
    return [
      db.exec(`SELECT _id, ${cols} FROM "streamed-table" ORDER BY _id`)[0]?.values,
      db.exec('SELECT * FROM sqlite_sequence')[0]?.values,
    ];
  } finally {
    db.close();
  }
}

describe('a generation written as its rows stream in', () => {
  it.each([
    [3000, 1000, 1000, 1, false],
    [3000, 777, 500, 2, false],
    [2500, 4096, 100_000, 3, false],
    [3000, 700, 1000, 4, true],
  ])(
    '%i rows in chunks of %i, index runs of %i rows (seed %i; a column indexed apart: %s): the same files as from a whole column store',
    async (rows, chunkRows, runRows, seed, early) => {
      const streamedGen = seed * 10;
      const wholeGen = seed * 10 + 1;
      writeStreamed(streamedGen, rows, chunkRows, runRows, seed, early);
      await writeWhole(wholeGen, rows, seed);
      const streamed = readColumnsFile(dir, streamedGen, true);
      const whole = readColumnsFile(dir, wholeGen, true);
      expect(streamed.indexedColumns).toEqual(whole.indexedColumns);
      expect(streamed.indexedColumns).toContain('testo');
      for (const column of whole.store.columns) {
        const other = streamed.store.column(column.id)!;
        expect(other.values).toEqual(column.values);
        expect(Array.from(other.codes)).toEqual(Array.from(column.codes));
        expect(other.mayRepeat).toBe(column.mayRepeat);
      }
      expect(Array.from(streamed.store.live)).toEqual(Array.from(whole.store.live));
      expect(streamed.store.column('strano')!.values).toContain('x\ud800997');
      const index = (l: typeof whole) => (typeof l.textIndex === 'function' ? l.textIndex() : l.textIndex);
      expect(indexTerms(index(streamed))).toEqual(indexTerms(index(whole)));
      // The dictionary-searched columns' lexeme → codes tables (text-index/stored-column-terms.ts), alike too.
      const tables = (l: typeof whole) => [...l.dictionaryTerms].map(([id, open]) => [id, open().entries, indexTerms(open().index)]);
      expect(tables(streamed)).toEqual(tables(whole));
      expect([...streamed.dictionaryTerms.keys()]).toEqual(['regione', 'flag', 'giorno']);
      expect(await tableRows(streamedGen)).toEqual(await tableRows(wholeGen));
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
  );

  it('removes what it wrote when aborted', () => {
    const { columns } = generate(10, 9);
    const writer = new StreamedVersionWriter({ resourceId: 't', dir, generation: 99, columns, rows: 10, ftsLanguage: 'english' });
    writer.abort();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.startsWith('99.'))).toEqual([]);
  });
});
