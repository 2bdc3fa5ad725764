import { message, type Message } from '../../../shared/messages';
import type { ImportFormat } from '../../../shared/wire/import';
import { contentMeter, openByteStream } from '../file-source';
import { ImportInputError, importCancelled } from '../import-errors';
import type { RawTable } from '../raw-table';
import { RowCollector } from '../row-collector';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../util/json-depth';
import type { ReadRequest } from './reader';

/**
 * JSON arrays of flat objects (`[{"comune": "Aosta", "abitanti": 33916}, …]`, also the
 * `records` of a CKAN datastore_search answer) and GeoJSON FeatureCollections (each feature's
 * properties as columns, its geometry as a JSON column, and `lat`/`lon` for points). Keys
 * become columns in the order they first appear; a value that is itself an object or a list
 * is kept as its JSON text. Values keep their JSON types (`12` is a number, `"012"` text).
 *
 * The document is parsed whole (JSON has no rows to stream by), so it has a size limit.
 */
export const MAX_JSON_BYTES = 256 * 1024 ** 2;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

async function readText(req: ReadRequest): Promise<string> {
  const meter = contentMeter(req.path);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of openByteStream(req.path, 1 << 20, meter)) {
    if (req.signal?.aborted) throw importCancelled();
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) {
      throw new ImportInputError(
        message(
          'limits.json_too_big',
          `JSON files larger than ${MAX_JSON_BYTES / 1024 ** 2} MB are not imported (JSON is read whole): export the data as CSV instead.`,
          { max: `${MAX_JSON_BYTES / 1024 ** 2} MB` },
        ),
      );
    }
    chunks.push(chunk as Buffer);
    req.onProgress?.({ rows: 0, bytes: size, totalBytes: meter.totalBytes, estimated: meter.estimated });
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

function parse(text: string): Json {
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch (err) {
    throw new ImportInputError(
      message('import.refused.bad_json', `This is not valid JSON: ${(err as Error).message}`, { reason: (err as Error).message }),
    );
  }
  // The nesting limit of API bodies: a value 5,000 levels deep exhausted the stack further on.
  if (jsonDepthExceeds(doc)) {
    throw new ImportInputError(
      message(
        'import.refused.json_too_deep',
        `This JSON nests values more than ${MAX_JSON_DEPTH} levels deep, more than Deskstore imports.`,
        {
          max: MAX_JSON_DEPTH,
        },
      ),
    );
  }
  return doc;
}

/** Where the rows are: the document itself, or the first list of objects at most two levels down. */
function findRecords(doc: Json): { records: Json[]; path: string } | null {
  if (Array.isArray(doc)) return { records: doc, path: '' };
  if (!isObject(doc)) return null;
  for (const [key, value] of Object.entries(doc)) {
    if (Array.isArray(value) && value.some(isObject)) return { records: value, path: key };
  }
  for (const [key, value] of Object.entries(doc)) {
    if (!isObject(value)) continue;
    for (const [inner, list] of Object.entries(value)) {
      if (Array.isArray(list) && list.some(isObject)) return { records: list, path: `${key}.${inner}` };
    }
  }
  return null;
}

/** A value as the canonical text type inference reads. */
function cellText(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

interface Rows {
  readonly header: string[];
  readonly rows: Iterable<string[]>;
  readonly count: number;
  readonly reasons: Message[];
}

function objectRows(records: readonly Json[], path: string): Rows {
  const objects = records.filter(isObject);
  const keys = new Map<string, true>();
  for (const o of objects) for (const k of Object.keys(o)) keys.set(k, true);
  const header = [...keys.keys()];
  const where = path ? ` in "${path}"` : '';
  return {
    header,
    count: objects.length,
    rows: (function* () {
      for (const o of objects) yield header.map((k) => cellText(o[k]));
    })(),
    reasons: [
      message('import.json.records', `${objects.length} objects${where}, their ${header.length} keys as columns`, {
        records: objects.length,
        columns: header.length,
        path,
      }),
    ],
  };
}

function featureRows(features: readonly Json[]): Rows {
  const objects = features.filter(isObject);
  const keys = new Map<string, true>();
  let points = 0;
  for (const f of objects) {
    if (isObject(f.properties)) for (const k of Object.keys(f.properties)) keys.set(k, true);
    if (isObject(f.geometry) && f.geometry.type === 'Point') points++;
  }
  const properties = [...keys.keys()];
  const header = [...properties, 'geometry', ...(points ? ['lat', 'lon'] : [])];
  return {
    header,
    count: objects.length,
    rows: (function* () {
      for (const f of objects) {
        const props = isObject(f.properties) ? f.properties : {};
        const geometry = isObject(f.geometry) ? f.geometry : null;
        const row = [...properties.map((k) => cellText(props[k])), cellText(geometry)];
        if (points) {
          const c = geometry?.type === 'Point' && Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
          row.push(cellText(c[1]), cellText(c[0]));
        }
        yield row;
      }
    })(),
    reasons: [
      message(
        'import.geojson.features',
        `${objects.length} features: their properties as columns, the geometry as JSON${points ? `, lat/lon for the ${points} points` : ''}`,
        { features: objects.length, points },
      ),
    ],
  };
}

/** A preview shows this many records. */
const PREVIEW_RECORDS = 1000;

export async function readJsonTable(req: ReadRequest): Promise<RawTable> {
  const doc = parse(await readText(req));
  let rows: Rows;
  const geojson = isObject(doc) && doc.type === 'FeatureCollection' && Array.isArray(doc.features);
  if (geojson) {
    rows = featureRows(doc.features as Json[]);
  } else {
    const found = findRecords(doc);
    if (!found || !found.records.some(isObject)) {
      throw new ImportInputError(
        message(
          'import.refused.json_shape',
          'This JSON holds no list of objects to import as rows (expected [{"column": value, …}, …] or a GeoJSON FeatureCollection).',
        ),
      );
    }
    rows = objectRows(found.records, found.path);
  }
  const collector = new RowCollector({
    header: rows.header,
    trim: req.choices.trim ?? true,
    joiner: ',',
    ...(req.choices.repairs ? { repairs: req.choices.repairs } : {}),
    ...(req.spill ? { spill: req.spill } : {}),
  });
  // A record's "line" is its position in the list.
  let record = 0;
  for (const row of rows.rows) {
    if (req.sampleBytes !== undefined && record >= PREVIEW_RECORDS) break;
    collector.add(row, ++record);
  }
  const { header, columns, rows: count, repairs, spill } = collector.finish();
  const format: ImportFormat = geojson ? 'geojson' : 'json';
  return {
    layout: {
      format,
      encoding: 'utf-8',
      delimiter: ',',
      skipLines: 0,
      headerLine: 1,
      confidence: 1,
      reasons: rows.reasons,
      decimalComma: false,
    },
    header,
    columns,
    rows: count,
    repairs,
    warnings: [],
    complete: count === rows.count,
    spill,
  };
}
