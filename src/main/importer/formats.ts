import { extname } from 'node:path';
import { message } from '../../shared/messages';
import { extensionsOf, importFormatByName, type ImportFormat } from '../../shared/import-formats';
import { readFirstBytes } from './file-source';
import { ImportInputError } from './import-errors';
import { readCsvTable } from './readers/csv-reader';
import { readJsonTable } from './readers/json-reader';
import { readOdsTable } from './readers/ods-reader';
import { readXlsxTable } from './readers/xlsx-reader';
import { openZip } from './readers/zip-archive';
import { zipReader } from './readers/zip-reader';
import type { TableReader } from './readers/reader';

/**
 * The formats Deskstore imports, one line each (docs/importing.md, "Adding a format"): how a
 * file is recognised and which reader reads it. Content decides before names: a staged upload
 * has no name on disk, and a `.csv` that is really a spreadsheet should be read as one.
 */
export interface FileFacts {
  /** The first bytes of the content (decompressed for gzip). */
  readonly head: Buffer;
  /** The name the user knows the file by, lowercased. */
  readonly name: string;
  /** For a zip: what its entries say it is. */
  readonly zipKind?: 'xlsx' | 'ods' | 'zip';
}

/** How the importer recognises a format's content and reads it. */
export interface FormatReader {
  readonly recognise: (file: FileFacts) => boolean;
  readonly read: TableReader;
}

/** A format's facts (src/shared/import-formats.ts) with its reader. */
export interface FormatEntry extends FormatReader {
  readonly id: ImportFormat;
  /** Name endings that name a file of this format. */
  readonly extensions: readonly string[];
}

const HEAD_BYTES = 4096;

const startsWith = (head: Buffer, bytes: readonly number[]): boolean => bytes.every((b, i) => head[i] === b);
const hasExtension = (name: string, extensions: readonly string[]): boolean =>
  extensions.includes(extname(name.replace(/\.gz$/i, '')).toLowerCase());

/** The legacy binary Excel format (OLE2 compound file): refused with what to do. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The content, past a BOM and white space, starts with one of `chars`. */
function startsWithChar(head: Buffer, chars: string): boolean {
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return text.length > 0 && chars.includes(text[0]!);
}

/** A zip's entry names say what it is: XLSX and ODS are zips of XML parts. */
const PK = [0x50, 0x4b, 0x03, 0x04];

/**
 * One reader per format: a format of the shared table without its reader does not compile.
 * Written in the order content is recognised (the first that recognises a file reads it, so
 * the spreadsheets come before a plain zip, GeoJSON before JSON, and CSV takes what is left).
 */
const READERS: { readonly [F in ImportFormat]: FormatReader } = {
  xlsx: { recognise: (f) => f.zipKind === 'xlsx', read: readXlsxTable },
  ods: { recognise: (f) => f.zipKind === 'ods', read: readOdsTable },
  zip: {
    recognise: (f) => startsWith(f.head, PK) && f.zipKind === 'zip',
    read: zipReader({ formatByName, readerFor: async (path, name) => (await formatOf(path, name)).read }),
  },
  geojson: {
    recognise: (f) => startsWithChar(f.head, '{') && /"type"\s*:\s*"FeatureCollection"/.test(f.head.toString('utf8')),
    read: readJsonTable,
  },
  json: { recognise: (f) => startsWithChar(f.head, '[{'), read: readJsonTable },
  csv: { recognise: () => true, read: readCsvTable },
};

export const FORMATS: readonly FormatEntry[] = (Object.keys(READERS) as ImportFormat[]).map((id) => ({
  id,
  extensions: extensionsOf(id),
  ...READERS[id],
}));

/** Which format a file is, from its content first and its name second. */
export async function formatOf(path: string, name: string): Promise<FormatEntry> {
  const { sample } = await readFirstBytes(path, HEAD_BYTES);
  if (startsWith(sample, OLE2)) {
    throw new ImportInputError(
      message(
        'import.refused.legacy_xls',
        'This is a legacy Excel (.xls) file, which Deskstore does not read: save it as XLSX or CSV and import that.',
      ),
    );
  }
  const facts: FileFacts = {
    head: sample,
    name: name.toLowerCase(),
    ...(startsWith(sample, PK) ? { zipKind: await zipKindOf(path) } : {}),
  };
  const byName = FORMATS.find((f) => f.id !== 'csv' && hasExtension(facts.name, f.extensions) && f.recognise(facts));
  return byName ?? FORMATS.find((f) => f.recognise(facts))!;
}

/** Which format a file inside an archive has, from its name alone. */
export function formatByName(name: string): ImportFormat | null {
  return importFormatByName(name);
}

/** XLSX has `xl/workbook.xml`, ODS a `mimetype` naming a spreadsheet; any other zip is an archive of files. */
async function zipKindOf(path: string): Promise<'xlsx' | 'ods' | 'zip'> {
  const zip = await openZip(path);
  try {
    if (zip.find('xl/workbook.xml')) return 'xlsx';
    const mimetype = zip.find('mimetype');
    if (mimetype && zip.find('content.xml') && (await zip.text(mimetype)).trim() === 'application/vnd.oasis.opendocument.spreadsheet')
      return 'ods';
    return 'zip';
  } finally {
    zip.close();
  }
}
