import Papa from 'papaparse';
import { Transform, type TransformCallback } from 'node:stream';
import { openDecodedStream } from './sniff-encoding';
import { RawColumnBuilder } from './raw-columns';
import { trimCell } from './value-parsers';
import { ImportInputError, importCancelled } from './import-errors';
import type { Newline } from './sniff-dialect';

/**
 * Pass one of an import: stream the decoded file through papaparse and dictionary-encode
 * every cell into RawColumnBuilders. Nothing of the file is held whole: only the distinct
 * values of each column and a code per cell.
 */

export interface CsvReadOptions {
  readonly path: string;
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  /** The file's line ending, as sniffed: preamble lines are counted with it. */
  readonly newline: Newline;
  readonly trim: boolean;
  readonly signal?: AbortSignal;
  /** Called about every chunk with rows read so far and decoded characters consumed. */
  readonly onProgress?: (rows: number, chars: number) => void;
}

export interface CsvReadResult {
  readonly header: string[];
  readonly columns: RawColumnBuilder[];
  readonly rows: number;
  /** Rows that had fewer cells than the header (the missing cells are empty). */
  readonly shortRows: number;
  /** A U+FFFD appeared in the text: the encoding guess may have been wrong. */
  readonly sawReplacementCharacter: boolean;
}

/** A CSV problem the user has to fix in the file (or with an option); the message says where. */
export class CsvFormatError extends ImportInputError {}

/**
 * Drops the first `lines` physical lines (a preamble above the header). A `\r\n` line ends
 * at its `\n`, so one character is searched for whatever the line ending, and a chunk boundary
 * between `\r` and `\n` does not matter.
 */
function skipLinesTransform(lines: number, newline: Newline): Transform {
  const end = newline === '\r' ? '\r' : '\n';
  let left = lines;
  return new Transform({
    objectMode: true,
    transform(chunk: string, _enc: BufferEncoding, done: TransformCallback) {
      let text = chunk;
      while (left > 0 && text.length) {
        const nl = text.indexOf(end);
        if (nl < 0) { text = ''; break; }
        text = text.slice(nl + 1);
        left--;
      }
      if (text) this.push(text);
      done();
    },
  });
}

export function readCsv(opts: CsvReadOptions): Promise<CsvReadResult> {
  return new Promise((resolve, reject) => {
    let source: NodeJS.ReadableStream;
    try {
      source = openDecodedStream(opts.path, opts.encoding);
    } catch (err) {
      reject(err);
      return;
    }
    const stream = opts.skipLines > 0 ? source.pipe(skipLinesTransform(opts.skipLines, opts.newline)) : source;
    let header: string[] | null = null;
    let columns: RawColumnBuilder[] = [];
    let rows = 0;
    let shortRows = 0;
    let chars = 0;
    let replacement = false;
    let failed = false;
    const fail = (err: Error, parser?: Papa.Parser) => {
      if (failed) return;
      failed = true;
      parser?.abort();
      (stream as unknown as { destroy?: () => void }).destroy?.();
      reject(err);
    };
    source.on('error', (err: Error) => fail(err));
    Papa.parse<string[]>(stream, {
      delimiter: opts.delimiter,
      skipEmptyLines: true,
      chunk(results, parser) {
        if (failed) return;
        if (opts.signal?.aborted) return fail(importCancelled(), parser);
        const data = results.data;
        for (let i = 0; i < data.length; i++) {
          const row = data[i]!;
          if (!header) {
            header = row;
            columns = row.map(() => new RawColumnBuilder());
            continue;
          }
          rows++;
          if (row.length > header.length) {
            const extra = row.slice(header.length);
            // Trailing empty cells (a delimiter at the end of the line) are harmless.
            if (extra.some((cell) => trimCell(cell) !== '')) {
              return fail(new CsvFormatError(`Row ${rows} has ${row.length} cells but the header has ${header.length}: `
                + `check the delimiter (${JSON.stringify(opts.delimiter)}) and the quoting around row ${rows}`), parser);
            }
          } else if (row.length < header.length) {
            shortRows++;
          }
          for (let c = 0; c < columns.length; c++) {
            const cell = row[c];
            columns[c]!.add(rows, cell === undefined ? '' : opts.trim ? trimCell(cell) : cell);
          }
        }
        const cursor = results.meta.cursor;
        if (cursor > chars) chars = cursor;
        opts.onProgress?.(rows, chars);
      },
      complete() {
        if (failed) return;
        if (!header) return fail(new CsvFormatError('The file has no header row (it is empty after the skipped lines)'));
        for (const c of columns) {
          c.seal(rows);
          if (!replacement) replacement = c.values.some((v) => v.includes('\uFFFD'));
        }
        resolve({ header, columns, rows, shortRows, sawReplacementCharacter: replacement });
      },
      error(err: Error) {
        fail(err);
      },
    });
  });
}
