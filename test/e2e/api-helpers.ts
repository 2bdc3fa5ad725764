/**
 * Direct API calls for test setup (the tests of a screen need data, not another run of the
 * import UI) and for checking what the UI claims against what the server answers.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DATA, type DeskstoreServer } from './server';

interface Envelope<T> {
  success: boolean;
  result: T;
  error?: unknown;
}

export async function action<T>(server: DeskstoreServer, name: string, body?: Record<string, unknown> | FormData): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? {}
      : {
          method: 'POST',
          headers:
            body instanceof FormData
              ? { Authorization: server.token }
              : { Authorization: server.token, 'Content-Type': 'application/json' },
          body: body instanceof FormData ? body : JSON.stringify(body),
        };
  const response = await fetch(`${server.url}/api/3/action/${name}`, init);
  const envelope = (await response.json()) as Envelope<T>;
  if (!envelope.success) throw new Error(`${name} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
}

/** Loads a CSV the way the UI does (staged upload, then resource_create) and waits for it. */
export async function importFile(server: DeskstoreServer, file: string, datasetTitle: string): Promise<string> {
  const form = new FormData();
  form.append('upload', new Blob([await readFile(file)]), basename(file));
  const preview = await action<{ upload_id: string }>(server, 'deskstore_import_preview', form);
  const name = datasetTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const pkg = await action<{ id: string }>(server, 'package_create', { name, title: datasetTitle });
  const resource = await action<{ id: string }>(server, 'resource_create', {
    package_id: pkg.id,
    name: basename(file),
    deskstore_upload_id: preview.upload_id,
  });
  for (let i = 0; i < 600; i++) {
    const status = await action<{ status: string; error: unknown }>(server, `deskstore_import_status?resource_id=${resource.id}`);
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
