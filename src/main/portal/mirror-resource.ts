import { createReadStream, createWriteStream, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { message, type Message } from '../../shared/messages';
import type { ResourceMirror, RowChanges } from '../../shared/portal';
import type { EngineApi, MirrorTable, StoredField } from '../engine/engine-api';
import { resolveFieldType } from '../engine/importer-api';
import type { ImportResult } from '../importer/import-types';
import { diffInWorker, typedImportInWorker, workerImportRunner } from '../importer/worker-runner';
import { PRIVATE_FILE_MODE, pathInside, uniqueFileName } from '../storage/data-paths';
import { rowsPastTotal, wordingOf } from '../importer/import-errors';
import { importSourceOf } from '../importer/import-report';
import type { PortalClient } from './portal-client';
import { PortalError, isPortalError } from './portal-errors';
import { parseKeepingRecords, RawRecords } from './raw-records';
import { fieldsHash, numOrNull, str, type RemoteDict } from './remote-dicts';

/**
 * One portal resource → a new, unpublished version of the local resource's files (or the
 * finding that nothing changed). DataStore resources keep the portal's data dictionary and
 * `_id`s (the JSON dump, or datastore_search pages when the dump route is missing); other
 * tabular files are downloaded and imported like any file. docs/portal.md §Resources.
 */
export interface ResourceWork {
  readonly engine: EngineApi;
  readonly client: PortalClient;
  readonly importWorker: URL;
  /** Temporary downloads (removed when done; swept at start after a crash). */
  readonly workDir: string;
  readonly ftsLanguage: 'english' | 'simple' | 'italian';
  readonly maxDownloadBytes: number;
  readonly signal?: AbortSignal;
  readonly onProgress: (phase: 'downloading' | 'building', rows: number, bytes: number, total: number | null) => void;
}

export type ResourceFetch =
  | { readonly kind: 'unchanged'; readonly mirror: ResourceMirror }
  | { readonly kind: 'built'; readonly mirror: ResourceMirror; readonly table: MirrorTable; readonly changes: RowChanges | null }
  | { readonly kind: 'skipped'; readonly mirror: ResourceMirror; readonly reason: Message };

/** A resource failed for a reason the user should read (the others go on). */
export class ResourceFailure extends Error {
  constructor(readonly reason: Message) {
    super(reason.text);
  }
}

const failure = (code: string, text: string, params?: Record<string, string | number>) => new ResourceFailure(message(code, text, params));

interface RemoteField {
  id: string;
  type: string;
  info?: Record<string, unknown>;
}

/** The DataStore's fields (without `_id`), total and highest `_id`, from two small searches. */
async function datastoreFacts(
  client: PortalClient,
  id: string,
  signal?: AbortSignal,
): Promise<{ fields: RemoteField[]; total: number; maxId: number | null }> {
  const head = await client.action<RemoteDict>('datastore_search', { resource_id: id, limit: 0 }, 'GET', signal);
  const fields = (Array.isArray(head.fields) ? head.fields : [])
    .filter((f): f is RemoteDict => typeof f === 'object' && f !== null)
    .map((f): RemoteField => ({
      id: str(f.id),
      type: str(f.type),
      ...(typeof f.info === 'object' && f.info !== null && !Array.isArray(f.info) ? { info: f.info as Record<string, unknown> } : {}),
    }))
    .filter((f) => f.id !== '_id' && f.id !== '_full_text');
  const total = numOrNull(head.total);
  if (total === null) throw failure('mirror.no_total', `The portal did not report how many rows resource ${id} has.`, { id });
  let maxId: number | null = null;
  if (total > 0) {
    const last = await client.action<RemoteDict>(
      'datastore_search',
      { resource_id: id, limit: 1, sort: '_id desc', fields: '_id' },
      'GET',
      signal,
    );
    const record = Array.isArray(last.records) ? (last.records[0] as RemoteDict | undefined) : undefined;
    maxId = numOrNull(record?._id);
  }
  return { fields, total, maxId };
}

export async function fetchDatastoreResource(
  work: ResourceWork,
  resource: RemoteDict,
  base: Omit<ResourceMirror, 'via' | 'rows' | 'maxId' | 'fieldsHash' | 'etag' | 'httpLastModified' | 'reason'>,
  previous: ResourceMirror | undefined,
  previousGeneration: number | undefined,
  full: boolean,
): Promise<ResourceFetch> {
  const id = str(resource.id);
  const facts = await datastoreFacts(work.client, id, work.signal);
  const unstorable = facts.fields.filter((f) => !resolveFieldType(f.type));
  if (unstorable.length) {
    const list = unstorable.map((f) => `"${f.id}" (${f.type})`).join(', ');
    throw failure('mirror.unsupported_type', `Deskstore cannot store the portal's column type of ${list} yet; nothing was converted.`, {
      columns: list,
    });
  }
  const hash = fieldsHash(facts.fields);
  const mirror: ResourceMirror = {
    ...base,
    via: 'datastore',
    rows: facts.total,
    maxId: facts.maxId,
    fieldsHash: hash,
    etag: null,
    httpLastModified: null,
    reason: null,
  };
  if (
    !full &&
    previous &&
    previousGeneration !== undefined &&
    previous.via === 'datastore' &&
    previous.rows === facts.total &&
    previous.maxId === facts.maxId &&
    previous.fieldsHash === hash &&
    previous.lastModified === base.lastModified &&
    previous.metadataModified === base.metadataModified
  ) {
    return { kind: 'unchanged', mirror: { ...previous, fetchedAt: base.fetchedAt } };
  }
  const file = pathInside(work.workDir, uniqueFileName('dump.json'));
  try {
    await downloadRows(work, id, facts.fields, facts.total, file);
    const { dir, generation } = await work.engine.prepareImport(id);
    try {
      const result = await typedImportInWorker(
        work.importWorker,
        {
          path: file,
          resourceId: id,
          dir,
          generation,
          fields: facts.fields,
          ftsLanguage: work.ftsLanguage,
          maxRows: facts.total,
          ...(previousGeneration !== undefined ? { previousGeneration, previousPortalIds: previous?.via === 'datastore' } : {}),
        },
        (rows) => work.onProgress('building', rows, 0, facts.total),
        work.signal,
      );
      if (result.rows !== facts.total) {
        throw failure(
          'mirror.count_mismatch',
          `The portal's data has ${result.rows} rows but its DataStore reports a total of ${facts.total}; the previous version is kept.`,
          { rows: result.rows, total: facts.total },
        );
      }
      const fields: StoredField[] = facts.fields.map((f) => ({
        id: f.id,
        type: resolveFieldType(f.type)!.name,
        ...(f.info ? { info: f.info } : {}),
      }));
      return {
        kind: 'built',
        mirror,
        changes: result.changes,
        table: { generation, fields, rows: result.rows, ftsLanguage: work.ftsLanguage, sizeBytes: result.storedBytes, source: null },
      };
    } catch (err) {
      await work.engine.abandonImport(id, generation);
      throw err;
    }
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * The most bytes a portal's rows may take, from the total it announced: generous per row (a
 * row of many long texts fits), so that a portal saying `total: 3` cannot stream gigabytes
 * (issue 21), and never more than the download cap.
 */
const BYTES_PER_ROW = 1024 * 1024;
const BYTES_BASE = 16 * 1024 * 1024;
export const rowsByteBound = (total: number, maxDownloadBytes: number): number =>
  Math.min(maxDownloadBytes, BYTES_BASE + total * BYTES_PER_ROW);

function tooManyBytes(total: number, max: number): ResourceFailure {
  return failure(
    'mirror.rows_too_large',
    `The portal's data for ${total} rows is larger than ${Math.round(max / 1024 / 1024)} MB; the previous version is kept.`,
    { total, max: `${Math.round(max / 1024 / 1024)} MB` },
  );
}

/**
 * The rows as a file in the JSON dump's shape, each value copied as the portal wrote it
 * (raw-records.ts), never through a JavaScript number: the portal's own JSON dump is not used,
 * because CKAN re-encodes it through Python floats (`310.00` → `310.0`, 30 digits → 17).
 * `datastore_search` pages (`records_format=lists`, `_id` order) give every value as
 * PostgreSQL wrote it but a `timestamp`'s fraction of a second, which CKAN cuts there; a table
 * with timestamp columns is therefore read with `datastore_search_sql` when the portal allows
 * it (CKAN 2.10+ disables it by default), and through datastore_search otherwise. Both are
 * bounded by the announced total: in bytes (rowsByteBound), and at the first row past it.
 */
async function downloadRows(work: ResourceWork, id: string, fields: readonly RemoteField[], total: number, file: string): Promise<void> {
  const maxBytes = rowsByteBound(total, work.maxDownloadBytes);
  const out = createWriteStream(file, { mode: PRIVATE_FILE_MODE });
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (bytes > maxBytes) throw tooManyBytes(total, maxBytes);
    if (!out.write(text)) await once(out, 'drain');
  };
  const columns = ['_id', ...fields.map((f) => f.id)];
  let done = 0;
  const writeRows = async (rows: readonly string[][]) => {
    for (const cells of rows) {
      if (done === total) throw rowsPastTotal(total);
      await write(`${done > 0 ? ',' : ''}\n[${cells.join(',')}]`);
      done++;
    }
    work.onProgress('downloading', done, 0, total);
  };
  try {
    await write(
      `{"fields": ${JSON.stringify([{ id: '_id', type: 'int' }, ...fields.map((f) => ({ id: f.id, type: f.type }))])}, "records": [`,
    );
    const hasTimestamps = fields.some((f) => resolveFieldType(f.type)?.storage === 'timestamp');
    if (!(hasTimestamps && (await sqlPages(work, id, columns, total, writeRows)))) await searchPages(work, id, columns, total, writeRows);
    await write('\n]}\n');
  } finally {
    out.end();
    await once(out, 'close');
  }
}

/** Rows asked for per page, and the fewest when pages are too large to answer. */
const PAGE_ROWS = 10_000;
const MIN_PAGE_ROWS = 100;

/** A page of wide rows past the answer cap: the same rows in smaller pages (null: give up). */
function smallerPage(err: unknown, limit: number): number | null {
  if (!isPortalError(err) || err.worded.code !== 'portal.answer_too_large' || limit <= MIN_PAGE_ROWS) return null;
  return Math.max(MIN_PAGE_ROWS, Math.floor(limit / 4));
}

function rawRecords(page: RemoteDict): RawRecords {
  if (!(page.records instanceof RawRecords)) throw failure('mirror.no_records', 'The portal answered without records.');
  return page.records;
}

/** datastore_search pages in `_id` order (POST, so column names with commas stay whole). */
async function searchPages(
  work: ResourceWork,
  id: string,
  columns: readonly string[],
  total: number,
  put: (rows: string[][]) => Promise<void>,
): Promise<void> {
  let limit = PAGE_ROWS;
  for (let offset = 0; ;) {
    let page: RemoteDict;
    try {
      page = await work.client.action<RemoteDict>(
        'datastore_search',
        { resource_id: id, limit, offset, sort: '_id', include_total: false, fields: columns, records_format: 'lists' },
        'POST',
        work.signal,
        parseKeepingRecords,
      );
    } catch (err) {
      const smaller = smallerPage(err, limit);
      if (smaller === null) throw err;
      limit = smaller;
      continue;
    }
    const rows = rawRecords(page).rows(columns);
    await put(rows);
    offset += rows.length;
    if (rows.length < limit || offset >= total) return;
  }
}

/**
 * datastore_search_sql pages by `_id`, which keep timestamps' fractions. False when the portal
 * refuses the first query (disabled, not authorized): the caller reads datastore_search then.
 */
async function sqlPages(
  work: ResourceWork,
  id: string,
  columns: readonly string[],
  total: number,
  put: (rows: string[][]) => Promise<void>,
): Promise<boolean> {
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  let last = 0;
  let first = true;
  let limit = PAGE_ROWS;
  for (let read = 0; ;) {
    const sql = `SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(id)} WHERE "_id" > ${last} ORDER BY "_id" LIMIT ${limit}`;
    let page: RemoteDict;
    try {
      page = await work.client.action<RemoteDict>('datastore_search_sql', { sql }, 'POST', work.signal, parseKeepingRecords);
    } catch (err) {
      if (first && isPortalError(err) && err.status !== null && [400, 403, 404, 409].includes(err.status)) return false;
      const smaller = smallerPage(err, limit);
      if (smaller === null) throw err;
      limit = smaller;
      continue;
    }
    first = false;
    const rows = rawRecords(page).rows(columns);
    await put(rows);
    read += rows.length;
    if (rows.length < limit || read >= total) return true;
    last = Number(JSON.parse(rows[rows.length - 1]![0]!));
  }
}

/** Formats the importer reads, by CKAN `format` or the URL's extension. */
const TABULAR = /^(csv|tsv|txt|text\/csv|text\/tab-separated-values)$/i;
const TABULAR_URL = /\.(csv|tsv|txt)(\.gz)?(?:[?#].*)?$/i;

export function isTabular(resource: RemoteDict): boolean {
  return TABULAR.test(str(resource.format).trim()) || TABULAR_URL.test(str(resource.url));
}

const GZIP_MAGIC = [0x1f, 0x8b];

function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    closeSync(fd);
  }
}

export async function fetchFileResource(
  work: ResourceWork,
  resource: RemoteDict,
  base: Omit<ResourceMirror, 'via' | 'rows' | 'maxId' | 'fieldsHash' | 'etag' | 'httpLastModified' | 'reason'>,
  previous: ResourceMirror | undefined,
  previousGeneration: number | undefined,
  full: boolean,
): Promise<ResourceFetch> {
  const id = str(resource.id);
  const url = str(resource.url);
  if (!/^https?:\/\//i.test(url))
    throw failure('mirror.bad_url', `The resource's url ${JSON.stringify(url)} is not an http(s) address.`, { url });
  const sameSignals =
    previous?.via === 'file' &&
    previousGeneration !== undefined &&
    previous.lastModified === base.lastModified &&
    previous.size === base.size &&
    previous.hash === base.hash &&
    previous.metadataModified === base.metadataModified;
  const file = pathInside(work.workDir, uniqueFileName('download'));
  const plain = `${file}.csv`;
  try {
    const download = await work.client.download(url, file, {
      maxBytes: work.maxDownloadBytes,
      ...(work.signal ? { signal: work.signal } : {}),
      ...(!full && previous?.via === 'file' && previousGeneration !== undefined
        ? { etag: previous.etag, lastModified: previous.httpLastModified }
        : {}),
      onProgress: (bytes, size) => work.onProgress('downloading', 0, bytes, size),
    });
    const mirrorOf = (rows: number | null): ResourceMirror => ({
      ...base,
      via: 'file',
      rows,
      maxId: rows,
      fieldsHash: null,
      etag: download.etag,
      httpLastModified: download.lastModified,
      reason: null,
    });
    if (download.notModified && previous) return { kind: 'unchanged', mirror: { ...previous, fetchedAt: base.fetchedAt } };
    let path = file;
    if (isGzipFile(file)) {
      await pipeline(createReadStream(file), createGunzip(), createWriteStream(plain, { mode: PRIVATE_FILE_MODE }));
      path = plain;
    }
    const { dir, generation } = await work.engine.prepareImport(id);
    try {
      // Published with the rest of the mirror in one commit, not when searchable.
      const result: ImportResult = await workerImportRunner(work.importWorker, work.signal)(
        // The remote file's name lets the importer tell a workbook, zip or JSON from a CSV.
        {
          path,
          name: path === plain ? remoteFileName(download.url).replace(/\.gz$/i, '') : remoteFileName(download.url),
          resourceId: id,
          dir,
          generation,
          ftsLanguage: work.ftsLanguage,
        },
        (p) => work.onProgress('building', p.rows, p.bytes, p.totalBytes),
        async () => {},
      );
      const changes = previousGeneration !== undefined ? await diffInWorker(work.importWorker, dir, previousGeneration, generation) : null;
      if (sameSignals && changes && changes.added + changes.removed + changes.changed === 0 && !full) {
        // Downloaded again (no validators) but identical: report it as unchanged, keep the old files.
        await work.engine.abandonImport(id, generation);
        return { kind: 'unchanged', mirror: { ...mirrorOf(result.rows), fetchedAt: base.fetchedAt } };
      }
      return {
        kind: 'built',
        mirror: mirrorOf(result.rows),
        changes,
        table: {
          generation,
          ftsLanguage: work.ftsLanguage,
          rows: result.rows,
          sizeBytes: result.storedBytes,
          fields: result.fields.map((f) => ({ id: f.id, type: f.type, info: f.info })),
          source: importSourceOf(result, remoteFileName(download.url)),
        },
      };
    } catch (err) {
      await work.engine.abandonImport(id, generation);
      throw err;
    }
  } finally {
    rmSync(file, { force: true });
    rmSync(plain, { force: true });
  }
}

/** Why a resource failed, for its report line: a portal's refusal keeps the portal's own words. */
export function failureReason(err: unknown): Message {
  if (err instanceof ResourceFailure) return err.reason;
  const worded = wordingOf(err); // an importer's refusal, already in the user's words
  if (worded) return worded;
  if (err instanceof PortalError)
    return err.portalText
      ? { ...err.worded, params: { ...err.worded.params, portal_message: err.portalText }, text: err.message }
      : err.worded;
  const text = err instanceof Error ? err.message : String(err);
  return message('mirror.failed', text, { detail: text });
}

/** The last segment of a download URL, as the file's name. */
function remoteFileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'download.csv';
  } catch {
    return 'download.csv'; // a malformed escape in a hostile URL: still a usable name
  }
}
