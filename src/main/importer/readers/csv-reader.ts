import Papa from 'papaparse';
import { Transform, type TransformCallback } from 'node:stream';
import { message, type Message } from '../../../shared/messages';
import { contentMeter, openByteStream } from '../file-source';
import { importCancelled } from '../import-errors';
import type { RawTable } from '../raw-table';
import { RepairEvidence } from '../repair-evidence';
import { RowCollector } from '../row-collector';
import { dropLines, type DialectGuess, type Newline } from '../sniff-dialect';
import { createUtf8Validator, openDecodedStream, type DecodeCounter } from '../sniff-encoding';
import { sniffFile } from '../sniff-file';
import type { ReadRequest } from './reader';

/**
 * CSV and TSV (plain or gzip): encoding and dialect are sniffed from the start of the file,
 * then the decoded text streams through papaparse into a RowCollector. Nothing of the file is
 * held whole: only each column's distinct values and a code per cell.
 *
 * Quotes that do not quote (a `"` opening a value that never closes) would make any CSV parser
 * swallow the rest of the file into one cell. papaparse reports them; the file is then read
 * again line by line: each line is one record, parsed with quoting where its quotes balance
 * and split on the delimiter as text where they do not (those rows are reported). A file
 * whose start is valid UTF-8 but whose later bytes are not is read again as Windows-1252.
 */

/**
 * An unclosed quote makes the parser hold everything after it as one open record, re-reading
 * it with every chunk: this many chunks (~256 KB each) in a row without a completed row is
 * taken as one. A legitimate single line that long still reads the same line by line.
 */
const RUNAWAY_CHUNKS = 4;

class RunawayQuote extends Error {}

interface Pass {
  readonly encoding: string;
  readonly dialect: DialectGuess;
  readonly perLine: boolean;
  readonly evidence: RepairEvidence | null;
}

interface PassResult {
  readonly collector: RowCollector;
  readonly complete: boolean;
  readonly replacementCharacter: boolean;
}

export async function readCsvTable(req: ReadRequest): Promise<RawTable> {
  const sniffed = await sniffFile(req.path, req.choices);
  const { dialect } = sniffed;
  const warnings: Message[] = [];
  let encoding = sniffed.encoding;
  const decimalComma = dialect.delimiter !== ',';
  const evidence = learnEvidence(sniffed.text, sniffed.isWholeFile, dialect, decimalComma);
  let perLine = false;
  for (;;) {
    let pass: PassResult;
    try {
      pass = await readPass(req, { encoding, dialect, perLine, evidence });
    } catch (err) {
      if (err instanceof RunawayQuote && !perLine) {
        perLine = true;
        continue;
      }
      throw err;
    }
    if (pass.replacementCharacter && pass.complete && !req.choices.encoding && encoding === 'utf-8' && !(await isWholeFileUtf8(req.path))) {
      // The sample was valid UTF-8 but a later byte is not: the file is really Windows-1252.
      warnings.push(
        message('import.encoding.late_windows_1252', 'The file is not valid UTF-8 after its first 64 KB; it was read as Windows-1252.'),
      );
      encoding = 'windows-1252';
      continue;
    }
    const { header, columns, rows, repairs, spill } = pass.collector.finish();
    return {
      layout: {
        format: 'csv',
        encoding,
        delimiter: dialect.delimiter,
        skipLines: dialect.skipLines,
        headerLine: dialect.headerLine,
        confidence: dialect.confidence,
        reasons: dialect.reasons,
        decimalComma,
      },
      header,
      columns,
      rows,
      repairs,
      warnings,
      complete: pass.complete,
      spill,
    };
  }
}

/**
 * The columns' types as the sample shows them: the evidence for joining a split value. The
 * sample is read as the file will be: line by line when its quotes do not balance.
 */
function learnEvidence(text: string, isWholeFile: boolean, dialect: DialectGuess, decimalComma: boolean): RepairEvidence | null {
  const body = dropLines(text, dialect.skipLines, dialect.newline);
  const parsed = Papa.parse<string[]>(body, { delimiter: dialect.delimiter, newline: dialect.newline, skipEmptyLines: true });
  let records = isWholeFile ? parsed.data : parsed.data.slice(0, -1);
  if (parsed.errors.some((e) => e.type === 'Quotes')) {
    const lines = body
      .split(lineEnd(dialect.newline))
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
      .filter((l) => l !== '');
    records = (isWholeFile ? lines : lines.slice(0, -1)).map((line) => splitLine(line, dialect).cells);
  }
  const [header, ...rows] = records;
  return header ? RepairEvidence.learn(rows, header.length, decimalComma) : null;
}

/** One line read on its own: with quoting where its quotes balance, else split on the delimiter as text. */
function splitLine(line: string, dialect: DialectGuess): { cells: string[]; stray: boolean } {
  if (!line.includes('"')) return { cells: line.split(dialect.delimiter), stray: false };
  const parsed = Papa.parse<string[]>(line, { delimiter: dialect.delimiter, newline: dialect.newline });
  if (parsed.errors.length === 0 && parsed.data.length === 1) return { cells: parsed.data[0]!, stray: false };
  return { cells: line.split(dialect.delimiter), stray: true };
}

