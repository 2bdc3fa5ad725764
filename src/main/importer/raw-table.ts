import type { Message } from '../../shared/messages';
import type { EntryChoice, ImportFormat, ImportType, RepairReport, SheetChoice } from '../../shared/wire/import';
import type { RawColumnBuilder } from './raw-columns';
import type { RowSpillWriter } from './row-spill';

/**
 * What every reader hands the shared import path (docs/importing.md, "How an import runs"):
 * the header row as read, one dictionary-encoded raw column per header cell, the rows that
 * were kept, what was repaired, and how the file's layout was recognised. Cells are text;
 * readers of typed formats (spreadsheets, JSON) write a typed cell's value in the canonical
 * text type inference reads (`1234.5`, `2020-03-01`, `true`), never its display text.
 */
export interface TableLayout {
  readonly format: ImportFormat;
  /** Text formats: the encoding used; others `utf-8`. */
  readonly encoding: string;
  /** CSV: the delimiter; others `,`. */
  readonly delimiter: string;
  /** Lines (sheet rows) above the header. */
  readonly skipLines: number;
  /** 1-based line (or sheet row) of the header. */
  readonly headerLine: number;
  /** 0–1: how sure the layout guess is. */
  readonly confidence: number;
  /** How the layout was recognised, for the preview. */
  readonly reasons: readonly Message[];
  /** Whether `,` can be a decimal separator in this file's text cells (`;`-delimited Italian exports). */
  readonly decimalComma: boolean;
  readonly sheets?: readonly SheetChoice[];
  readonly sheet?: string;
  readonly entries?: readonly EntryChoice[];
  readonly entry?: string;
}

export interface RawTable {
  readonly layout: TableLayout;
  /** The header cells as read, plus the label of an added column for extra cells. */
  readonly header: readonly string[];
  readonly columns: readonly RawColumnBuilder[];
  readonly rows: number;
  readonly repairs: readonly RepairReport[];
  /** Things the user should know (an encoding changed halfway, …). */
  readonly warnings: readonly Message[];
  /** The whole content was read (false for a preview's sample). */
  readonly complete: boolean;
  /**
   * The types the file itself gives its columns, by column (file-types.ts: a spreadsheet's
   * number, date and boolean cells; a future Parquet schema): such a column is not guessed
   * again from its text. Absent, or undefined for a column: inferred.
   */
  readonly fileTypes?: readonly (ImportType | undefined)[];
  /** The rows, when they were spilled (ReadRequest.spill): then the columns hold no codes. */
  readonly spill?: RowSpillWriter | null;
}
