import { message } from '../../shared/messages';
import { ImportInputError } from './import-errors';

/**
 * What an import refuses, early and with what to do instead (docs/importing.md, "Limits").
 * Every limit is checked before the work it protects: a header's width before any row is
 * stored, a compressed stream's size and ratio as it expands, a file's estimated size in the
 * store before reading it.
 */

/** PostgreSQL's limit on a table's columns, and so CKAN's: a wider table could not be pushed to a portal either. */
export const MAX_COLUMNS = 1600;

/**
 * The largest table Deskstore accepts (README, "The largest table"): a file whose content is at
 * most 2 GB. The binding limit is the SQLite table file, which the SQL worker reads whole into
 * sql.js (which holds a database as one copy of its file in memory; Node reads at most 2 GiB in
 * one piece); a table's file is about the size of its CSV (156 MB for the benchmark's
 * 152 MB file). Row ids (32-bit) and a column's text (at most 4 GB, column-codec.ts) stay far
 * inside this. Checked on a file's own size before anything is read (a compressed file expands
 * to at least its size), and on a compressed file's content as it expands.
 */
export const MAX_CONTENT_BYTES = 2 * 1024 ** 3;
/**
 * Compression ratios beyond this are refused once this much is expanded: real CSV and XML
 * compress 5–20×, a highly repetitive export maybe 100×; a zip or gzip "bomb" 1000× and more.
 */
export const MAX_RATIO = 200;
export const RATIO_FREE_BYTES = 256 * 1024 ** 2;

export function checkColumnCount(columns: number): void {
  if (columns <= MAX_COLUMNS) return;
  throw new ImportInputError(
    message(
      'limits.too_many_columns',
      `The file has ${columns} columns; a table can have at most ${MAX_COLUMNS} (PostgreSQL's limit, and so CKAN's). ` +
        'Check the delimiter, or split the file.',
      { columns, max: MAX_COLUMNS },
    ),
  );
}

/** Refuses a file bigger than the largest table Deskstore accepts, before any of it is read. */
export function checkFileSize(bytes: number, name: string): void {
  if (bytes <= MAX_CONTENT_BYTES) return;
  throw new ImportInputError(
    message(
      'limits.file_too_big',
      `${name} is ${gb(bytes)}; Deskstore imports files of up to ${gib(MAX_CONTENT_BYTES)}: its SQL engine holds a table's file whole in memory, ` +
        'and a table is about as big as its file. Split the file, or filter it before importing.',
      { name, size: gb(bytes), max: gib(MAX_CONTENT_BYTES) },
    ),
  );
}

/** Throws when `expanded` bytes from `compressed` bytes of input are beyond the limits. */
export function checkExpansion(expanded: number, compressed: number, what: string): void {
  if (expanded > MAX_CONTENT_BYTES) {
    throw new ImportInputError(
      message('limits.content_too_big', `${what} expands to more than ${gib(MAX_CONTENT_BYTES)}, more than Deskstore imports.`, {
        name: what,
        max: gib(MAX_CONTENT_BYTES),
      }),
    );
  }
  if (expanded > RATIO_FREE_BYTES && expanded > compressed * MAX_RATIO) {
    throw new ImportInputError(
      message('limits.compression_ratio', `${what} expands more than ${MAX_RATIO} times: it looks like a decompression bomb, not data.`, {
        name: what,
        max: MAX_RATIO,
      }),
    );
  }
}

function gib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 3)} GB`;
}

function gb(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}
