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
 * - int4 within ±2^31, int8 within ±2^63 (kept exactly: engine/values/exact-number.ts); a
 *   larger integer makes the column text, because such long digit strings are identifiers.
 * - `0`/`1` stays int4, as CKAN's guessers (datastore_create, DataPusher) type it: sums and
 *   comparisons keep working, and the user can force bool (parseAs accepts 0/1).
 * - Italian decimals only when no value contradicts them; `1.234` alone reads as a decimal.
 * - Zoned ISO timestamps are converted to UTC (the timestamp type has no zone); a column
 *   mixing zoned and zone-less values is text, as their meaning cannot be reconciled.
 * - Dates and timestamps of the same order combine into timestamp (dates = midnight);
 *   ISO and day-first values in one column make it text.
 */
import { classifyValue, isBlankCell, quote, trimCell, type ValueFormat, type ValueKind } from './value-parsers';
import type { ImportType } from '../../shared/wire/import';
import { message, type Message } from '../../shared/messages';

export type { ValueFormat } from './value-parsers';

export interface InferredColumn {
  type: ImportType;
  format: ValueFormat;
  /** Blank cells (nothing visible: see isBlankCell), which are stored as null. */
  nullCount?: number;
  /** Distinct non-blank raw values observed. */
  distinctValues?: number;
  /** Why, for the import report: a Message the UI words in the user's language. */
  reason: Message;
}

const KIND_WORDS: Record<ValueKind, string> = {
  int4: 'integers',
  int8: 'integers beyond int4',
  'huge-integer': 'integers beyond the int8 range',
  'leading-zero': 'codes with leading zeros',
  'dot-decimal': 'decimals with a point',
  'ambiguous-thousands': 'numbers like 1.234',
  'italian-decimal': 'decimals with a comma',
  'italian-integer': 'numbers with thousands dots',
  bool: 'booleans',
  'date-iso': 'ISO dates',
  'date-dmy': 'day-first dates',
  'timestamp-iso': 'ISO timestamps',
  'timestamp-iso-tz': 'ISO timestamps with a UTC offset',
  'timestamp-dmy': 'day-first timestamps',
  text: 'text',
};

const NUMBER_KINDS: ValueKind[] = ['int4', 'int8', 'dot-decimal', 'ambiguous-thousands', 'italian-decimal', 'italian-integer'];
const DATE_KINDS: ValueKind[] = ['date-iso', 'date-dmy', 'timestamp-iso', 'timestamp-iso-tz', 'timestamp-dmy'];
/** One of these anywhere makes the column text, so later values need no classifying. */
const TEXT_KINDS: ValueKind[] = ['text', 'huge-integer', 'leading-zero'];

interface KindStats {
  count: number;
  example: string;
}

export interface InferenceOptions {
  /**
   * Whether `,` may be a decimal separator (default true). Pass `delimiter !== ','`: Italian
   * exports that use decimal commas are `;`-delimited, while in a comma-delimited file a
   * quoted `2,2` is a list (country-codes' `ISO4217-currency_minor_unit`), not 2.2.
   */
  decimalComma?: boolean;
}

export class ColumnTypeInference {
  private decimalComma: boolean;
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

  /**
   * Adds what `other` observed after what this one did (values read later in the file: an
   * import's spilled values, raw-columns.ts), as if this one had observed them all.
   */
  absorb(other: ColumnTypeInference): void {
    this.nulls += other.nulls;
    this.distinct += other.distinct;
    if (this.settledAsText) return; // observe() records nothing more once settled
    for (const [kind, stats] of other.kinds) {
      const mine = this.kinds.get(kind);
      if (mine) mine.count += stats.count;
      else this.kinds.set(kind, { ...stats });
    }
    for (const t of other.truths) this.truths.add(t);
    this.longBoolWord ||= other.longBoolWord;
    this.settledAsText ||= other.settledAsText;
    this.needsInt8 ||= other.needsInt8;
    this.zeroOneOnly &&= other.zeroOneOnly;
  }

