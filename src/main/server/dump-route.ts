/**
 * `GET /datastore/dump/<id>` (docs/ckan-contract.md §11): CKAN's download of a table as csv,
 * tsv, json or xml, plus Deskstore's `deskstore_dialect=excel-it` and `deskstore_filename`;
 * and `GET /datastore/changes/<id>`, the rows that changed between two versions, the same way.
 * The pages and the file format come from actions/dump; this route only streams the chunks
 * with backpressure and stops reading pages when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { parseDumpRequest } from '../actions/dump/dump-request';
import { openDump, type DumpEngine, type OpenedDump } from '../actions/dump/dump-stream';
import { openChangesDump, parseChangesDumpRequest, type ChangesDumpDeps } from '../actions/dump/changes-dump';
import type { ExtraRoute } from './types';

async function write(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (chunk === '' || res.write(chunk)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** The chunks of an opened dump, with backpressure, until the client goes away. */
async function send(res: ServerResponse, dump: OpenedDump): Promise<void> {
  res.writeHead(200, { 'Content-Type': dump.contentType, 'Content-Disposition': dump.contentDisposition });
  for await (const chunk of dump.chunks) {
    if (!(await write(res, chunk))) return;
  }
  res.end();
}

export function dumpRoute(engine: DumpEngine): ExtraRoute {
  return {
    method: 'GET',
    path: '/datastore/dump/:id',
    async handle(_req, res, route) {
      const request = parseDumpRequest(route.params.id ?? '', route.query);
      await send(res, await openDump(engine, request, route.context.siteUrl));
    },
  };
}

/**
 * `GET /datastore/changes/<id>`: the rows deskstore_changes answers, as the dump's files
 * (actions/dump/changes-dump.ts; docs/versions.md).
 */
export function changesDumpRoute(deps: ChangesDumpDeps): ExtraRoute {
  return {
    method: 'GET',
    path: '/datastore/changes/:id',
    async handle(_req, res, route) {
      const request = parseChangesDumpRequest(route.params.id ?? '', route.query);
      await send(res, await openChangesDump(deps, request));
    },
  };
}
