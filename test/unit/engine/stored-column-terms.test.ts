import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { Engine } from '../../../src/main/engine/engine';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { encodeIndex, MutableTextIndex, parseTsQuery, plainToTsQuery, type InvertedIndex } from '../../../src/main/engine/fts';
import { encodeContainer } from '../../../src/main/engine/storage/binary-container';
import { encodeColumns } from '../../../src/main/engine/storage/column-codec';
import { writeFileDurably } from '../../../src/main/engine/storage/durable-files';
import { columnsPath, readColumnsFile, writeColumnsFile, type LoadedColumns } from '../../../src/main/engine/storage/resource-files';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import { ResourceText } from '../../../src/main/engine/text-index/resource-text';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { searchRequest } from '../../../src/main/params/search-params';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * Issue 24: the columns searched through their dictionaries (repeating text, dates, booleans)
 * have their lexeme → codes tables written in the columns file (text-index/stored-column-terms.ts),
 * so a restarted server's first `q` reads them instead of tokenizing every distinct value. The
 * answers must be those of tokenizing; a file written before the tables is still searched
 * (by tokenizing); and writes after the file was written are found, removed rows are not.
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

const ROWS = 400;
const REGIONS = ['Emilia-Romagna', 'Trentino-Alto Adige/Südtirol', 'Valle d’Aosta', 'Friuli-Venezia Giulia', 'Veneto', 'Lazio'];
const DAYS = ['2021-12-13', '2019-11-08', '2024-02-29', '2020-01-01'];

function store(): TableStore {
  const regione: StoredValue[] = [null, ...REGIONS];
  const giorno: StoredValue[] = [null, ...DAYS];
  const flag: StoredValue[] = [null, 1, 0];
  const nota: StoredValue[] = [null];
  const codes = [regione, giorno, flag, nota].map(() => new Uint32Array(ROWS + 1));
  for (let r = 1; r <= ROWS; r++) {
    codes[0]![r] = r % 13 === 0 ? 0 : 1 + (r % REGIONS.length);
    codes[1]![r] = 1 + (r % DAYS.length);
    codes[2]![r] = 1 + (r % 2);
    codes[3]![r] = nota.push(`nota ${r} fiume ponte`) - 1;
  }
  const live = new Uint8Array(ROWS + 1).fill(1);
  live[0] = 0;
  return new TableStore(
    [
      new Column('regione', fieldTypeOf('text'), regione, codes[0]!),
      new Column('giorno', fieldTypeOf('date'), giorno, codes[1]!),
      new Column('flag', fieldTypeOf('bool'), flag, codes[2]!),
      new Column('nota', fieldTypeOf('text'), nota, codes[3]!),
    ],
    live,
    ROWS,
  );
}

const INDEXED = new Set(['nota']);

function writeNew(generation: number): void {
  const s = store();
  writeColumnsFile(dir, generation, { store: s, textIndex: buildTextIndex(s, 'italian', INDEXED), indexedColumns: [...INDEXED], ftsLanguage: 'italian' });
}

/** The columns file as Deskstore wrote it before the tables (no `dictionaryTerms` in its header). */
function writeOld(generation: number): void {
  const s = store();
  const textIndex: InvertedIndex = buildTextIndex(s, 'italian', INDEXED);
  const sections: Uint8Array[] = [];
  const columns = encodeColumns(s, sections);
  const text = encodeIndex(textIndex);
  const textSections = text.buffers.map((b) => sections.push(b) - 1);
  const header = { columns, text: { meta: text.meta, sections: textSections, indexedColumns: [...INDEXED] }, ftsLanguage: 'italian' };
  writeFileDurably(columnsPath(dir, generation), encodeContainer(header, sections));
}

function textOf(loaded: LoadedColumns, stored: boolean): ResourceText {
  const index = new MutableTextIndex(loaded.textIndex, loaded.store.maxRowId);
  return new ResourceText(index, loaded.store, 'italian', new Set(loaded.indexedColumns), stored ? loaded.dictionaryTerms : new Map());
}

/** Every way a query reaches the dictionary columns: words, prefixes, folded prefixes and keys. */
function answers(text: ResourceText): unknown[] {
  const q = (words: string) => [...text.match(plainToTsQuery(words, 'italian'))];
  const rows = text.match(parseTsQuery('ven:* | emil:*', 'italian'));
  return [
    q('veneto'),
    q('lazio fiume'),
    q('2024-02-29'),
    q('true'),
    q('false'),
    q('südtirol'),
    q('aosta'),
    q('inesistente'),
    [...rows],
    [...text.rank(parseTsQuery('ven:* | emil:*', 'italian'), rows)],
    [...text.matchFoldedPrefix('sud')],
    [...text.matchFoldedPrefix('aost')],
    [...text.matchFoldedKey('s')],
    [...text.matchFoldedPrefix('2021')],
  ];
}

