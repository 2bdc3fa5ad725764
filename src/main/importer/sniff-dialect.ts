/**
 * Delimiter and preamble detection on the decoded first ~64 KB of a CSV file.
 *
 * Every candidate delimiter is tried with papaparse itself (so quoted delimiters and quoted
 * line breaks, like ISTAT's two-line header cells, count the way the real parse will count
 * them), and the one giving the most consistent number of fields per record wins.
 * Preamble lines (`Estrazione del 2022-03-24` above the mise header) are the records before
 * the first one that has the body's field count and looks like a header.
 */
import Papa from 'papaparse';

import { DELIMITERS, type Delimiter } from '../../shared/delimiters';
import { message, type Message } from '../../shared/messages';

export { DELIMITERS, type Delimiter };
export type Newline = '\n' | '\r\n' | '\r';

/** A header is looked for among the first records only: longer preambles are not plausible. */
export const MAX_PREAMBLE_RECORDS = 30;

export interface DialectGuess {
  delimiter: Delimiter;
  /**
   * Physical lines (as papaparse's `skipFirstNLines` counts them: split on `newline`) to drop
   * before the header record.
   */
  skipLines: number;
  /** 1-based physical line on which the header record starts (skipLines + 1), for messages. */
  headerLine: number;
  /** The line ending papaparse detected; pass it explicitly so every chunk agrees. */
  newline: Newline;
  /** 0–1: share of body records with the header's field count, lowered for tiny samples or a close runner-up. */
  confidence: number;
  /** The evidence, for the import report (Messages the UI words in the user's language). */
  reasons: Message[];
}

export interface DialectOverrides {
  delimiter?: Delimiter;
  skipLines?: number;
}

interface ParsedRecord {
  fields: string[];
  end: number;
}

interface Candidate {
  delimiter: Delimiter;
  records: ParsedRecord[];
  /** The body's field count (mode over the non-blank records). */
  fields: number;
  /** Index of the header record. */
  header: number;
  bodyRecords: number;
  consistentRecords: number;
  consistency: number;
  /** How often a quote touches this delimiter (`;"` or `";`): quoted fields start and end there. */
  quoteContacts: number;
}

const SHOWN: Record<Delimiter, string> = { ',': '","', ';': '";"', '\t': 'tab', '|': '"|"' };
/** A delimiter as a Message parameter: its name in the delimiter table (`tab` for a TAB). */
const PARAM: Record<Delimiter, string> = { ',': ',', ';': ';', '\t': 'tab', '|': '|' };

const isBlank = (r: ParsedRecord): boolean => r.fields.length === 1 && r.fields[0]!.trim() === '';

function parseRecords(text: string, delimiter: Delimiter, newline: Newline): ParsedRecord[] {
  const records: ParsedRecord[] = [];
  Papa.parse<string[]>(text, {
    delimiter,
    newline,
    skipEmptyLines: false,
    step: (result) => records.push({ fields: result.data, end: result.meta.cursor }),
  });
  // Trailing blank lines carry no evidence.
  while (records.length && isBlank(records[records.length - 1]!)) records.pop();
  // A sample usually stops in the middle of a record (maybe inside quotes): drop that record.
  if (records.length > 2 && !/[\r\n]$/.test(text)) records.pop();
  return records;
}

function modeOf(values: number[]): number {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount || (c === bestCount && v > best)) [best, bestCount] = [v, c];
  }
  return best;
}

/** A header has (at least) the body's field count and names in most of its cells. */
function looksLikeHeader(cells: readonly string[], fields: number): boolean {
  if (cells.length < fields) return false;
  const named = cells.filter((f) => f.trim() !== '').length;
  // `Titolo;;;;` (a title row padded by Excel to full width, or a merged title cell) is a
  // preamble, not a header.
  return named >= Math.min(cells.length, Math.max(2, Math.ceil(fields / 2)));
}

