import { message, type Message } from '../../shared/messages';
import {
  REPAIR_CHOICES,
  REPAIR_KINDS,
  repairActionFor,
  type RepairAction,
  type RepairChoices,
  type RepairExample,
  type RepairKind,
  type RepairReport,
} from '../../shared/wire/import';
import { checkColumnCount } from './limits';
import { DictionaryBudget, RawColumnBuilder } from './raw-columns';
import type { RepairEvidence } from './repair-evidence';
import { RowSpillWriter, type SpillTarget } from './row-spill';
import { quote, trimCell } from './value-parsers';

/**
 * The rows of every reader go through here: cells are trimmed and dictionary-encoded into one
 * raw column per header cell, and a row whose cell count differs from the header's is
 * repaired as the user chose for its kind, never dropped unless they chose to skip it
 * (docs/importing.md, "Repairs"). Each kind's rows are counted with their first line numbers
 * and examples, for the preview, the CLI's `repairs` and the load status.
 */

/** The label of the column that keeps surplus cells (cleaned and made unique like any header cell). */
export const EXTRA_COLUMN_LABEL = 'extra_cells';
const MAX_LINES = 20;
const MAX_EXAMPLES = 5;
const MAX_RAW_CHARS = 300;

export interface RowCollectorOptions {
  readonly header: readonly string[];
  readonly trim: boolean;
  readonly repairs?: RepairChoices;
  /** What stood between cells in the file (the delimiter): joins a split value and the extra cells. */
  readonly joiner: string;
  readonly evidence?: RepairEvidence | null;
  /** Spill the rows to disk a chunk at a time instead of keeping a code per cell (an import). */
  readonly spill?: SpillTarget;
}

/** Codes of at most this many cells per chunk in memory (rows × columns). */
const CHUNK_CELLS = 1 << 22;

interface Tally {
  rows: number;
  readonly lines: number[];
  readonly examples: RepairExample[];
}

export class RowCollector {
  readonly width: number;
  readonly columns: RawColumnBuilder[];
  private rows = 0;
  private extra: RawColumnBuilder | null = null;
  private readonly tallies = new Map<RepairKind, Tally>();
  private readonly actions: Readonly<Record<RepairKind, RepairAction>>;
  private readonly spill: RowSpillWriter | null;
  private readonly chunkRows: number;
  private chunkStart = 1;
  private readonly budget = new DictionaryBudget();

  constructor(private readonly opts: RowCollectorOptions) {
    checkColumnCount(opts.header.length);
    this.width = opts.header.length;
    this.spill = opts.spill ? new RowSpillWriter(opts.spill.create('rows')) : null;
    this.chunkRows = Math.max(1024, Math.min(1 << 16, Math.floor(CHUNK_CELLS / Math.max(1, this.width + 1))));
    this.columns = opts.header.map(() => this.newColumn());
    this.actions = Object.fromEntries(REPAIR_KINDS.map((k) => [k, repairActionFor(k, opts.repairs)])) as Record<RepairKind, RepairAction>;
  }

  get rowCount(): number {
    return this.rows;
  }

  /** One row of cells starting on `line` (1-based). */
  add(cells: readonly string[], line: number): void {
    const n = cells.length;
    if (n === this.width) {
      this.store(cells);
    } else if (n > this.width) {
      if (this.surplusIsBlank(cells)) this.store(cells);
      else this.addLonger(cells, line);
    } else {
      this.addShorter(cells, line);
    }
    this.endRowIfChunkFull();
  }

  /** A row whose `"` could not be read as quoting: its cells were split on the delimiter as text. */
  addWithStrayQuote(cells: readonly string[], line: number): void {
    const action = this.actions.stray_quotes;
    this.tally(
      'stray_quotes',
      line,
      cells,
      action === 'skip' ? skipped() : message('import.repair.outcome.quote_as_text', 'The " characters are kept as text.'),
    );
    if (action !== 'skip') this.add(cells, line);
  }

  finish(): { header: string[]; columns: RawColumnBuilder[]; rows: number; repairs: RepairReport[]; spill: RowSpillWriter | null } {
    if (this.spill && this.rows >= this.chunkStart) this.flushChunk();
    const columns = this.allColumns();
    for (const c of columns) c.seal(this.rows);
    return {
      header: this.extra ? [...this.opts.header, EXTRA_COLUMN_LABEL] : [...this.opts.header],
      columns,
      rows: this.rows,
      repairs: REPAIR_KINDS.filter((k) => this.tallies.has(k)).map((k) => this.report(k, this.tallies.get(k)!)),
      spill: this.spill,
    };
  }

  private allColumns(): RawColumnBuilder[] {
    return this.extra ? [...this.columns, this.extra] : [...this.columns];
  }

  private newColumn(): RawColumnBuilder {
    return this.spill ? new RawColumnBuilder(0, { rows: this.chunkRows, firstRow: this.chunkStart }, this.budget) : new RawColumnBuilder();
  }

  private store(cells: readonly string[]): void {
    const row = ++this.rows;
    const trim = this.opts.trim;
    for (let c = 0; c < this.width; c++) {
      const cell = cells[c];
      this.columns[c]!.add(row, cell === undefined ? '' : trim ? trimCell(cell) : cell);
    }
  }

  /** After a row: a full chunk goes to the spill. (Extra cells are added after `store`, so a chunk ends before its next row.) */
  private endRowIfChunkFull(): void {
    if (this.spill && this.rows - this.chunkStart + 1 >= this.chunkRows) this.flushChunk();
  }

