import { openSync, readSync, closeSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { MutableTextIndex } from '../../../src/main/engine/fts';
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
  return values;
}

describe('a columns file read in parts', () => {
  it('answers cells from the file, then from the values read whole, with the same values', () => {
    const values = writeGeneration(1);
    const { store } = readColumnsFile(dir, 1);
    const column = store.column('testo')!;
    // A few cells (range reads), then enough to read the values whole; every one as written.
    for (let r = 1; r <= ROWS; r += 7) expect(column.valueOf(r)).toBe(values[r]);
    for (let r = 1; r <= ROWS; r++) expect(column.valueOf(r)).toBe(values[r]);
    expect(column.values).toEqual(values);
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
});
