import { message } from '../../../shared/messages';
import type { CellKind } from '../file-types';
import { ImportInputError } from '../import-errors';
import type { RawTable } from '../raw-table';
import type { ReadRequest } from './reader';
import { readSheetTable, type SheetRow, type Workbook } from './sheet-table';
import { attr, streamXml } from './xml-stream';
import { openZip, type ZipArchive } from './zip-archive';

/**
 * XLSX (Office Open XML): the workbook part names the sheets, the styles part says which
 * number formats are dates, the shared strings part holds the text, and each sheet part is
 * streamed row by row. A cell's value is what the file stores — a number, a date serial, a
 * boolean, a formula's cached result — never its display text.
 */

/** Excel's built-in number formats that show dates or times. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A custom format code shows a date or time when, outside quotes, brackets and escapes, it has d, m, y, h or s. */
function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/_.|\*./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A date serial as ISO text: a date alone when it has no time of day. */
export function serialToIso(serial: number, date1904: boolean): string {
  // Day 60 is Excel's phantom 29 February 1900: serials from 61 count from 30 December 1899.
  const base = date1904 ? Date.UTC(1904, 0, 1) : serial < 61 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  const ms = Math.round(serial * 86_400_000);
  const d = new Date(base + ms);
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (ms % 86_400_000 === 0) return day;
  return `${day}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Excel keeps 15 significant digits: 0.1+0.2 is stored as 0.30000000000000004 but means 0.3. */
function numberText(v: string): string {
  const n = Number(v);
  return Number.isFinite(n) ? String(Number(n.toPrecision(15))) : v;
}

/** `BC12` → 54 (0-based column index). */
function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

interface Parts {
  readonly sheets: { name: string; path: string }[];
  readonly date1904: boolean;
  readonly dateStyles: boolean[];
  readonly strings: string[];
}

function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
}

async function readParts(zip: ZipArchive): Promise<Parts> {
  const part = (name: string) => zip.find(name);
  const rels = new Map<string, string>();
  const relsPart = part('xl/_rels/workbook.xml.rels');
  if (relsPart) {
    await streamXml(await zip.open(relsPart), {
      onOpen: (tag) => {
        if (tag.name === 'Relationship') rels.set(attr(tag, 'Id') ?? '', partPath(attr(tag, 'Target') ?? ''));
      },
    });
  }
  const sheets: { name: string; path: string }[] = [];
  let date1904 = false;
  await streamXml(await zip.open(part('xl/workbook.xml')!), {
    onOpen: (tag) => {
      if (tag.name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(tag, 'date1904') ?? '');
      if (tag.name === 'sheet') {
        const path = rels.get(attr(tag, 'r:id') ?? '') ?? `xl/worksheets/sheet${sheets.length + 1}.xml`;
        sheets.push({ name: attr(tag, 'name') ?? `Sheet${sheets.length + 1}`, path });
      }
    },
  });
  const dateStyles: boolean[] = [];
  const stylesPart = part('xl/styles.xml');
  if (stylesPart) {
    const custom = new Map<number, boolean>();
    let inCellXfs = false;
    await streamXml(await zip.open(stylesPart), {
      onOpen: (tag) => {
        if (tag.name === 'numFmt') custom.set(Number(attr(tag, 'numFmtId')), isDateFormatCode(attr(tag, 'formatCode') ?? ''));
        if (tag.name === 'cellXfs') inCellXfs = true;
        if (tag.name === 'xf' && inCellXfs) {
          const id = Number(attr(tag, 'numFmtId') ?? 0);
          dateStyles.push(custom.get(id) ?? BUILT_IN_DATE_FORMATS.has(id));
        }
      },
      onClose: (tag) => {
        if (tag.name === 'cellXfs') inCellXfs = false;
      },
    });
  }
  const strings: string[] = [];
  const stringsPart = part('xl/sharedStrings.xml');
  if (stringsPart) {
    let current = '';
    let inText = false;
    let phonetic = false;
    await streamXml(await zip.open(stringsPart), {
      onOpen: (tag) => {
        if (tag.name === 'si') current = '';
        if (tag.name === 'rPh') phonetic = true;
        if (tag.name === 't') inText = !phonetic;
      },
      onText: (text) => {
        if (inText) current += text;
      },
      onClose: (tag) => {
        if (tag.name === 't') inText = false;
        if (tag.name === 'rPh') phonetic = false;
        if (tag.name === 'si') strings.push(current);
      },
    });
  }
  return { sheets, date1904, dateStyles, strings };
}

/** Streams one sheet part, one row at a time. */
async function sheetRows(zip: ZipArchive, parts: Parts, path: string, onRow: (row: SheetRow) => boolean): Promise<void> {
  const entry = zip.find(path);
  if (!entry) return;
  let rowNumber = 0;
  let cells: string[] = [];
  let kinds: (CellKind | undefined)[] = [];
  let column = 0;
  let type = 'n';
  let style = 0;
  let value = '';
  let inValue = false;
  await streamXml(await zip.open(entry), {
    onOpen: (tag) => {
      switch (tag.name) {
        case 'row':
          rowNumber = Number(attr(tag, 'r') ?? rowNumber + 1);
          cells = [];
          kinds = [];
          column = 0;
          break;
        case 'c': {
          const ref = attr(tag, 'r');
          if (ref) column = columnIndex(ref);
          type = attr(tag, 't') ?? 'n';
          style = Number(attr(tag, 's') ?? 0);
          value = '';
          break;
        }
        case 'v':
        case 't':
          inValue = true;
          break;
      }
      return true;
    },
    onText: (text) => {
      if (inValue) value += text;
    },
    onClose: (tag) => {
      switch (tag.name) {
        case 'v':
        case 't':
          inValue = false;
          break;
        case 'c':
          while (cells.length < column) cells.push('');
          cells[column] = cellText(parts, type, style, value);
          kinds[column] = cellKind(parts, type, style);
          column++;
          break;
        case 'row':
          return onRow({ number: rowNumber, cells, kinds });
      }
      return true;
    },
  });
}

/** What a cell's type (and, for a number, its format) says it holds. */
function cellKind(parts: Parts, type: string, style: number): CellKind | undefined {
  switch (type) {
    case 's':
    case 'str':
    case 'inlineStr':
      return 'text';
    case 'b':
      return 'bool';
    case 'd':
      return 'date';
    case 'e':
      return undefined;
    default:
      return parts.dateStyles[style] ? 'date' : 'number';
  }
}

function cellText(parts: Parts, type: string, style: number, value: string): string {
  switch (type) {
    case 's':
      return parts.strings[Number(value)] ?? '';
    case 'b':
      return value === '1' ? 'true' : value === '0' ? 'false' : '';
    case 'e':
      return ''; // #DIV/0!, #N/A: no value
    case 'str':
    case 'inlineStr':
      return value;
    case 'd':
      return value; // an ISO date stored as such
    default:
      if (value === '') return '';
      return parts.dateStyles[style] ? serialToIso(Number(value), parts.date1904) : numberText(value);
  }
}

export async function readXlsxTable(req: ReadRequest): Promise<RawTable> {
  const zip = await openZip(req.path);
  try {
    if (!zip.find('xl/workbook.xml')) {
      throw new ImportInputError(message('import.refused.bad_xlsx', 'This XLSX file has no workbook part: it is damaged.'));
    }
    const parts = await readParts(zip);
    const sheets = [];
    for (const s of parts.sheets) {
      let empty = true;
      await sheetRows(zip, parts, s.path, (row) => (empty = !row.cells.some((c) => c !== '')));
      sheets.push({ name: s.name, empty });
    }
    const workbook: Workbook = {
      sheets,
      rows: (name, onRow) => sheetRows(zip, parts, parts.sheets.find((s) => s.name === name)!.path, onRow),
    };
    return await readSheetTable('xlsx', workbook, req);
  } finally {
    zip.close();
  }
}
