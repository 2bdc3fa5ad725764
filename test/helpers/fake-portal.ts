/**
 * A small CKAN portal for tests, on loopback, that can misbehave on demand: it lives under
 * `/opendata` (the API base must be found by probing), serves one dataset with a DataStore
 * resource (datastore_search pages, and a JSON dump with ETag and Range), a CSV file resource
 * (ETag, 304, Range), a PDF and a resource with a hostile id, and injects faults into the next
 * requests of a route (`datastore_search:page` is a mirror's POSTed page of rows): a connection
 * dropped mid-body, 503, 429 with Retry-After, a response slower than the client's timeout,
 * redirect chains and loops (307 for a POST, which keeps its body), gzip, pages whose rows
 * disagree with `total`. And, as a hostile portal would (issue 21): a gzip bomb (2 GiB from
 * 2 MiB), an answer of 40 MB, a body trickled a byte at a time, a dump or a page that never
 * ends, `datastore_search` pages that never end past a total of 3, a redirect to another origin
 * (`away`), and a file resource whose URL is another origin (`state.fileUrl`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import * as hostile from './hostile-answers';

export type Fault =
  | 'drop'
  | '503'
  | '429'
  | 'slow'
  | 'redirect'
  | 'redirect-loop'
  | 'gzip'
  | 'short'
  | 'bomb'
  | 'oversized'
  | 'trickle'
  | 'endless'
  | 'away'
  | 'missing';

/** Faults that last until cleared (`persist`), for conversations of many requests. */
export type Mode = 'endless-pages';

export const DATASET_ID = 'fake-dataset-0001';
export const TABLE_ID = 'table-resource-0001';
export const FILE_ID = 'file-resource-0001';
export const PDF_ID = 'pdf-resource-0001';
export const HOSTILE_ID = '../escape-attempt';

export interface FakeState {
  rows: [number, string, number | null][];
  csv: string;
  modified: string;
  /** The file resource's URL, when it should lead somewhere else than this portal. */
  fileUrl?: string;
  /** Where `away` redirects to (an origin). */
  awayOrigin?: string;
}

export interface FakePortal {
  readonly url: string;
  readonly state: FakeState;
  readonly seen: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  /** Faults for the next requests whose path starts with `route` (`/datastore/dump`, `/files`, action names). */
  inject(route: string, ...faults: Fault[]): void;
  /** Faults that last until `clear()`. */
  readonly modes: Set<Mode>;
  /** Faults and modes forgotten. */
  clear(): void;
  /** Bytes of bodies written by the hostile faults (bomb, trickle, endless), until the client went away. */
  readonly sent: { bytes: number };
  /** Adds a row and bumps metadata_modified: the next sync has something to fetch. */
  change(): void;
  close(): Promise<void>;
}

const PREFIX = '/opendata';

