import { closeSync, existsSync, openSync, readdirSync, readlinkSync, readSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { MutableTextIndex, encodeIndex, type InvertedIndex } from '../../../src/main/engine/fts';
import { FileSections } from '../../../src/main/engine/storage/file-sections';
import { columnsPath, readColumnsFile, writeColumnsFile } from '../../../src/main/engine/storage/resource-files';
import { buildTextIndex } from '../../../src/main/engine/text-index/build-text-index';
import type { StoredValue } from '../../../src/main/engine/values/coerce';
import { StorageError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * Issue 14: a restarted server reads a columns file's codes and number dictionaries at load,
 * text values per cell (then whole once many are used), and the full-text index at the first
 * `q`; the values are the same whichever way they were read.
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

const ROWS = 5_000;

function writeGeneration(generation: number): StoredValue[] {
  return writeGenerationWithIndex(generation).values;
}

function writeGenerationWithIndex(generation: number): { values: StoredValue[]; textIndex: InvertedIndex } {
  const words = ['fiume', 'città', 'scuola', 'strada', 'Forlì', '東京'];
  const values: StoredValue[] = [null];
  for (let i = 1; i <= ROWS; i++) values.push(`${words[i % words.length]} ${i}`);
  const codes = new Uint32Array(ROWS + 1);
  for (let i = 1; i <= ROWS; i++) codes[i] = i;
  const live = new Uint8Array(ROWS + 1).fill(1);
  live[0] = 0;
  const store = new TableStore([new Column('testo', fieldTypeOf('text'), values, codes)], live, ROWS);
  const textIndex = buildTextIndex(store, 'simple', new Set(['testo']));
  writeColumnsFile(dir, generation, { store, textIndex, indexedColumns: ['testo'], ftsLanguage: 'simple' });
  return { values, textIndex };
}

/** A posting list as plain arrays (lists read from the file are Buffers, built ones Uint8Arrays). */
const plain = (list: { rowIds: Uint32Array; tfs: Uint8Array }): { rowIds: number[]; tfs: number[] } => ({ rowIds: [...list.rowIds], tfs: [...list.tfs] });

/** Where section `k` of the columns file's text index starts in the file. */
function textSectionOffset(generation: number, k: number): number {
  const file = FileSections.open(columnsPath(dir, generation));
  const header = file.header as { text: { sections: number[] }; sections: { offset: number }[] };
  return header.sections[header.text.sections[k]!]!.offset;
}

describe('a columns file read in parts', () => {
  it('answers cells from the file, then from the values read whole, with the same values', () => {
    const values = writeGeneration(1);
    const { store } = readColumnsFile(dir, 1);
    const column = store.column('testo')!;
    // A page of cells reads their codes one by one: the column's codes stay in the file.
    for (let r = ROWS; r > ROWS - 100; r--) expect(column.valueOf(r)).toBe(values[r]);
    expect(column.residentCodeBytes).toBe(0);
    // A few cells (range reads), then enough to read the values and codes whole; every one as written.
    for (let r = 1; r <= ROWS; r += 2) expect(column.valueOf(r)).toBe(values[r]);
    expect(column.residentCodeBytes).toBe((ROWS + 1) * 2); // 5,000 values: 2 bytes a code (issue 24)
    for (let r = 1; r <= ROWS; r++) expect(column.valueOf(r)).toBe(values[r]);
    expect(column.values).toEqual(values);
    expect(column.codes[ROWS]).toBe(ROWS);
  });

  it('reads the full-text index at its first use, and a damaged one then fails with a clear error', () => {
    writeGeneration(2);
    const loaded = readColumnsFile(dir, 2);
    expect(typeof loaded.textIndex).toBe('function');
    const index = new MutableTextIndex(loaded.textIndex);
    expect(index.baseIndexIfLoaded).toBeNull();
    // 'fiume' is the word of every row whose number is a multiple of 6.
    expect(index.lookup('fiume').rowIds.length).toBe(Math.floor(ROWS / 6));
    expect(index.baseIndexIfLoaded).not.toBeNull();

    // Damage the term offsets (the index's second section) after the file was loaded.
    writeGeneration(3);
    const damaged = readColumnsFile(dir, 3);
    const file = FileSections.open(columnsPath(dir, 3));
    const header = file.header as { text: { sections: number[] }; sections: { offset: number }[] };
    const termOffsets = header.sections[header.text.sections[1]!]!.offset;
    const fd = openSync(columnsPath(dir, 3), 'r+');
    const four = Buffer.alloc(4);
    readSync(fd, four, 0, 4, termOffsets + 4);
    four.writeUInt32LE(0xffffffff);
    writeSync(fd, four, 0, 4, termOffsets + 4);
    closeSync(fd);
    expect(damaged.store.column('testo')!.valueOf(1)).toBe('città 1'); // the columns still answer
    expect(() => new MutableTextIndex(damaged.textIndex).lookup('fiume')).toThrow(StorageError);
    expect(() => new MutableTextIndex(damaged.textIndex).lookup('fiume')).toThrow(/full-text index .* could not be read/);
  });

  it("reads a term's postings when a query asks for them, with the same answers as the index in memory", () => {
    const { textIndex: built } = writeGenerationWithIndex(4);
    const loaded = readColumnsFile(dir, 4);
    const index = new MutableTextIndex(loaded.textIndex, loaded.store.maxRowId);
    expect(plain(index.lookup('fiume'))).toEqual(plain(built.lookup('fiume')));
    const base = index.baseIndexIfLoaded!;
    // The term table is in memory, the postings (5 bytes each) are not.
    expect(base.residentBytes).toBe(built.termBytes.byteLength + built.termOffsets.byteLength + built.offsets.byteLength);
    expect(base.residentBytes).toBeLessThan(built.termBytes.byteLength + built.termOffsets.byteLength + built.offsets.byteLength + built.postingCount * 5);
    for (let t = 0; t < built.termCount; t += 97) {
      const lexeme = new TextDecoder().decode(built.termBytes.subarray(built.termOffsets[t], built.termOffsets[t + 1]));
      expect(plain(base.lookup(lexeme))).toEqual(plain(built.lookup(lexeme)));
    }
    for (const prefix of ['f', 'fi', 'cit', '1', '12', '東', 'zzz']) {
      expect(index.lookupPrefix(prefix).map(plain)).toEqual(built.lookupPrefix(prefix).map(plain));
      expect(plain(base.lookupPrefixSlice(prefix))).toEqual(plain(built.lookupPrefixSlice(prefix)));
    }
    // A first write does not read every posting (the base's last row is the store's), and a
    // compaction reads them whole: the result is the index as built, then with the write.
    index.removeRow(6);
    expect(base.residentBytes).toBeLessThan(built.termBytes.byteLength + built.termOffsets.byteLength + built.offsets.byteLength + built.postingCount * 5);
    const compacted = index.compact();
    expect(compacted.lookup('fiume').rowIds).toEqual(built.lookup('fiume').rowIds.filter((r) => r !== 6));
    index.addRow(6, ['fiume', '6']);
    expect(encodeIndex(index.compact()).buffers).toEqual(encodeIndex(built).buffers);
  });

  it('a damaged posting list fails when a query reads it, with a clear error; other terms still answer', () => {
    const { textIndex: built } = writeGenerationWithIndex(5);
    const loaded = readColumnsFile(dir, 5);
    // Swap the first two row ids of the term 'fiume' in the file: they no longer ascend.
    const fiume = built.termIndex('fiume');
    const at = textSectionOffset(5, 3) + built.offsets[fiume]! * 4;
    const fd = openSync(columnsPath(dir, 5), 'r+');
    const eight = Buffer.alloc(8);
    readSync(fd, eight, 0, 8, at);
    const swapped = Buffer.concat([eight.subarray(4, 8), eight.subarray(0, 4)]);
    writeSync(fd, swapped, 0, 8, at);
    closeSync(fd);
    const index = new MutableTextIndex(loaded.textIndex, loaded.store.maxRowId);
    expect(index.lookup('scuola').rowIds).toEqual(built.lookup('scuola').rowIds);
    expect(() => index.lookup('fiume')).toThrow(StorageError);
    expect(() => index.lookup('fiume')).toThrow(/full-text index .* could not be read \(rowIds: not ascending/);
  });

  it('keeps the file open for the reads of one piece of work (one descriptor), and closes it soon after', async () => {
    if (!existsSync('/proc/self/fd')) {
      console.log('skipped: no /proc/self/fd to count open files on this system');
      return;
    }
    const values = writeGeneration(7);
    const path = columnsPath(dir, 7);
    const openCopies = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // closed meanwhile (the listing's own descriptor)
        }
      }).length;
    const column = readColumnsFile(dir, 7).store.column('testo')!;
    const soon = () => new Promise((resolve) => setTimeout(resolve, 400));
    await soon();
    expect(openCopies()).toBe(0);
    for (let r = ROWS; r > ROWS - 500; r--) expect(column.valueOf(r)).toBe(values[r]); // a page's cells, one read each
    expect(openCopies()).toBe(1);
    await soon();
    expect(openCopies()).toBe(0);
    expect(column.valueOf(1)).toBe(values[1]); // opened again when needed
  });

  it('a number column answers from its doubles as read, and becomes an array only when scanned', () => {
    const values: StoredValue[] = [null];
    for (let i = 1; i <= ROWS; i++) values.push(i % 10 === 0 ? -0 : i * 1.5 - 7);
    const codes = new Uint32Array(ROWS + 1);
    for (let i = 1; i <= ROWS; i++) codes[i] = i;
    const live = new Uint8Array(ROWS + 1).fill(1);
    live[0] = 0;
    const store = new TableStore([new Column('importo', fieldTypeOf('float'), values, codes)], live, ROWS);
    writeColumnsFile(dir, 6, { store, textIndex: buildTextIndex(store, 'simple', new Set()), indexedColumns: [], ftsLanguage: 'simple' });
    const column = readColumnsFile(dir, 6).store.column('importo')!;
    expect(column.dictionaryBytes()).toBe(ROWS * 8); // the doubles, not an array of ROWS values
    expect(column.distinctCount).toBe(ROWS);
    for (let r = 1; r <= ROWS; r += 3) expect(Object.is(column.valueOf(r), values[r])).toBe(true);
    expect(column.dictionaryBytes()).toBe(ROWS * 8);
    expect(column.values).toEqual(values); // a scan: the array, equal entry by entry (-0 kept)
    expect(Object.is(column.values[10], -0)).toBe(true);
    expect(column.dictionaryBytes()).toBe((ROWS + 1) * 48);
  });
});
