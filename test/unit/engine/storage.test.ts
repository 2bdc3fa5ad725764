import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Column } from '../../../src/main/engine/column-store/column';
import { TableStore } from '../../../src/main/engine/column-store/table-store';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { CorruptContainerError, encodeContainer } from '../../../src/main/engine/storage/binary-container';
import { FileSections } from '../../../src/main/engine/storage/file-sections';
import { decodeColumns, encodeColumns } from '../../../src/main/engine/storage/column-codec';
import { writeFileDurably } from '../../../src/main/engine/storage/durable-files';
import { StorageError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

const dir = tempDir();
const containers = tempDir();
afterAll(() => {
  removeDir(dir);
  removeDir(containers);
});

/** A container written to a file and read back through FileSections, as the engine reads it. */
function readBack(bytes: Buffer): { header: Record<string, unknown>; sections: Uint8Array[] } {
  const path = join(containers, `container-${readBackCount++}`);
  writeFileSync(path, bytes);
  const file = FileSections.open(path);
  const sections = (file.header.sections as unknown[]).map((_, i) => file.read(i));
  return { header: file.header, sections };
}
let readBackCount = 0;

describe('binary container', () => {
  it('round-trips a header and aligned sections', () => {
    const sections = [new Uint8Array([1, 2, 3]), new Uint8Array(new Uint32Array([7, 8, 9]).buffer), new Uint8Array(0)];
    const file = Buffer.concat(encodeContainer({ hello: 'world' }, sections));
    const { header, sections: back } = readBack(file);
    expect(header.hello).toBe('world');
    expect(back.map((s) => [...s])).toEqual(sections.map((s) => [...s]));
    expect(back.every((s) => s.byteOffset % 8 === 0)).toBe(true);
  });
  it('refuses files that are not containers or are cut short', () => {
    expect(() => readBack(Buffer.from('hello'))).toThrow(CorruptContainerError);
    const file = Buffer.concat(encodeContainer({}, [new Uint8Array(1000)]));
    expect(() => readBack(file.subarray(0, file.length - 10))).toThrow(CorruptContainerError);
  });
});

describe('column codec', () => {
  it('round-trips text, numbers, booleans, NULLs, deleted rows and repeating dictionaries', () => {
    const text = new Column('t', fieldTypeOf('text'), [null, 'a', 'città', 'a'], Uint32Array.from([0, 1, 2, 0, 3]), true);
    const num = new Column('n', fieldTypeOf('numeric'), [null, 1.5, -2], Uint32Array.from([0, 2, 1, 0, 1]));
    const flag = new Column('b', fieldTypeOf('bool'), [null, 0, 1], Uint32Array.from([0, 1, 2, 0, 0]));
    const live = Uint8Array.from([0, 1, 1, 0, 1]);
    const store = new TableStore([text, num, flag], live, 4);
    const sections: Uint8Array[] = [];
    const header = encodeColumns(store, sections);
    const back = decodeColumns(JSON.parse(JSON.stringify(header)), sections);
    expect(back.rowCount).toBe(3);
    expect([1, 2, 4].map((r) => back.rowValues(r))).toEqual([1, 2, 4].map((r) => store.rowValues(r)));
    expect(back.column('t')!.mayRepeat).toBe(true);
    expect(back.column('t')!.codesOf('a')).toEqual([1, 3]);
    expect(back.column('t')!.canonicalCodes()[3]).toBe(1);
  });
});

describe('durable file writes', () => {
  it('replaces a file atomically and leaves no temporary file behind on failure', () => {
    const target = join(dir, 'x.bin');
    writeFileDurably(target, [Buffer.from('one')]);
    writeFileDurably(target, [Buffer.from('two')]);
    expect(readdirSync(dir)).toEqual(['x.bin']);
    expect(() => writeFileDurably(join(dir, 'missing-folder', 'y.bin'), [Buffer.from('z')])).toThrow(StorageError);
    expect(readdirSync(dir)).toEqual(['x.bin']);
  });
});
