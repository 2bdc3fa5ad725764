/**
 * Column type inference over a whole column. The pipeline dictionary-encodes each column, so
 * it feeds every distinct raw value once (with how many cells hold it); the verdict therefore
 * covers every row, not a sample, and one contradicting value anywhere decides.
 *
 * Judgement calls (see also value-parsers.ts):
 * - Surrounding spaces/tabs are ignored (`" 12 "` is 12); NBSP is not, so `"12\u00a0"` is
 *   text. A cell with nothing visible (spaces, NBSP, zero-width space only) is null.
 * - `NA`, `-`, `n.d.` are values (Napoli, Namibia): only blank cells are null.
 * - Leading-zero codes (`001`) keep the column text; `0`, `0.5`, `-0.5` are numbers.
 * - int4 within ±2^31, int8 up to ±(2^53−1); a larger integer makes the column text, because
 *   a JS number would silently round it and such long digit strings are identifiers.
 * - `0`/`1` stays int4, as CKAN's guessers (datastore_create, DataPusher) type it: sums and
 *   comparisons keep working, and the user can force bool (parseAs accepts 0/1).
 * - Italian decimals only when no value contradicts them; `1.234` alone reads as a decimal.
 * - Zoned ISO timestamps are converted to UTC (the timestamp type has no zone); a column
 *   mixing zoned and zone-less values is text, as their meaning cannot be reconciled.
 * - Dates and timestamps of the same order combine into timestamp (dates = midnight);
 *   ISO and day-first values in one column make it text.
 */
import {
  classifyValue, isBlankCell, quote, trimCell, type ValueFormat, type ValueKind,
} from './value-parsers';
import type { ImportType } from '../../shared/wire/import';

export type { ValueFormat } from './value-parsers';

export interface InferredColumn {
  type: ImportType;
  format: ValueFormat;
  /** Blank cells (nothing visible: see isBlankCell), which are stored as null. */
  nullCount?: number;
  /** Distinct non-blank raw values observed. */
  distinctValues?: number;
  /** Human-readable, for the import report. */
  reason: string;
}

const KIND_WORDS: Record<ValueKind, string> = {
  'int4': 'integers',
  'int8': 'integers beyond int4',
  'huge-integer': 'integers beyond ±2^53−1',
  'leading-zero': 'codes with leading zeros',
  'dot-decimal': 'decimals with a point',
  'ambiguous-thousands': 'numbers like 1.234',
  'italian-decimal': 'decimals with a comma',
  'italian-integer': 'numbers with thousands dots',
  'bool': 'booleans',
  'date-iso': 'ISO dates',
  'date-dmy': 'day-first dates',
  'timestamp-iso': 'ISO timestamps',
  'timestamp-iso-tz': 'ISO timestamps with a UTC offset',
  'timestamp-dmy': 'day-first timestamps',
  'text': 'text',
};

const NUMBER_KINDS: ValueKind[] = [
  'int4', 'int8', 'dot-decimal', 'ambiguous-thousands', 'italian-decimal', 'italian-integer',
];
const DATE_KINDS: ValueKind[] = ['date-iso', 'date-dmy', 'timestamp-iso', 'timestamp-iso-tz', 'timestamp-dmy'];
/** One of these anywhere makes the column text, so later values need no classifying. */
const TEXT_KINDS: ValueKind[] = ['text', 'huge-integer', 'leading-zero'];

interface KindStats { count: number; example: string }

export interface InferenceOptions {
  /**
   * Whether `,` may be a decimal separator (default true). Pass `delimiter !== ','`: Italian
   * exports that use decimal commas are `;`-delimited, while in a comma-delimited file a
   * quoted `2,2` is a list (country-codes' `ISO4217-currency_minor_unit`), not 2.2.
   */
  decimalComma?: boolean;
}

export class ColumnTypeInference {
  private readonly decimalComma: boolean;
  private readonly kinds = new Map<ValueKind, KindStats>();
  private readonly truths = new Set<boolean>();
  private longBoolWord = false;
  private nulls = 0;
  private distinct = 0;
  private settledAsText = false;
  /** An integer (plain or with Italian thousands dots) beyond the int4 range was seen. */
  private needsInt8 = false;
  /** Every value seen so far is exactly `0` or `1` (for the 0/1 explanation). */
  private zeroOneOnly = true;

  constructor(options: InferenceOptions = {}) {
    this.decimalComma = options.decimalComma ?? true;
  }

  /**
   * Feeds one distinct raw cell value. `occurrences` (default 1) is how many cells hold it;
   * it only matters for blank values, whose total becomes `nullCount`.
   */
  observe(rawValue: string, occurrences = 1): void {
    if (isBlankCell(rawValue)) {
      this.nulls += occurrences;
      return;
    }
    const text = trimCell(rawValue);
    this.distinct++;
    if (this.settledAsText) return;
    const { kind, bool, int8 } = classifyValue(text);
    if (int8) this.needsInt8 = true;
    const stats = this.kinds.get(kind);
    if (stats) stats.count++;
    else this.kinds.set(kind, { count: 1, example: text });
    if (bool !== undefined) {
      this.truths.add(bool);
      if (text.length > 2) this.longBoolWord = true;
    }
    if (kind !== 'int4' || (text !== '0' && text !== '1')) this.zeroOneOnly = false;
    if (TEXT_KINDS.includes(kind)) this.settledAsText = true;
  }

  result(): InferredColumn {
    const verdict = this.decide();
    return { ...verdict, nullCount: this.nulls, distinctValues: this.distinct };
  }

  private has(kind: ValueKind): boolean {
    return this.kinds.has(kind);
  }

