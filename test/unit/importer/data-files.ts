/**
 * The real CSV files vendored in test/fixtures/data (see its README) and a reference parse of each,
 * done with the README's stated encoding, delimiter and preamble, independently of the
 * sniffers under test, so a sniffing bug cannot hide an inference bug or the reverse.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { DATA } from '../../helpers/deskstore-process';

/** The unpacked fixtures (or DESKSTORE_TEST_DATA), with a trailing separator for `DATA_DIR + name`. */
export const DATA_DIR = join(DATA, sep);

export interface DataFile {
  name: string;
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ',' | ';';
  skipLines: number;
  rows: number;
  cols: number;
}

/** Ground truth from the data README. */
export const DATA_FILES: DataFile[] = [
  { name: 'dpc-covid19-ita-province.csv.gz', encoding: 'utf-8', delimiter: ',', skipLines: 0, rows: 262807, cols: 14 },
  { name: 'dpc-covid19-ita-note.csv', encoding: 'utf-8', delimiter: ',', skipLines: 0, rows: 1617, cols: 2 },
  { name: 'istat-elenco-comuni-italiani.csv', encoding: 'windows-1252', delimiter: ';', skipLines: 0, rows: 7901, cols: 26 },
  { name: 'mise-carburanti-prezzo_alle_8-2022-03-24.csv', encoding: 'utf-8', delimiter: ';', skipLines: 1, rows: 91070, cols: 5 },
  { name: 'country-codes.csv', encoding: 'utf-8', delimiter: ',', skipLines: 0, rows: 249, cols: 56 },
  { name: 'world-cities.csv', encoding: 'utf-8', delimiter: ',', skipLines: 0, rows: 34032, cols: 4 },
];

export const dataAvailable = DATA_FILES.every((f) => existsSync(DATA_DIR + f.name));

export function dataFile(name: string): DataFile {
  const f = DATA_FILES.find((d) => d.name === name);
  if (!f) throw new Error(`unknown data file ${name}`);
  return f;
}

const bytesCache = new Map<string, Buffer>();

/** The file's bytes (the province file gunzipped). */
export function readBytes(name: string): Buffer {
  let bytes = bytesCache.get(name);
  if (!bytes) {
    bytes = readFileSync(DATA_DIR + name);
    if (name.endsWith('.gz')) bytes = gunzipSync(bytes);
    bytesCache.set(name, bytes);
  }
  return bytes;
}

export interface ParsedFile {
  header: string[];
  rows: number;
  /** Per column: distinct raw value → number of cells. */
  distinct: Map<string, number>[];
}

const parsedCache = new Map<string, ParsedFile>();

/** Full reference parse: every row, every distinct value counted. */
export function parseDataFile(name: string): ParsedFile {
  const cached = parsedCache.get(name);
  if (cached) return cached;
  const f = dataFile(name);
  const text = iconv.decode(readBytes(name), f.encoding, { stripBOM: true });
  const result = Papa.parse<string[]>(text, { delimiter: f.delimiter, skipEmptyLines: true, skipFirstNLines: f.skipLines });
  if (result.errors.length) throw new Error(`${name}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  const [header, ...body] = result.data;
  const distinct = header!.map(() => new Map<string, number>());
  for (const row of body) {
    if (row.length !== header!.length) throw new Error(`${name}: row with ${row.length} fields`);
    row.forEach((v, i) => distinct[i]!.set(v, (distinct[i]!.get(v) ?? 0) + 1));
  }
  const parsed = { header: header!, rows: body.length, distinct };
  parsedCache.set(name, parsed);
  return parsed;
}