  /** True once a value made the column text whatever follows. */
  get settled(): boolean {
    return this.settledAsText;
  }

  /** The verdict; `decimalComma` overrides the constructor's (known only once the file's layout is). */
  result(decimalComma = this.decimalComma): InferredColumn {
    this.decimalComma = decimalComma;
    const verdict = this.decide();
    return { ...verdict, nullCount: this.nulls, distinctValues: this.distinct };
  }

  private has(kind: ValueKind): boolean {
    return this.kinds.has(kind);
  }

  private example(kind: ValueKind): string {
    return quote(this.kinds.get(kind)!.example);
  }

  /** `import.type.mixed_values` and its kin: two kinds of value that cannot share a type. */
  private mixed(a: ValueKind, b: ValueKind, what: keyof typeof MIXED = 'values'): Verdict {
    return text(
      `import.type.mixed_${what}`,
      `${MIXED[what]}: ${this.example(a)} (${KIND_WORDS[a]}) and ${this.example(b)} (${KIND_WORDS[b]})`,
      { a: this.example(a), kindA: a, b: this.example(b), kindB: b },
    );
  }

  private decide(): Verdict {
    if (this.distinct === 0) return text('import.type.empty', `no values: all ${this.nulls} cells are empty`, { nulls: this.nulls });
    const present = [...this.kinds.keys()];
    const typed = present.filter((k) => !TEXT_KINDS.includes(k));
    if (this.has('text')) {
      const example = this.example('text');
      if (typed.length === 0) return text('import.type.text', `text values, e.g. ${example}`, { example });
      const kind = typed[0]!;
      return text(
        'import.type.text_among_typed',
        `${example} is not a number, date or boolean, unlike ${KIND_WORDS[kind]} such as ${this.example(kind)}`,
        { example, kind, kindExample: this.example(kind) },
      );
    }
    if (this.has('leading-zero')) {
      const example = this.example('leading-zero');
      return text('import.type.leading_zeros', `codes with leading zeros such as ${example}: kept as text so the zeros are not lost`, {
        example,
      });
    }
    if (this.has('huge-integer')) {
      const example = this.example('huge-integer');
      return text(
        'import.type.huge_integer',
        `${example} is beyond the int8 range (±9223372036854775807): an identifier rather than a number`,
        { example },
      );
    }
    if (this.has('italian-decimal') && !this.decimalComma) {
      const example = this.example('italian-decimal');
      return text('import.type.comma_in_comma_file', `${example} has a comma, which is not a decimal separator in a comma-delimited file`, {
        example,
      });
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
    if (italian && this.has('dot-decimal')) return this.mixed('dot-decimal', italian, 'decimal_separators');
    const intType: ImportType = this.needsInt8 ? 'int8' : 'int4';
    if (italian) {
      const type = this.has('italian-decimal') ? 'numeric' : intType;
      const example = this.example(italian);
      const text = `Italian number format (decimal comma, dots for thousands), e.g. ${example}`;
      return {
        type,
        format: 'numeric-italian',
        reason: this.has('ambiguous-thousands')
          ? message('import.type.italian_number_thousands', `${text}; ${this.example('ambiguous-thousands')} is read as thousands`, {
              example,
              thousands: this.example('ambiguous-thousands'),
            })
          : message('import.type.italian_number', text, { example }),
      };
    }
    if (this.has('dot-decimal')) {
      const example = this.example('dot-decimal');
      return {
        type: 'numeric',
        format: 'numeric-dot',
        reason: message('import.type.dot_decimal', `decimal numbers with a point, e.g. ${example}`, { example }),
      };
    }
    if (this.has('ambiguous-thousands')) {
      const example = this.example('ambiguous-thousands');
      return {
        type: 'numeric',
        format: 'numeric-dot',
        reason: message(
          'import.type.dot_decimal_no_comma',
          `decimal numbers with a point, e.g. ${example} (no value uses a decimal comma, so the dot is a decimal point)`,
          { example },
        ),
      };
    }
    if (this.zeroOneOnly) {
      return {
        type: 'int4',
        format: 'integer',
        reason: message('import.type.zeros_and_ones', 'only 0/1 values: kept as int4, as CKAN types them; force bool if it is a flag'),
      };
    }
    const example = this.example(intType);
    return {
      type: intType,
      format: 'integer',
      reason:
        intType === 'int4'
          ? message('import.type.int4', `integers within int4, e.g. ${example}`, { example })
          : message('import.type.int8', `integers beyond int4, e.g. ${example}`, { example }),
    };
  }

  private decideBool(): Verdict {
    const example = this.example('bool');
    if (this.truths.size === 1 && !this.longBoolWord) {
      return text(
        'import.type.single_short_word',
        `only ${example}: a single one- or two-letter value is more likely a code than a boolean`,
        { example },
      );
    }
    return { type: 'bool', format: 'bool-words', reason: message('import.type.bool', `boolean words, e.g. ${example}`, { example }) };
  }

  private decideDate(): Verdict {
    const iso = (['date-iso', 'timestamp-iso', 'timestamp-iso-tz'] as const).find((k) => this.has(k));
    const dmy = (['date-dmy', 'timestamp-dmy'] as const).find((k) => this.has(k));
    if (iso && dmy) return this.mixed(iso, dmy, 'date_formats');
    if (this.has('timestamp-iso-tz')) {
      const naive = (['date-iso', 'timestamp-iso'] as const).find((k) => this.has(k));
      if (naive) return this.mixed('timestamp-iso-tz', naive, 'zones');
      const example = this.example('timestamp-iso-tz');
      return {
        type: 'timestamp',
        format: 'timestamp-iso-utc',
        reason: message('import.type.timestamp_utc', `ISO timestamps with a UTC offset, e.g. ${example}: stored converted to UTC`, {
          example,
        }),
      };
    }
    const timestamp = (kind: 'timestamp-iso' | 'timestamp-dmy', dates: ValueKind, order: 'iso' | 'dmy', words: string): Verdict => {
      const example = this.example(kind);
      const text = `${words}, e.g. ${example}`;
      return {
        type: 'timestamp',
        format: kind,
        reason: this.has(dates)
          ? message(`import.type.timestamp_${order}_with_dates`, `${text}; dates alone such as ${this.example(dates)} mean midnight`, {
              example,
              date: this.example(dates),
            })
          : message(`import.type.timestamp_${order}`, text, { example }),
      };
    };
    if (this.has('timestamp-iso')) return timestamp('timestamp-iso', 'date-iso', 'iso', 'ISO timestamps');
    if (this.has('timestamp-dmy')) return timestamp('timestamp-dmy', 'date-dmy', 'dmy', 'day-first timestamps');
    if (this.has('date-iso')) {
      const example = this.example('date-iso');
      return { type: 'date', format: 'date-iso', reason: message('import.type.date_iso', `ISO dates, e.g. ${example}`, { example }) };
    }
    const example = this.example('date-dmy');
    return {
      type: 'date',
      format: 'date-dmy',
      reason: message('import.type.date_dmy', `day-first dates (dd/mm/yyyy), e.g. ${example}`, { example }),
    };
  }
}

type Verdict = Pick<InferredColumn, 'type' | 'format' | 'reason'>;

const MIXED = {
  values: 'mixed values',
  decimal_separators: 'mixed decimal separators',
  date_formats: 'mixed date formats',
  zones: 'zoned and zone-less values',
} as const;

/** A text verdict, with its reason. */
function text(code: string, words: string, params?: Readonly<Record<string, string | number>>): Verdict {
  return { type: 'text', format: 'text', reason: message(code, words, params) };
}