  private example(kind: ValueKind): string {
    return quote(this.kinds.get(kind)!.example);
  }

  private mixed(a: ValueKind, b: ValueKind, what = 'mixed values'): Verdict {
    return text(`${what}: ${this.example(a)} (${KIND_WORDS[a]}) and ${this.example(b)} (${KIND_WORDS[b]})`);
  }

  private decide(): Verdict {
    if (this.distinct === 0) return text(`no values: all ${this.nulls} cells are empty`);
    const present = [...this.kinds.keys()];
    const typed = present.filter((k) => !TEXT_KINDS.includes(k));
    if (this.has('text')) {
      if (typed.length === 0) return text(`text values, e.g. ${this.example('text')}`);
      return text(`${this.example('text')} is not a number, date or boolean, unlike ${KIND_WORDS[typed[0]!]} such as ${this.example(typed[0]!)}`);
    }
    if (this.has('leading-zero')) {
      return text(`codes with leading zeros such as ${this.example('leading-zero')}: kept as text so the zeros are not lost`);
    }
    if (this.has('huge-integer')) {
      return text(`${this.example('huge-integer')} is beyond ±2^53−1 and cannot be stored exactly as a number`);
    }
    if (this.has('italian-decimal') && !this.decimalComma) {
      return text(`${this.example('italian-decimal')} has a comma, which is not a decimal separator in a comma-delimited file`);
    }
    const families = [
      present.filter((k) => NUMBER_KINDS.includes(k)),
      present.filter((k) => k === 'bool'),
      present.filter((k) => DATE_KINDS.includes(k)),
    ].filter((f) => f.length > 0);
    if (families.length > 1) return this.mixed(families[0]![0]!, families[1]![0]!);
    if (this.has('bool')) return this.decideBool();
    if (present.some((k) => DATE_KINDS.includes(k))) return this.decideDate();
    return this.decideNumber();
  }

  private decideNumber(): Verdict {
    const italian = this.has('italian-decimal') ? 'italian-decimal' : this.has('italian-integer') ? 'italian-integer' : null;
    if (italian && this.has('dot-decimal')) return this.mixed('dot-decimal', italian, 'mixed decimal separators');
    const intType: ImportType = this.needsInt8 ? 'int8' : 'int4';
    if (italian) {
      const type = this.has('italian-decimal') ? 'numeric' : intType;
      return {
        type, format: 'numeric-italian',
        reason: `Italian number format (decimal comma, dots for thousands), e.g. ${this.example(italian)}` +
          (this.has('ambiguous-thousands') ? `; ${this.example('ambiguous-thousands')} is read as thousands` : ''),
      };
    }
    if (this.has('dot-decimal') || this.has('ambiguous-thousands')) {
      const ex = this.has('dot-decimal') ? 'dot-decimal' : 'ambiguous-thousands';
      return {
        type: 'numeric', format: 'numeric-dot',
        reason: `decimal numbers with a point, e.g. ${this.example(ex)}` +
          (this.has('dot-decimal') ? '' : ' (no value uses a decimal comma, so the dot is a decimal point)'),
      };
    }
    if (this.zeroOneOnly) {
      return { type: 'int4', format: 'integer', reason: 'only 0/1 values: kept as int4, as CKAN types them; force bool if it is a flag' };
    }
    return {
      type: intType, format: 'integer',
      reason: intType === 'int4' ? `integers within int4, e.g. ${this.example('int4')}` : `integers beyond int4, e.g. ${this.example('int8')}`,
    };
  }

  private decideBool(): Verdict {
    if (this.truths.size === 1 && !this.longBoolWord) {
      return text(`only ${this.example('bool')}: a single one- or two-letter value is more likely a code than a boolean`);
    }
    return { type: 'bool', format: 'bool-words', reason: `boolean words, e.g. ${this.example('bool')}` };
  }

  private decideDate(): Verdict {
    const iso = (['date-iso', 'timestamp-iso', 'timestamp-iso-tz'] as const).find((k) => this.has(k));
    const dmy = (['date-dmy', 'timestamp-dmy'] as const).find((k) => this.has(k));
    if (iso && dmy) return this.mixed(iso, dmy, 'mixed date formats');
    if (this.has('timestamp-iso-tz')) {
      const naive = (['date-iso', 'timestamp-iso'] as const).find((k) => this.has(k));
      if (naive) return this.mixed('timestamp-iso-tz', naive, 'zoned and zone-less values');
      return {
        type: 'timestamp', format: 'timestamp-iso-utc',
        reason: `ISO timestamps with a UTC offset, e.g. ${this.example('timestamp-iso-tz')}: stored converted to UTC`,
      };
    }
    const midnight = (d: ValueKind): string => (this.has(d) ? `; dates alone such as ${this.example(d)} mean midnight` : '');
    if (this.has('timestamp-iso')) {
      return { type: 'timestamp', format: 'timestamp-iso', reason: `ISO timestamps, e.g. ${this.example('timestamp-iso')}${midnight('date-iso')}` };
    }
    if (this.has('timestamp-dmy')) {
      return { type: 'timestamp', format: 'timestamp-dmy', reason: `day-first timestamps, e.g. ${this.example('timestamp-dmy')}${midnight('date-dmy')}` };
    }
    if (this.has('date-iso')) return { type: 'date', format: 'date-iso', reason: `ISO dates, e.g. ${this.example('date-iso')}` };
    return { type: 'date', format: 'date-dmy', reason: `day-first dates (dd/mm/yyyy), e.g. ${this.example('date-dmy')}` };
  }
}

type Verdict = Pick<InferredColumn, 'type' | 'format' | 'reason'>;

function text(reason: string): Verdict {
  return { type: 'text', format: 'text', reason };
}