async function isWholeFileUtf8(path: string): Promise<boolean> {
  const validator = createUtf8Validator();
  for await (const chunk of openByteStream(path, 1 << 20)) {
    if (!validator.push(chunk as Buffer)) return false;
  }
  return validator.end();
}

/**
 * The decoded text the parser is given, kept until it has been parsed, to tell whether a
 * chunk of records holds any line break inside a cell. When the text a chunk consumed holds
 * exactly as many line ends as the chunk has records, and ends with one, each record is one
 * line and its cells need no searching (newlinesIn: a search per cell, ~10 million of them for
 * a million rows of ten columns). Otherwise the cells are searched as before.
 */
class LineEndLedger {
  private readonly pieces: string[] = [];
  /** Where the first piece starts, in characters of the whole text. */
  private start = 0;
  /** Where the parser's previous chunk ended. */
  private consumed = 0;

  constructor(private readonly end: string) {}

  push(text: string): void {
    this.pieces.push(text);
  }

  /** Whether the records of the chunk that ended at `cursor` (`records` of them, blank lines included) are one line each. */
  oneLineEach(cursor: number, records: number): boolean {
    let ends = 0;
    let last = -1;
    let at = this.start;
    for (const piece of this.pieces) {
      const pieceEnd = at + piece.length;
      if (pieceEnd > this.consumed && at < cursor) {
        const from = Math.max(this.consumed, at) - at;
        const to = Math.min(cursor, pieceEnd) - at;
        for (let i = piece.indexOf(this.end, from); i >= 0 && i < to; i = piece.indexOf(this.end, i + 1)) ends++;
        if (cursor <= pieceEnd) last = piece.charCodeAt(cursor - 1 - at);
      }
      at = pieceEnd;
    }
    const known = cursor <= at && cursor >= this.consumed && cursor > this.start;
    this.consumed = cursor;
    while (this.pieces.length && this.start + this.pieces[0]!.length <= cursor) this.start += this.pieces.shift()!.length;
    return known && ends === records && last === this.end.charCodeAt(0);
  }
}

/** Line breaks in a record's cells: the next record starts that many lines further. */
function newlinesIn(cells: readonly string[], newline: string): number {
  let n = 0;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells[c]!;
    for (let at = cell.indexOf(newline); at >= 0; at = cell.indexOf(newline, at + 1)) n++;
  }
  return n;
}

/** The one character every line ends with, whatever the line ending. */
const lineEnd = (newline: Newline): string => (newline === '\r' ? '\r' : '\n');

/**
 * Drops the first `lines` physical lines (a preamble above the header). A `\r\n` line ends
 * at its `\n`, so one character is searched for whatever the line ending, and a chunk boundary
 * between `\r` and `\n` does not matter.
 */
function skipLinesTransform(lines: number, newline: Newline): Transform {
  const end = lineEnd(newline);
  let left = lines;
  return new Transform({
    objectMode: true,
    transform(chunk: string, _enc: BufferEncoding, done: TransformCallback) {
      let text = chunk;
      while (left > 0 && text.length) {
        const nl = text.indexOf(end);
        if (nl < 0) {
          text = '';
          break;
        }
        text = text.slice(nl + 1);
        left--;
      }
      if (text) this.push(text);
      done();
    },
  });
}

function readPass(req: ReadRequest, pass: Pass): Promise<PassResult> {
  const meter = contentMeter(req.path);
  const counter: DecodeCounter = { bytes: 0, chars: 0 };
  const source = openDecodedStream(req.path, pass.encoding, { meter, counter });
  const { skipLines, newline } = pass.dialect;
  const stream = skipLines > 0 ? source.pipe(skipLinesTransform(skipLines, newline)) : source;
  // The parser counts characters; the decoder says how many bytes each stood for so far.
  const report = (rows: number, chars: number): void => {
    if (!req.onProgress) return;
    const perChar = counter.chars > 0 ? counter.bytes / counter.chars : 1;
    const total = meter.totalBytes;
    req.onProgress({ rows, bytes: Math.min(total, Math.round(chars * perChar)), totalBytes: total, estimated: meter.estimated });
  };
  const sink = new RecordSink(req, pass, 1 + skipLines, counter);
  return pass.perLine ? readLines(stream, sink, pass, report) : readQuoted(stream, sink, pass, report);
}

/** Turns records into header + rows with their line numbers, and knows when to stop. */
class RecordSink {
  collector: RowCollector | null = null;
  /** The line the next record starts on. */
  line: number;

  constructor(
    readonly req: ReadRequest,
    private readonly pass: Pass,
    firstLine: number,
    /** What the decoder saw (a U+FFFD: the file may really be Windows-1252). */
    private readonly decoded: DecodeCounter,
  ) {
    this.line = firstLine;
  }

