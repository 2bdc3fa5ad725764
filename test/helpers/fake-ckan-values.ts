/**
 * A CKAN 2.10 portal that answers with a real CKAN 2.10.10's own bytes (test/fixtures/portal/
 * ckan-2.10-values/, recorded from that CKAN on 2026-11-27, see the fixtures README): one
 * DataStore resource whose values a mirror must not change — numeric scales and 30-digit
 * numerics, timestamps with fractions (only datastore_search_sql shows them), int8 past 2^53,
 * float8 extremes, JSON cells with `100.0` and `""`, accents, arrays. datastore_search_sql can be
 * switched off, as CKAN 2.10+ ships it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixtureFile } from './fixtures';

export const VALUES_RESOURCE_ID = '0b1fd6a3-1b82-4cd0-b6fd-dcc6c947b017';
export const VALUES_DATASET = 'i23-values';

const answer = (name: string) => readFileSync(fixtureFile('portal', `ckan-2.10-values/${name}`), 'utf8');

export interface ValuesPortal {
  readonly url: string;
  readonly seen: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

export async function startValuesPortal(opts: { sql: boolean }): Promise<ValuesPortal> {
  const seen: ValuesPortal['seen'] = [];
  const send = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    res.end(text);
  };
  const notFound = (res: ServerResponse) =>
    send(res, 404, '{"success": false, "error": {"__type": "Not Found Error", "message": "Not found"}}');
  const pkg = () => {
    const body = JSON.parse(answer('package_show.json')) as { result: { resources: { id: string; datastore_active?: boolean }[] } };
    body.result.resources = body.result.resources.filter((r) => r.id === VALUES_RESOURCE_ID);
    return JSON.stringify(body);
  };
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? 'GET', path: `${u.pathname}${u.search}`, body });
      const action = u.pathname.startsWith('/api/3/action/') ? u.pathname.slice('/api/3/action/'.length) : null;
      const params: Record<string, unknown> =
        req.method === 'POST' && body ? (JSON.parse(body) as Record<string, unknown>) : Object.fromEntries(u.searchParams);
      if (action === 'status_show')
        return send(res, 200, '{"help": "", "success": true, "result": {"ckan_version": "2.10.10", "site_title": "CKAN"}}');
      if (action === 'package_show') return params.id === VALUES_DATASET ? send(res, 200, pkg()) : notFound(res);
      if (action === 'datastore_search') {
        if (params.resource_id !== VALUES_RESOURCE_ID) return notFound(res);
        if (String(params.limit) === '0') return send(res, 200, answer('search-limit-0.json'));
        if (params.sort === '_id desc') return send(res, 200, answer('search-last-id.json'));
        if (params.records_format === 'lists' && Number(params.offset ?? 0) === 0) return send(res, 200, answer('search-page.json'));
        return notFound(res);
      }
      if (action === 'datastore_search_sql') {
        // CKAN 2.10 with ckan.datastore.sqlsearch.enabled = false does not know the action.
        if (!opts.sql) return send(res, 400, '"Bad request - Action name not known: datastore_search_sql"');
        return String(params.sql).includes('"_id" > 0 ') ? send(res, 200, answer('sql-page.json')) : notFound(res);
      }
      return notFound(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
