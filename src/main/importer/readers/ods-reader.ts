import { message } from '../../../shared/messages';
import type { SheetChoice } from '../../../shared/wire/import';
import { ImportInputError } from '../import-errors';
import type { RawTable } from '../raw-table';
import type { ReadRequest } from './reader';
import type { CellKind } from '../file-types';
import { readSheetTable, type SheetRow } from './sheet-table';
import { attr, streamXml } from './xml-stream';
import { openZip, type ZipArchive } from './zip-archive';

/**
 * ODS (OpenDocument spreadsheet, LibreOffice's format): every sheet is a `table:table` in the
 * one `content.xml` part, streamed. A cell's value is in its attributes (`office:value` for
 * numbers, `office:date-value`, `office:boolean-value`), its text in `text:p`; formulas keep
 * their cached value there. Repeated rows and cells (`number-rows-repeated`, the millions of
 * empty cells a sheet ends with) are expanded only where they hold a value.
 */

/** Identical rows repeated more than this are kept this many times (real data never needs more). */
const MAX_REPEATED_ROWS = 100_000;

/** `PT12H30M05S` → `12:30:05`. */
function durationText(value: string): string {
  const m = /^-?P(?:\d+D)?T(\d+)H(\d+)M(\d+(?:\.\d+)?)S$/.exec(value);
  if (!m) return value;
  return `${m[1]!.padStart(2, '0')}:${m[2]!.padStart(2, '0')}:${String(Math.floor(Number(m[3]))).padStart(2, '0')}`;
}

interface Cell {
  readonly value: string | null;
  /** What the cell's `office:value-type` says it holds (file-types.ts). */
  readonly kind: CellKind | undefined;
  readonly repeat: number;
}

/** `office:value-type` → the kind of value; a time of day (a duration) and a string are left to inference. */
const ODS_KINDS: Readonly<Record<string, CellKind>> = {
  float: 'number',
  percentage: 'number',
  currency: 'number',
  date: 'date',
  boolean: 'bool',
};

/** One pass over content.xml: every sheet's name and whether it has a value, and the rows of the one wanted. */
async function scan(
  zip: ZipArchive,
  wanted: ((sheet: string, index: number) => boolean) | null,
  onRow: (row: SheetRow) => boolean,
): Promise<SheetChoice[]> {
  const sheets: SheetChoice[] = [];
  let sheet = '';
  let hasValue = false;
  let reading = false;
  let stopped = false;
  let rowNumber = 0;
  let rowRepeat = 1;
  let row: Cell[] = [];
  let cellValue: string | null = null;
  let cellKind: CellKind | undefined;
  let cellRepeat = 1;
  let text = '';
  let paragraphs = 0;
  let inCell = false;
  const content = zip.find('content.xml');
  if (!content) throw new ImportInputError(message('import.refused.bad_ods', 'This ODS file has no content part: it is damaged.'));
  await streamXml(await zip.open(content), {
    onOpen: (tag) => {
      switch (tag.name) {
        case 'table:table':
          sheet = attr(tag, 'table:name') ?? `Sheet${sheets.length + 1}`;
          hasValue = false;
          rowNumber = 0;
          reading = !stopped && wanted !== null && wanted(sheet, sheets.length);
          break;
        case 'table:table-row':
          rowRepeat = Number(attr(tag, 'table:number-rows-repeated') ?? 1);
          row = [];
          break;
        case 'table:table-cell':
        case 'table:covered-table-cell': {
          inCell = true;
          text = '';
          paragraphs = 0;
          cellRepeat = Number(attr(tag, 'table:number-columns-repeated') ?? 1);
          const type = attr(tag, 'office:value-type');
          cellKind = type !== undefined && Object.hasOwn(ODS_KINDS, type) ? ODS_KINDS[type] : undefined;
          cellValue =
            type === 'float' || type === 'percentage' || type === 'currency'
              ? (attr(tag, 'office:value') ?? null)
              : type === 'date'
                ? (attr(tag, 'office:date-value') ?? null)
                : type === 'time'
                  ? durationText(attr(tag, 'office:time-value') ?? '')
                  : type === 'boolean'
                    ? (attr(tag, 'office:boolean-value') ?? null)
                    : null;
          break;
        }
        case 'text:p':
          if (inCell && paragraphs++ > 0) text += '\n';
          break;
        case 'text:s':
          if (inCell) text += ' '.repeat(Number(attr(tag, 'text:c') ?? 1));
          break;
        case 'text:tab':
          if (inCell) text += '\t';
          break;
        case 'text:line-break':
          if (inCell) text += '\n';
          break;
      }
      return true;
    },
    onText: (t) => {
      if (inCell) text += t;
    },
    onClose: (tag) => {
      switch (tag.name) {
        case 'table:table-cell':
        case 'table:covered-table-cell': {
          inCell = false;
          const value = cellValue ?? (text === '' ? null : text);
          if (value !== null) hasValue = true;
          row.push({ value, kind: value === null ? undefined : (cellKind ?? 'text'), repeat: cellRepeat });
          break;
        }
        case 'table:table-row': {
          const first = rowNumber + 1;
          rowNumber += rowRepeat;
          if (!reading || !row.some((c) => c.value !== null)) break;
          const cells: string[] = [];
          const kinds: (CellKind | undefined)[] = [];
          for (const c of row) {
            if (c.value === null) {
              // Empty repeated cells only move the column on; trailing ones are dropped.
              for (let i = 0; i < c.repeat; i++) cells.push('');
            } else {
              for (let i = 0; i < c.repeat; i++) {
                kinds[cells.length] = c.kind;
                cells.push(c.value);
              }
            }
          }
          while (cells.length && cells[cells.length - 1] === '') cells.pop();
          for (let i = 0; i < Math.min(rowRepeat, MAX_REPEATED_ROWS); i++) {
            if (!onRow({ number: first + i, cells, kinds })) {
              reading = false;
              stopped = true;
              break;
            }
          }
          break;
        }
        case 'table:table':
          if (reading) stopped = true;
          reading = false;
          sheets.push({ name: sheet, empty: !hasValue });
          break;
      }
      return true;
    },
  });
  return sheets;
}

export async function readOdsTable(req: ReadRequest): Promise<RawTable> {
  const zip = await openZip(req.path);
  try {
    const sheets = await scan(zip, null, () => true);
    const workbook = {
      sheets,
      rows: async (name: string, onRow: (row: SheetRow) => boolean) => {
        await scan(zip, (sheet) => sheet === name, onRow);
      },
    };
    return await readSheetTable('ods', workbook, req);
  } finally {
    zip.close();
  }
}