  /** One parsed record spanning `lines` lines; `stray` when its quotes were read as text. */
  record(cells: readonly string[], lines: number, stray = false): void {
    const line = this.line;
    this.line += lines;
    if (!this.collector) {
      this.collector = new RowCollector({
        header: cells,
        trim: this.req.choices.trim ?? true,
        joiner: this.pass.dialect.delimiter,
        evidence: this.pass.evidence,
        ...(this.req.choices.repairs ? { repairs: this.req.choices.repairs } : {}),
        ...(this.req.spill ? { spill: this.req.spill } : {}),
      });
      return;
    }
    if (stray) this.collector.addWithStrayQuote(cells, line);
    else this.collector.add(cells, line);
  }

  blankLine(): void {
    this.line++;
  }

  get rows(): number {
    return this.collector?.rowCount ?? 0;
  }

  /** An empty file gives a table without columns: the preview shows it, the import refuses it. */
  finish(complete: boolean): PassResult {
    const collector = this.collector ?? new RowCollector({ header: [], trim: true, joiner: this.pass.dialect.delimiter });
    return { collector, complete, replacementCharacter: this.decoded.replacement === true };
  }
}

function readQuoted(
  stream: NodeJS.ReadableStream,
  sink: RecordSink,
  pass: Pass,
  report: (rows: number, chars: number) => void,
): Promise<PassResult> {
  const newline = lineEnd(pass.dialect.newline);
  const limit = sink.req.sampleBytes;
  const signal = sink.req.signal;
  return new Promise((resolve, reject) => {
    let settled = false;
    let stalled = 0;
    let sampled = false;
    const fail = (err: unknown, parser?: Papa.Parser): void => {
      if (settled) return;
      settled = true;
      parser?.abort();
      (stream as unknown as { destroy?: () => void }).destroy?.();
      reject(err);
    };
    stream.on('error', (err: Error) => fail(err));
    // Attached before the parser's own listener: a chunk's text is here before it is parsed.
    const ledger = new LineEndLedger(newline);
    stream.on('data', (text: string) => ledger.push(text));
    Papa.parse<string[]>(stream, {
      delimiter: pass.dialect.delimiter,
      newline: pass.dialect.newline,
      skipEmptyLines: false,
      chunk(results, parser) {
        if (settled) return;
        if (signal?.aborted) return fail(importCancelled(), parser);
        const data = results.data;
        const oneLineEach = ledger.oneLineEach(results.meta.cursor, data.length);
        try {
          for (let i = 0; i < data.length; i++) {
            const row = data[i]!;
            if (row.length === 1 && row[0] === '') sink.blankLine();
            else sink.record(row, oneLineEach ? 1 : 1 + newlinesIn(row, newline));
          }
        } catch (err) {
          return fail(err, parser);
        }
        stalled = data.length === 0 ? stalled + 1 : 0;
        if (stalled >= RUNAWAY_CHUNKS || results.errors.some((e) => e.type === 'Quotes')) return fail(new RunawayQuote(), parser);
        report(sink.rows, results.meta.cursor);
        if (limit !== undefined && results.meta.cursor >= limit) {
          sampled = true;
          parser.abort();
        }
      },
      complete(results) {
        if (settled) return;
        if (results?.errors?.some((e) => e.type === 'Quotes')) return fail(new RunawayQuote());
        try {
          settled = true;
          resolve(sink.finish(!sampled));
        } catch (err) {
          reject(err);
        }
      },
      error(err: Error) {
        fail(err);
      },
    });
  });
}

/** The per-line reading of a file with stray quotes: one record per non-empty line. */
async function readLines(
  stream: NodeJS.ReadableStream,
  sink: RecordSink,
  pass: Pass,
  report: (rows: number, chars: number) => void,
): Promise<PassResult> {
  const end = lineEnd(pass.dialect.newline);
  const crlf = pass.dialect.newline === '\r\n';
  const limit = sink.req.sampleBytes;
  const signal = sink.req.signal;
  let carry = '';
  let consumed = 0;
  const take = (line: string): void => {
    const text = crlf && line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text === '') return sink.blankLine();
    const { cells, stray } = splitLine(text, pass.dialect);
    sink.record(cells, 1, stray);
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      if (signal?.aborted) throw importCancelled();
      const text = carry + chunk;
      let start = 0;
      for (let at = text.indexOf(end, start); at >= 0; at = text.indexOf(end, start)) {
        take(text.slice(start, at));
        start = at + 1;
      }
      carry = text.slice(start);
      consumed += chunk.length;
      report(sink.rows, consumed - carry.length);
      if (limit !== undefined && consumed >= limit) {
        (stream as unknown as { destroy?: () => void }).destroy?.();
        return sink.finish(false);
      }
    }
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
  if (carry !== '') take(carry);
  return sink.finish(true);
}
