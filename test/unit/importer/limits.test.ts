import { closeSync, createWriteStream, openSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importFileSize, openByteStream } from '../../../src/main/importer/file-source';
import { formatOf } from '../../../src/main/importer/formats';
import type { ReadProgress } from '../../../src/main/importer/readers/reader';
import { readCsvTable } from '../../../src/main/importer/readers/csv-reader';
import { MAX_CONTENT_BYTES, RATIO_FREE_BYTES } from '../../../src/main/importer/limits';
import { readSqliteFile, sqlitePath } from '../../../src/main/engine/storage/resource-files';
import { StorageError } from '../../../src/main/errors';
import { DATA, fixtureFile } from '../../helpers/fixtures';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/** Issue 8's import limits and issue 9's progress for compressed files. */
const dir = tempDir();
afterAll(() => removeDir(dir));

/** A file of `bytes` that takes no room on disk (sparse): sizes are checked, never read. */
function sparseFile(path: string, bytes: number): string {
  closeSync(openSync(path, 'w'));
  truncateSync(path, bytes);
  return path;
}

describe('the largest table (issue 24)', () => {
  it('a file bigger than 2 GB is refused before any of it is read, saying why; one of exactly 2 GB is not', () => {
    const big = sparseFile(join(dir, 'registro.csv'), MAX_CONTENT_BYTES + 1);
    let refusal: unknown;
    try {
      importFileSize(big);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ name: 'ImportInputError', worded: { code: 'limits.file_too_big', params: { name: 'registro.csv', size: '2.0 GB', max: '2 GB' } } });
    expect((refusal as Error).message).toMatch(/SQL engine holds a table's file whole in memory/);
    // Formats read the file first (a sniffed binary file would be refused as binary): the size comes first.
    expect(importFileSize(sparseFile(join(dir, 'limite.csv'), MAX_CONTENT_BYTES))).toBe(MAX_CONTENT_BYTES);
  });

  it("a table file past 2 GB (grown by writes) fails SQL with what works and what does not, not Node's error", () => {
    sparseFile(sqlitePath(dir, 7), MAX_CONTENT_BYTES + 1);
    expect(() => readSqliteFile(dir, 7)).toThrow(StorageError);
    expect(() => readSqliteFile(dir, 7)).toThrow(/larger than 2 GB, the most Deskstore's SQL engine reads: searches and writes on this table work/);
    writeFileSync(sqlitePath(dir, 8), 'small');
    expect(Buffer.from(readSqliteFile(dir, 8)).toString()).toBe('small');
  });
});

describe('decompression is bounded', () => {
  it('a zip whose entry claims to expand 2 GB from a few bytes is refused before inflating it', async () => {
    const path = fixtureFile('messy', 'bomb.zip');
    const format = await formatOf(path, 'bomb.zip');
    await expect(format.read({ path, name: 'bomb.zip', choices: {} })).rejects.toMatchObject({
      name: 'ImportInputError',
      worded: { code: 'limits.compression_ratio', params: { name: 'dati.csv', max: 200 } },
    });
  });

  it('a gzip that expands beyond the ratio is stopped once past the free allowance, not read to its end', async () => {
    const path = join(dir, 'bomb.csv.gz');
    const line = Buffer.from('1,2,3,4,5,6,7,8\n'.repeat(4096));
    const chunks = Math.ceil((RATIO_FREE_BYTES * 2) / line.length);
    await pipeline(
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield line;
        })(),
      ),
      createGzip({ level: 9 }),
      createWriteStream(path),
    );
    expect(statSync(path).size * 200).toBeLessThan(RATIO_FREE_BYTES);
    let read = 0;
    const consume = async () => {
      for await (const chunk of openByteStream(path)) read += (chunk as Buffer).length;
    };
    await expect(consume()).rejects.toMatchObject({ worded: { code: 'limits.compression_ratio' } });
    expect(read).toBeGreaterThan(RATIO_FREE_BYTES * 0.9);
    expect(read).toBeLessThan(RATIO_FREE_BYTES * 1.1);
  }, 60_000);
});

describe('progress of a .gz counts its uncompressed content', () => {
  it('the province file: bytes against an estimated uncompressed total, not the compressed size', async () => {
    const path = join(DATA, 'dpc-covid19-ita-province.csv.gz');
    const compressed = statSync(path).size;
    const seen: ReadProgress[] = [];
    const table = await readCsvTable({ path, name: 'province.csv.gz', choices: {}, onProgress: (p) => seen.push(p) });
    let uncompressed = 0;
    for await (const chunk of openByteStream(path)) uncompressed += (chunk as Buffer).length;
    expect(uncompressed).toBeGreaterThan(compressed * 5);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((p) => p.estimated)).toBe(true);
    const middle = seen[Math.floor(seen.length / 2)]!;
    // Halfway through, the estimate is within 10% of the real size and the fraction tracks the rows.
    expect(Math.abs(middle.totalBytes - uncompressed) / uncompressed).toBeLessThan(0.1);
    expect(Math.abs(middle.bytes / middle.totalBytes - middle.rows / table.rows)).toBeLessThan(0.1);
    const last = seen.at(-1)!;
    expect(last.rows).toBe(table.rows);
    expect(last.bytes / last.totalBytes).toBeGreaterThan(0.95);
  }, 120_000);
});