/**
 * The header among a file's first records (a CSV's, or a sheet's rows): the first of them,
 * within MAX_PREAMBLE_RECORDS, that has the body's usual field count and names in most cells.
 * Titles, notes and blank rows above it are the preamble. `fields` is that usual count.
 */
export function findHeaderRecord(records: readonly (readonly string[])[]): { index: number; fields: number } {
  const nonBlank = records.filter((r) => !(r.length === 1 && r[0]!.trim() === '') && r.length > 0);
  const fields = modeOf(nonBlank.map((r) => r.length));
  if (fields < 2) return { index: 0, fields };
  const limit = Math.min(records.length, MAX_PREAMBLE_RECORDS);
  const found = records.slice(0, limit).findIndex((r) => looksLikeHeader(r, fields));
  return { index: found < 0 ? 0 : found, fields };
}

function evaluate(text: string, delimiter: Delimiter, newline: Newline, headerFixed: boolean): Candidate {
  const records = parseRecords(text, delimiter, newline);
  const found = findHeaderRecord(records.map((r) => r.fields));
  const fields = found.fields;
  const header = headerFixed ? 0 : found.index;
  const body = records.slice(header + 1).filter((r) => !isBlank(r));
  const consistentRecords = body.filter((r) => r.fields.length === fields).length;
  const consistency = body.length ? consistentRecords / body.length : records.length ? 1 : 0;
  const quoteContacts = countOccurrences(text, `${delimiter}"`) + countOccurrences(text, `"${delimiter}`);
  return { delimiter, records, fields, header, bodyRecords: body.length, consistentRecords, consistency, quoteContacts };
}

/**
 * Better candidate first: consistency (5-point buckets), fewer preamble records, more quotes
 * next to the delimiter, more fields, list order. The quote test matters when a wrong
 * delimiter appears inside quoted values on every row (`1,"a;b;c",2`): papaparse reads quotes
 * in mid-field literally, so `;` would also split consistently, and into more fields.
 */
function compare(a: Candidate, b: Candidate): number {
  if (Math.abs(a.consistency - b.consistency) > 0.05) return b.consistency - a.consistency;
  if (a.header !== b.header) return a.header - b.header;
  if (a.quoteContacts !== b.quoteContacts) return b.quoteContacts - a.quoteContacts;
  if (a.fields !== b.fields) return b.fields - a.fields;
  return DELIMITERS.indexOf(a.delimiter) - DELIMITERS.indexOf(b.delimiter);
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Drops `lines` physical lines the way papaparse's `skipFirstNLines` does (split on `newline`). */
export function dropLines(text: string, lines: number, newline: Newline): string {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const next = text.indexOf(newline, at);
    if (next < 0) return '';
    at = next + newline.length;
  }
  return text.slice(at);
}

/** papaparse's own line-ending guess (it ignores line breaks inside quotes). */
function detectNewline(text: string): Newline {
  const linebreak = Papa.parse<string[]>(text, { preview: 1 }).meta.linebreak;
  return linebreak === '\r\n' || linebreak === '\r' ? linebreak : '\n';
}

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/**
 * Guesses delimiter and preamble. A forced delimiter still gets a skipLines guess; forced
 * skipLines (physical lines) still get a delimiter guess, with the header taken to be the
 * first record after them.
 */
