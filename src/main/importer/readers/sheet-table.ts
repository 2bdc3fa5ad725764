import { message } from '../../../shared/messages';
import type { ImportFormat, SheetChoice } from '../../../shared/wire/import';
import { ImportInputError, importCancelled } from '../import-errors';
import type { RawTable } from '../raw-table';
import { RowCollector } from '../row-collector';
import { findHeaderRecord, MAX_PREAMBLE_RECORDS } from '../sniff-dialect';
import type { ReadRequest } from './reader';
import { FileColumnTypes, type CellKind } from '../file-types';

/**
 * What XLSX and ODS have in common once their XML is parsed: sheets of rows of cells, each
 * cell already written as the canonical text of its real type (a number's value, a date as
 * ISO, a formula's cached result), never its display text. Here the sheet is chosen, the
 * header row found among the first rows (a title row above it, often a merged cell holding
 * one value, is a preamble, as in a CSV), and the rows go through the RowCollector.
 */
export interface SheetRow {
  /** 1-based row number in the sheet. */
  readonly number: number;
  readonly cells: readonly string[];
  /** What each cell says it holds (file-types.ts), where the format says. */
  readonly kinds?: readonly (CellKind | undefined)[];
}

export interface Workbook {
  readonly sheets: readonly SheetChoice[];
  /** Streams the rows of one sheet; `onRow` returns false to stop early. */
  rows(sheet: string, onRow: (row: SheetRow) => boolean): Promise<void>;
}

/** A preview reads this many rows of the sheet. */
const PREVIEW_ROWS = 1000;

/** Drops trailing empty cells: a sheet's row is as wide as its last value. */
function trimRow(cells: readonly string[]): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end--;
  return cells.slice(0, end);
}

export async function readSheetTable(format: ImportFormat, workbook: Workbook, req: ReadRequest): Promise<RawTable> {
  const wanted = req.choices.sheet;
  const sheet =
    wanted === undefined ? (workbook.sheets.find((s) => !s.empty) ?? workbook.sheets[0]) : workbook.sheets.find((s) => s.name === wanted);
  if (!sheet) {
    throw new ImportInputError(
      wanted === undefined
        ? message('import.refused.no_sheets', 'The workbook has no sheets.')
        : message('import.refused.no_sheet', `The workbook has no sheet ${JSON.stringify(wanted)}.`, { name: wanted }),
    );
  }
  const head: SheetRow[] = [];
  const fileTypes = new FileColumnTypes();
  let collector: RowCollector | null = null;
  let headerRow = 0;
  let read = 0;
  const start = (rows: readonly SheetRow[]): void => {
    const records = rows.map((r) => trimRow(r.cells));
    const skip = req.choices.skipLines;
    const index = skip === undefined ? findHeaderRecord(records).index : rows.findIndex((r) => r.number > skip);
    const header = rows[Math.max(0, index)];
    headerRow = header?.number ?? 1;
    collector = new RowCollector({
      header: header ? trimRow(header.cells) : [],
      trim: req.choices.trim ?? true,
      joiner: '\t',
      ...(req.choices.repairs ? { repairs: req.choices.repairs } : {}),
      ...(req.spill ? { spill: req.spill } : {}),
    });
    for (const row of rows.slice(Math.max(0, index) + 1)) add(row);
  };
  const add = (row: SheetRow): void => {
    const cells = trimRow(row.cells);
    if (cells.length === 0) return;
    // A row narrower than the header just has empty cells at its end: no repair to report.
    while (cells.length < collector!.width) cells.push('');
    collector!.add(cells, row.number);
    cells.forEach((text, column) => {
      if (text !== '') fileTypes.observe(column, row.kinds?.[column], text);
    });
  };
  await workbook.rows(sheet.name, (row) => {
    if (req.signal?.aborted) throw importCancelled();
    read++;
    if (collector) add(row);
    else if (head.push(row) > MAX_PREAMBLE_RECORDS) start(head);
    if (read % 10_000 === 0) req.onProgress?.({ rows: collector?.rowCount ?? 0, bytes: 0, totalBytes: 0, estimated: true });
    return req.sampleBytes === undefined || read < PREVIEW_ROWS;
  });
  if (!collector) start(head);
  const done = (collector as RowCollector | null)!.finish();
  if (done.header.length === 0) {
    throw new ImportInputError(
      message('import.refused.empty_sheet', `The sheet ${JSON.stringify(sheet.name)} is empty.`, { name: sheet.name }),
    );
  }
  return {
    layout: {
      format,
      encoding: 'utf-8',
      delimiter: ',',
      skipLines: headerRow - 1,
      headerLine: headerRow,
      confidence: 1,
      reasons: [
        message('import.sheet.header', `sheet ${JSON.stringify(sheet.name)}, header on row ${headerRow}`, {
          sheet: sheet.name,
          row: headerRow,
        }),
      ],
      decimalComma: false,
      sheets: workbook.sheets,
      sheet: sheet.name,
    },
    header: done.header,
    fileTypes: fileTypes.types(done.header.length),
    columns: done.columns,
    rows: done.rows,
    repairs: done.repairs,
    warnings: [],
    complete: req.sampleBytes === undefined || read < PREVIEW_ROWS,
    spill: done.spill,
  };
}
