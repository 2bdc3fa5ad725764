/**
 * Direct API calls for test setup (the tests of a screen need data, not another run of the
 * import UI) and for checking what the UI claims against what the server answers.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ActionName, ActionParams, ActionResult } from '../../src/shared/wire/actions';
import type { OptionalIfEmpty, TestRecords } from '../helpers/ckan-client';
import { DATA, type DeskstoreServer } from './server';

interface Envelope<T> {
  success: boolean;
  result: T;
  error?: unknown;
}

async function send<T>(server: DeskstoreServer, name: string, body: string | FormData, contentType?: string): Promise<T> {
  const headers = { Authorization: server.token, ...(contentType ? { 'Content-Type': contentType } : {}) };
  const response = await fetch(`${server.url}/api/3/action/${name}`, { method: 'POST', headers, body });
  const envelope = (await response.json()) as Envelope<T>;
  if (!envelope.success) throw new Error(`${name} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
}

/** An action through the contract (src/shared/wire/actions.ts), as POST with the token. */
export function action<K extends ActionName>(
  server: DeskstoreServer,
  name: K,
  ...params: OptionalIfEmpty<ActionParams<K>>
): Promise<ActionResult<K, TestRecords>> {
  return send(server, name, JSON.stringify(params[0] ?? {}), 'application/json');
}

/** An action whose parameters include a file (multipart form data). */
export function actionWithFile<K extends 'deskstore_import_preview' | 'resource_create'>(
  server: DeskstoreServer,
  name: K,
  form: FormData,
): Promise<ActionResult<K, TestRecords>> {
  return send(server, name, form);
}

/** Loads a CSV the way the UI does (staged upload, then resource_create) and waits for it. */
export async function importFile(server: DeskstoreServer, file: string, datasetTitle: string): Promise<string> {
  const form = new FormData();
  form.append('upload', new Blob([await readFile(file)]), basename(file));
  const preview = await actionWithFile(server, 'deskstore_import_preview', form);
  const name = datasetTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const pkg = await action(server, 'package_create', { name, title: datasetTitle });
  const resource = await action(server, 'resource_create', {
    package_id: pkg.id,
    name: basename(file),
    deskstore_upload_id: preview.upload_id!,
  });
  for (let i = 0; i < 600; i++) {
    const status = await action(server, 'deskstore_import_status', { resource_id: resource.id });
    if (status.status === 'complete') return resource.id;
    if (status.status === 'error' || status.status === 'cancelled')
      throw new Error(`import ${status.status}: ${JSON.stringify(status.error)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('import did not finish');
}

/**
 * The DPC province file (262,807 rows, 25 MB) written `times` times under one header:
 * big enough to watch an import progress, or to scroll a million rows.
 */
export async function writeProvinceFile(file: string, times: number): Promise<number> {
  await pipeline(createReadStream(join(DATA, 'dpc-covid19-ita-province.csv.gz')), createGunzip(), createWriteStream(file));
  const text = await readFile(file, 'utf8');
  const body = text.slice(text.indexOf('\n') + 1);
  for (let i = 1; i < times; i++) await appendFile(file, body);
  return 262_807 * times;
}