export function sniffDialect(text: string, overrides: DialectOverrides = {}): DialectGuess {
  const forcedSkip = overrides.skipLines;
  if (forcedSkip !== undefined && (!Number.isInteger(forcedSkip) || forcedSkip < 0)) {
    throw new RangeError(`skipLines must be a whole number ≥ 0, got ${String(forcedSkip)}`);
  }
  // Skipped lines are counted on the file's own line ending, as papaparse's `skipFirstNLines`
  // counts them; the remaining text is then sniffed as if it started there.
  const newline = detectNewline(text);
  const body = forcedSkip ? dropLines(text, forcedSkip, newline) : text;
  const headerFixed = forcedSkip !== undefined;
  const tried = (overrides.delimiter ? [overrides.delimiter] : DELIMITERS).map((d) => evaluate(body, d, newline, headerFixed));
  const splitting = tried.filter((c) => c.fields >= 2).sort(compare);
  const reasons: Message[] = [];

  let chosen: Candidate;
  let confidence: number;
  if (overrides.delimiter) {
    chosen = tried[0]!;
    reasons.push(
      message('import.dialect.delimiter_forced', `delimiter ${SHOWN[chosen.delimiter]} forced`, { delimiter: PARAM[chosen.delimiter] }),
    );
    confidence = chosen.fields >= 2 ? chosen.consistency : 0.2;
  } else if (splitting.length === 0) {
    chosen = tried[0]!;
    reasons.push(message('import.dialect.single_column', 'no candidate delimiter splits the records: read as a single column with ","'));
    confidence = 0.2;
  } else {
    chosen = splitting[0]!;
    confidence = chosen.consistency;
    const runnerUp = splitting[1];
    if (runnerUp && Math.abs(runnerUp.consistency - chosen.consistency) <= 0.05) {
      confidence *= 0.8;
      reasons.push(
        message(
          'import.dialect.runner_up',
          `${SHOWN[runnerUp.delimiter]} was almost as consistent (${runnerUp.fields} fields on ` +
            `${pct(runnerUp.consistency)} of records); ${SHOWN[chosen.delimiter]} won on preamble, quoting or field count`,
          {
            delimiter: PARAM[runnerUp.delimiter],
            fields: runnerUp.fields,
            percent: pct(runnerUp.consistency),
            chosen: PARAM[chosen.delimiter],
          },
        ),
      );
    }
    const rejected = tried.filter((c) => c.fields < 2).map((c) => SHOWN[c.delimiter]);
    if (rejected.length) {
      reasons.push(
        message('import.dialect.rejected', `${rejected.join(', ')} rejected: records have one field`, { delimiters: rejected.join(', ') }),
      );
    }
  }
  if (chosen.fields >= 2) {
    reasons.unshift(
      message(
        'import.dialect.delimiter',
        `delimiter ${SHOWN[chosen.delimiter]}: ${chosen.fields} fields on ${chosen.consistentRecords} of ` +
          `${chosen.bodyRecords} body records (${pct(chosen.consistency)})`,
        {
          delimiter: PARAM[chosen.delimiter],
          fields: chosen.fields,
          consistent: chosen.consistentRecords,
          records: chosen.bodyRecords,
          percent: pct(chosen.consistency),
        },
      ),
    );
  }
  if (chosen.bodyRecords < 5) {
    confidence *= 0.6;
    reasons.push(
      message('import.dialect.few_records', `only ${chosen.bodyRecords} data record(s) in the sample`, { records: chosen.bodyRecords }),
    );
  }

  let skipLines: number;
  if (headerFixed) {
    skipLines = forcedSkip!;
    reasons.push(message('import.dialect.skip_forced', `skipLines ${skipLines} forced`, { lines: skipLines }));
  } else {
    const headerStart = chosen.header > 0 ? chosen.records[chosen.header - 1]!.end : 0;
    skipLines = countOccurrences(text.slice(0, headerStart), newline);
    if (chosen.header > 0) {
      const preamble = chosen.records.slice(0, chosen.header).map((r) => r.fields.length);
      reasons.push(
        message(
          'import.dialect.preamble',
          `${skipLines} preamble line(s) above the header: ${chosen.header} record(s) with ` +
            `${preamble.join('/')} field(s) while the header and body have ${chosen.fields}`,
          { lines: skipLines, records: chosen.header, preambleFields: preamble.join('/'), fields: chosen.fields },
        ),
      );
    }
  }
  return {
    delimiter: chosen.delimiter,
    skipLines,
    headerLine: skipLines + 1,
    newline,
    confidence: Math.round(confidence * 100) / 100,
    reasons,
  };
}