  private flushChunk(): void {
    const columns = this.allColumns();
    const rows = this.rows - this.chunkStart + 1;
    const next = this.rows + 1;
    const place = this.spill!.write(
      rows,
      columns.map((c) => c.codes),
      columns.map((c) => c.chunkValues),
    );
    this.opts.spill?.onChunk?.(place, this.chunkStart, rows, {
      header: this.opts.header,
      columns: columns.map((c) => ({ spilling: c.mayRepeat, spillStart: c.values.length, settledText: c.spilledInference.settled })),
    });
    for (const c of columns) c.startChunk(next);
    this.chunkStart = next;
  }

  /** Trailing empty cells (a delimiter at the end of the line) are harmless. */
  private surplusIsBlank(cells: readonly string[]): boolean {
    for (let c = this.width; c < cells.length; c++) if (trimCell(cells[c]!) !== '') return false;
    return true;
  }

  private addLonger(cells: readonly string[], line: number): void {
    const at = this.opts.evidence?.explain(cells) ?? null;
    const kind: RepairKind = at === null ? 'extra_cells' : 'delimiter_in_value';
    const action = this.actions[kind];
    const surplus = cells.length - this.width;
    if (action === 'skip') {
      this.tally(kind, line, cells, skipped());
    } else if (action === 'repair' && at !== null) {
      const joined = cells.slice(at, at + surplus + 1).join(this.opts.joiner);
      this.tally(
        kind,
        line,
        cells,
        message('import.repair.outcome.joined', `${quote(joined)} is kept whole in column ${quote(this.opts.header[at]!)}.`, {
          value: joined,
          column: this.opts.header[at]!,
        }),
      );
      this.store([...cells.slice(0, at), joined, ...cells.slice(at + surplus + 1)]);
    } else {
      const kept = cells.slice(this.width).join(this.opts.joiner);
      this.tally(
        kind,
        line,
        cells,
        message('import.repair.outcome.extra_column', `The ${surplus} extra cell(s) are kept in column ${EXTRA_COLUMN_LABEL}.`, {
          cells: surplus,
          column: EXTRA_COLUMN_LABEL,
        }),
      );
      this.store(cells);
      this.extra ??= this.newColumn();
      this.extra.add(this.rows, this.opts.trim ? trimCell(kept) : kept);
    }
  }

  private addShorter(cells: readonly string[], line: number): void {
    const action = this.actions.missing_cells;
    const missing = this.width - cells.length;
    this.tally(
      'missing_cells',
      line,
      cells,
      action === 'skip'
        ? skipped()
        : message('import.repair.outcome.padded', `The ${missing} missing cell(s) are left empty.`, { cells: missing }),
    );
    if (action !== 'skip') this.store(cells);
  }

  private tally(kind: RepairKind, line: number, cells: readonly string[], outcome: Message): void {
    let t = this.tallies.get(kind);
    if (!t) this.tallies.set(kind, (t = { rows: 0, lines: [], examples: [] }));
    t.rows++;
    if (t.lines.length < MAX_LINES) t.lines.push(line);
    if (t.examples.length < MAX_EXAMPLES) {
      const raw = cells.join(this.opts.joiner);
      t.examples.push({ line, raw: raw.length > MAX_RAW_CHARS ? `${raw.slice(0, MAX_RAW_CHARS)}…` : raw, outcome });
    }
  }

  private report(kind: RepairKind, t: Tally): RepairReport {
    const action = this.actions[kind];
    return {
      kind,
      action,
      actions: REPAIR_CHOICES[kind],
      rows: t.rows,
      lines: t.lines,
      examples: t.examples,
      message: summary(kind, action, t.rows, this.width),
    };
  }
}

function skipped(): Message {
  return message('import.repair.outcome.skipped', 'The row is left out.');
}

const KIND_TEXT: Record<RepairKind, (rows: number, width: number) => string> = {
  delimiter_in_value: (rows) => `${rows} row(s) have a delimiter inside a value`,
  extra_cells: (rows, width) => `${rows} row(s) have more cells than the header's ${width}`,
  missing_cells: (rows, width) => `${rows} row(s) have fewer cells than the header's ${width}`,
  stray_quotes: (rows) => `${rows} row(s) have a " that opens a value it never closes`,
};

const ACTION_TEXT: Record<RepairKind, Partial<Record<RepairAction, string>>> = {
  delimiter_in_value: {
    repair: 'the split value is joined again',
    extra_column: `the extra cells are kept in column ${EXTRA_COLUMN_LABEL}`,
  },
  extra_cells: { extra_column: `the extra cells are kept in column ${EXTRA_COLUMN_LABEL}` },
  missing_cells: { repair: 'the missing cells are left empty' },
  stray_quotes: { repair: 'the line is read on its own, with " as text' },
};

/** `import.repair.<kind>.<action>`: how many rows, and what is done with them. */
function summary(kind: RepairKind, action: RepairAction, rows: number, width: number): Message {
  const done = action === 'skip' ? 'they are left out' : (ACTION_TEXT[kind][action] ?? action);
  return message(`import.repair.${kind}.${action}`, `${KIND_TEXT[kind](rows, width)}: ${done}.`, {
    rows,
    columns: width,
    column: EXTRA_COLUMN_LABEL,
  });
}
