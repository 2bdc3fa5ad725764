import Papa from 'papaparse';
import type { OutputField, RecordsFormat } from '../../engine/engine-api';
import { JsonNumber, JsonObject, parseOrderedJson, type OrderedJson } from './ordered-json';
import { pythonJson, pythonStr } from './python-values';

/**
 * The dump's file formats (docs/ckan-contract.md §11). csv, tsv, json and xml are byte for
 * byte what CKAN's `ckanext/datastore/writer.py` writes around datastore_search pages;
 * `excel-it` is Deskstore's own CSV flavour for Excel set to Italian.
 */
export type DumpFormat = 'csv' | 'tsv' | 'json' | 'xml';
export type DumpDialect = 'excel-it';

export interface DumpWriter {
  /** The datastore_search records_format whose pages this writer turns into the file. */
  readonly recordsFormat: RecordsFormat;
  readonly contentType: string;
  readonly extension: string;
  start(fields: readonly OutputField[]): string;
  /** One page of records as datastore_search returned them (text, or JSON text). */
  page(records: string): string;
  end(): string;
}

const BOM = '\ufeff';

/**
 * One row as Python's `csv.writer` writes it (QUOTE_MINIMAL): a cell is quoted when it holds
 * the delimiter, a quote, CR or LF, or when it is the only cell and empty; rows end in CRLF.
 * CKAN writes only the header this way; the records come from PostgreSQL and end in LF.
 */
export function pythonCsvRow(cells: readonly string[], delimiter: string): string {
  const quoted = cells.map((cell) =>
    cell.includes(delimiter) || /["\r\n]/.test(cell) || (cell === '' && cells.length === 1) ? `"${cell.replace(/"/g, '""')}"` : cell,
  );
  return `${quoted.join(delimiter)}\r\n`;
}

/** csv and tsv: a Python header line, then PostgreSQL's `COPY ... csv` text as it comes. */
function delimitedWriter(format: 'csv' | 'tsv', bom: boolean): DumpWriter {
  const delimiter = format === 'csv' ? ',' : '\t';
  return {
    recordsFormat: format,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'text/tab-separated-values; charset=utf-8',
    extension: format,
    start: (fields) =>
      (bom ? BOM : '') +
      pythonCsvRow(
        fields.map((f) => f.id),
        delimiter,
      ),
    page: (records) => records,
    end: () => '',
  };
}

/** One record per line, four spaces in, compact inside: simplejson's output in CKAN's frame. */
function jsonWriter(bom: boolean): DumpWriter {
  let first = true;
  return {
    recordsFormat: 'lists',
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    start: (fields) => `${bom ? BOM : ''}{\n  "fields": ${pythonJson(parseOrderedJson(JSON.stringify(fields)))},\n  "records": [`,
    page(records) {
      let out = '';
      for (const record of parseOrderedJson(records) as OrderedJson[]) {
        out += `${first ? '\n    ' : ',\n    '}${pythonJson(record)}`;
        first = false;
      }
      return out;
    },
    end: () => '\n]}\n',
  };
}

const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (s: string): string =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#09;');

/**
 * ElementTree's serialisation of CKAN's XMLWriter nodes: None is `xsi:nil`, lists and
 * objects nest as `<value key="…">`, scalars are Python's `str()`, and an element with
 * neither text nor children is written short (`<a />`). Column names are used as tag names
 * unchecked, as CKAN does.
 */
function xmlNode(tag: string, value: OrderedJson, key: string | null): string {
  let attributes = value === null ? ' xsi:nil="true"' : '';
  if (key !== null) attributes += ` key="${escapeAttribute(key)}"`;
  let inner = '';
  if (Array.isArray(value)) inner = value.map((v, i) => xmlNode('value', v, String(i))).join('');
  else if (value instanceof JsonObject) inner = value.entries.map(([k, v]) => xmlNode('value', v, k)).join('');
  else if (value !== null) inner = escapeText(pythonStr(value));
  return inner === '' ? `<${tag}${attributes} />` : `<${tag}${attributes}>${inner}</${tag}>`;
}

function xmlWriter(bom: boolean): DumpWriter {
  let columns: string[] = [];
  let idColumn = false;
  return {
    recordsFormat: 'objects',
    contentType: 'text/xml; charset=utf-8',
    extension: 'xml',
    start(fields) {
      idColumn = fields[0]?.id === '_id';
      columns = fields.map((f) => f.id).slice(idColumn ? 1 : 0);
      return `${bom ? BOM : ''}<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n`;
    },
    page(records) {
      let out = '';
      for (const record of parseOrderedJson(records) as OrderedJson[]) {
        const values = new Map(record instanceof JsonObject ? record.entries : []);
        const id = values.get('_id');
        const attributes =
          idColumn && (typeof id === 'string' || id instanceof JsonNumber) ? ` _id="${escapeAttribute(pythonStr(id))}"` : '';
        const children = columns.map((c) => xmlNode(c, values.get(c) ?? null, null)).join('');
        out += `${children === '' ? `<row${attributes} />` : `<row${attributes}>${children}</row>`}\n`;
      }
      return out;
    },
    end: () => '</data>\n',
  };
}

const NUMERIC_TYPES = new Set(['int', 'int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'float']);

/**
 * A cell Excel would run as a formula (`=cmd|' /C calc'!A0`, `@SUM(…)`, `+…`, `-…`, or one
 * starting with a tab or a carriage return) gets a leading `'`, OWASP's defence against CSV
 * injection: a hostile portal's or file's text stays text (issue 21). Numbers are left alone,
 * a negative number being data.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const asText = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/**
 * Excel with Italian settings opens a file by double click only if it is `;`-separated,
 * UTF-8 with a BOM and CRLF, with decimal commas. The cells are CKAN's CSV cells, re-read,
 * with the decimal point of numeric columns turned into a comma, timestamps written with a
 * space (`2020-02-02 12:34:56`), which Excel recognises as a date and time, and any other cell
 * that would start a formula neutralised (asText). The plain CSV dump stays CKAN's, byte for
 * byte.
 */
function excelItalianWriter(): DumpWriter {
  let kinds: ('number' | 'timestamp' | 'other')[] = [];
  return {
    recordsFormat: 'csv',
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    start(fields) {
      kinds = fields.map((f) => (NUMERIC_TYPES.has(f.type) ? 'number' : f.type === 'timestamp' ? 'timestamp' : 'other'));
      return (
        BOM +
        pythonCsvRow(
          fields.map((f) => asText(f.id)),
          ';',
        )
      );
    },
    page(records) {
      if (records === '') return '';
      const rows = Papa.parse<string[]>(records, { delimiter: ',', newline: '\n', quoteChar: '"' }).data;
      // PostgreSQL ends every row with a newline, which papaparse reads as one more empty row.
      if (records.endsWith('\n')) rows.pop();
      return rows
        .map((row) =>
          pythonCsvRow(
            row.map((cell, i) => {
              if (kinds[i] === 'number') return cell.replace('.', ',');
              if (kinds[i] === 'timestamp') return cell.replace('T', ' ');
              return asText(cell);
            }),
            ';',
          ),
        )
        .join('');
    },
    end: () => '',
  };
}

export function createDumpWriter(format: DumpFormat, options: { bom: boolean; dialect: DumpDialect | null }): DumpWriter {
  if (options.dialect === 'excel-it') return excelItalianWriter();
  switch (format) {
    case 'csv':
    case 'tsv':
      return delimitedWriter(format, options.bom);
    case 'json':
      return jsonWriter(options.bom);
    case 'xml':
      return xmlWriter(options.bom);
  }
}