describe('dictionary term tables in the columns file', () => {
  it('are written for the dictionary-searched columns and answer as tokenizing does, without decoding the dictionary', () => {
    writeNew(1);
    const loaded = readColumnsFile(dir, 1);
    expect([...loaded.dictionaryTerms.keys()].sort()).toEqual(['flag', 'giorno', 'regione']);
    const fromTables = answers(textOf(loaded, true));
    // The tables were read instead of the values: no dictionary was decoded into strings.
    for (const id of ['regione', 'giorno']) expect(loaded.store.column(id)!.fileDictionary).not.toBeNull();
    const tokenized = answers(textOf(readColumnsFile(dir, 1), false));
    expect(fromTables).toEqual(tokenized);
    expect((fromTables[0] as number[]).length).toBe(Math.round((ROWS - ROWS / 13) / REGIONS.length)); // a real answer, not an empty one
    expect((fromTables[11] as number[]).length).toBeGreaterThan(0); // 'aost' reaches Valle d’Aosta
  });

  it('are absent from a file written before them: the columns are tokenized and give the same answers', () => {
    writeOld(2);
    writeNew(3);
    const old = readColumnsFile(dir, 2);
    expect(old.dictionaryTerms.size).toBe(0);
    expect(answers(textOf(old, true))).toEqual(answers(textOf(readColumnsFile(dir, 3), true)));
  });

  it('cover the codes they were written with; codes a write adds are tokenized', () => {
    writeNew(4);
    const loaded = readColumnsFile(dir, 4);
    const regione = loaded.store.column('regione')!;
    regione.set(7, 'Molise');
    const text = textOf(loaded, true);
    expect([...text.match(plainToTsQuery('molise', 'italian'))]).toEqual([7]);
    expect([...text.matchFoldedPrefix('moli')]).toEqual([7]);
  });
});

describe('a resource searched after writes, restarts and checkpoints', () => {
  const rid = '00000000-0000-4000-8000-0000000000c4';
  const dataDirs: string[] = [];
  afterEach(() => {
    for (const d of dataDirs.splice(0)) removeDir(d);
  });

  const total = (engine: Engine, q: string): number =>
    engine.search(searchRequest({ resource_id: rid, q, include_total: true, limit: 1 })).total!;

  it('finds values added by a write and not those whose rows were deleted or changed', async () => {
    const dataDir = tempDir();
    dataDirs.push(dataDir);
    let engine = new Engine({ dataDir });
    engine.packageCreate({ name: 'terms' }, 'http://x');
    engine.resourceCreate({ package_id: 'terms', id: rid, url_type: 'datastore' }, 'http://x');
    const records = Array.from({ length: ROWS }, (_, i) => ({ k: i + 1, regione: REGIONS[i % REGIONS.length], giorno: DAYS[i % DAYS.length], nota: `nota ${i}` }));
    await engine.datastoreCreate({
      resourceId: rid,
      fields: [{ id: 'k', type: 'int4' }, { id: 'regione', type: 'text' }, { id: 'giorno', type: 'date' }, { id: 'nota', type: 'text' }],
      primaryKey: ['k'],
      records,
      force: true,
      deleteFields: false,
    });
    await engine.close(); // a checkpoint: the columns file now holds the tables
    const count = (region: string) => records.filter((r) => r.regione === region).length;

    engine = new Engine({ dataDir });
    expect(total(engine, 'lazio')).toBe(count('Lazio'));
    // Writes on the loaded file: a new value, an update (row 5 was Veneto), a delete.
    expect(records[4]!.regione).toBe('Veneto');
    await engine.datastoreUpsert({ resourceId: rid, records: [{ k: ROWS + 1, regione: 'Molise', giorno: '1999-05-05' }], method: 'insert', force: true, dryRun: false });
    await engine.datastoreUpsert({ resourceId: rid, records: [{ k: 5, regione: 'Basilicata' }], method: 'upsert', force: true, dryRun: false });
    await engine.datastoreDelete({ resourceId: rid, filters: { regione: 'Lazio' }, force: true });
    const expectWritten = (e: Engine) => {
      expect(total(e, 'molise')).toBe(1);
      expect(total(e, '1999-05-05')).toBe(1);
      expect(total(e, 'basilicata')).toBe(1);
      expect(total(e, 'lazio')).toBe(0);
      expect(total(e, 'veneto')).toBe(count('Veneto') - 1);
      expect(total(e, 'emilia')).toBe(count('Emilia-Romagna'));
    };
    expectWritten(engine);

    // The same when the resource is loaded again, its journal replayed over the file's tables.
    engine.cache.evict(rid);
    expectWritten(engine);

    // And after a checkpoint writes a new file (tables built from the written store), restarted.
    await engine.checkpoint(rid);
    expectWritten(engine);
    await engine.close();
    engine = new Engine({ dataDir });
    expectWritten(engine);
    await engine.close();
  });
});