export async function startFakePortal(opts: { slowMs?: number } = {}): Promise<FakePortal> {
  const state: FakeState = {
    rows: Array.from({ length: 50 }, (_, i) => [i + 1, `riga ${i + 1} “àé”`, i % 7 === 0 ? null : i * 3]),
    csv: 'codice;nome;valore\n001;Alfa;1,5\n002;Beta;2,25\n',
    modified: '2024-01-01T00:00:00.000000',
  };
  const faults = new Map<string, Fault[]>();
  const modes = new Set<Mode>();
  const sent = { bytes: 0 };
  const seen: FakePortal['seen'] = [];
  const slowMs = opts.slowMs ?? 2500;
  let url = '';

  const takeFault = (route: string): Fault | undefined => {
    for (const [key, list] of faults) if (route.startsWith(key) && list.length) return list.shift();
    return undefined;
  };
  const json = (res: ServerResponse, status: number, body: unknown, fault?: Fault) => {
    const bytes = Buffer.from(JSON.stringify(body));
    if (fault === 'gzip') {
      const zipped = gzipSync(bytes);
      res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': zipped.length });
      return res.end(zipped);
    }
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
    if (fault === 'drop') {
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      setTimeout(() => res.socket?.destroy(), 50);
      return;
    }
    res.end(bytes);
  };
  const ok = (res: ServerResponse, result: unknown) => json(res, 200, { help: `${url}/help`, success: true, result });
  const notFound = (res: ServerResponse) => json(res, 404, { success: false, error: { __type: 'Not Found Error', message: 'Not found' } });

  const dataset = () => ({
    id: DATASET_ID,
    name: 'fake-data',
    title: 'Dati finti',
    notes: 'Per i test',
    metadata_modified: state.modified,
    metadata_created: '2023-01-01T00:00:00',
    license_id: 'cc-by',
    license_title: 'Creative Commons Attribution',
    organization: { id: 'org-0001', name: 'comune-di-prova', title: 'Comune di Prova' },
    tags: [{ name: 'prova' }],
    extras: [{ key: 'frequenza', value: 'mensile' }],
    resources: [
      {
        id: TABLE_ID,
        name: 'Tabella',
        format: 'CSV',
        url: `${url}${PREFIX}/datastore/dump/${TABLE_ID}`,
        url_type: 'datastore',
        datastore_active: true,
        last_modified: state.modified,
      },
      {
        id: FILE_ID,
        name: 'File CSV',
        format: 'CSV',
        url: state.fileUrl ?? `${url}${PREFIX}/files/data.csv`,
        datastore_active: false,
        last_modified: null,
      },
      { id: PDF_ID, name: 'Documento', format: 'PDF', url: `${url}${PREFIX}/files/doc.pdf`, datastore_active: false },
      { id: HOSTILE_ID, name: 'Ostile', format: 'CSV', url: `${url}${PREFIX}/files/data.csv`, datastore_active: true },
    ],
  });
  const fields = [
    { id: '_id', type: 'int' },
    { id: 'name', type: 'text', info: { label: 'Nome' } },
    { id: 'n', type: 'int4' },
  ];
  const dumpBody = (short: boolean) => {
    const rows = short ? state.rows.slice(0, -1) : state.rows;
    return `{\n  "fields": ${JSON.stringify(fields.map(({ id, type }) => ({ id, type })))},\n  "records": [${rows.map((r) => `\n    ${JSON.stringify(r)}`).join(',')}\n]}\n`;
  };
  const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

  /** Sends a file-like body with ETag, 304 and Range, unless a fault says otherwise. */
  const sendBody = (req: IncomingMessage, res: ServerResponse, body: string, type: string, fault: Fault | undefined) => {
    const bytes = Buffer.from(body);
    const etag = etagOf(body);
    if (fault === 'gzip') {
      const zipped = gzipSync(bytes);
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'content-length': zipped.length, etag });
      res.end(zipped);
      return;
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
    if (range && req.headers['if-range'] === etag) {
      const from = Number(range[1]);
      res.writeHead(206, {
        'content-type': type,
        'content-length': bytes.length - from,
        'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}`,
        etag,
        'accept-ranges': 'bytes',
      });
      res.end(bytes.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': bytes.length, etag, 'accept-ranges': 'bytes' });
    if (fault === 'drop') {
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      setTimeout(() => res.socket?.destroy(), 50);
      return;
    }
    res.end(bytes);
  };

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => answer(req, res, body));
  });
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const u = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? 'GET', path: `${u.pathname}${u.search}`, headers: req.headers });
    if (!u.pathname.startsWith(`${PREFIX}/`)) return notFound(res);
    const path = u.pathname.slice(PREFIX.length);
    const action = path.startsWith('/api/3/action/') ? path.slice('/api/3/action/'.length) : null;
    const page = action === 'datastore_search' && req.method === 'POST';
    const fault = takeFault(page ? 'datastore_search:page' : (action ?? path));
    if (fault === 'bomb') return hostile.bomb(res, sent);
    if (fault === 'oversized') return hostile.oversized(res);
    if (fault === 'trickle') return hostile.trickle(res, sent);
    if (fault === 'endless') return page ? hostile.endlessPageBody(res, sent) : hostile.endlessDump(res, sent);
    if (fault === 'missing') return notFound(res);
    if (fault === 'away') {
      res.writeHead(302, { location: `${state.awayOrigin}${u.pathname}${u.search}` });
      return res.end();
    }
    if (action === 'datastore_search' && modes.has('endless-pages'))
      return hostile.endlessPage(
        res,
        page ? (JSON.parse(body) as Record<string, unknown>) : Object.fromEntries(u.searchParams),
        u.pathname,
        fields,
      );
    if (fault === '503')
      return json(res, 503, { success: false, error: { __type: 'Internal Server Error', message: 'Service Unavailable' } });
    if (fault === '429') {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' });
      return res.end('slow down');
    }
    if (fault === 'slow') {
      setTimeout(() => notFound(res), slowMs);
      return;
    }
    // A chain of three redirects (relative Location), or one that never ends.
    const hop = Number(u.searchParams.get('hop') ?? 0);
    const loop = u.searchParams.has('loop');
    if (fault === 'redirect' || fault === 'redirect-loop' || loop || (hop > 0 && hop < 3)) {
      if (fault === 'redirect-loop' || loop) u.searchParams.set('loop', String(Number(u.searchParams.get('loop') ?? 0) + 1));
      else u.searchParams.set('hop', String(hop + 1));
      res.writeHead(req.method === 'POST' ? 307 : 302, { location: `${PREFIX}${path}?${u.searchParams}` });
      return res.end();
    }
    if (action === 'status_show') return ok(res, { ckan_version: '2.10.10', site_title: 'Portale finto', site_url: url });
    if (action === 'package_show')
      return u.searchParams.get('id') === DATASET_ID || u.searchParams.get('id') === 'fake-data' ? ok(res, dataset()) : notFound(res);
    if (page) {
      // A mirror's page of rows: lists in _id order, by limit and offset.
      const p = JSON.parse(body) as { resource_id?: string; limit?: number; offset?: number; records_format?: string };
      if (p.resource_id !== TABLE_ID || p.records_format !== 'lists') return notFound(res);
      const rows = (fault === 'short' ? state.rows.slice(0, -1) : state.rows).slice(p.offset ?? 0, (p.offset ?? 0) + (p.limit ?? 100));
      return json(res, 200, { help: `${url}/help`, success: true, result: { resource_id: TABLE_ID, fields, records: rows } }, fault);
    }
    if (action === 'datastore_search') {
      if (u.searchParams.get('resource_id') !== TABLE_ID) return notFound(res);
      const desc = u.searchParams.get('sort') === '_id desc';
      const limit = Number(u.searchParams.get('limit') ?? 100);
      const rows = (desc ? [...state.rows].reverse() : state.rows).slice(0, limit);
      return ok(res, {
        resource_id: TABLE_ID,
        fields,
        total: state.rows.length,
        records: rows.map(([id, name, n]) => (desc ? { _id: id } : { _id: id, name, n })),
        _links: { start: '' },
      });
    }
    if (path === `/datastore/dump/${TABLE_ID}`) return sendBody(req, res, dumpBody(fault === 'short'), 'application/json', fault);
    if (path === '/files/data.csv') return sendBody(req, res, state.csv, 'text/csv', fault);
    if (path === '/files/doc.pdf') return sendBody(req, res, '%PDF-1.4', 'application/pdf', fault);
    return notFound(res);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    seen,
    inject(route, ...list) {
      faults.set(route, [...(faults.get(route) ?? []), ...list]);
    },
    modes,
    sent,
    clear() {
      faults.clear();
      modes.clear();
    },
    change() {
      const last = state.rows.at(-1)![0];
      state.rows.push([last + 1, `riga ${last + 1}`, last]);
      state.modified = new Date(Date.parse(`${state.modified.slice(0, 19)}Z`) + 60_000).toISOString().replace('Z', '');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
