/**
 * CKAN's resource download (`ckan/views/resource.py::download`): an uploaded resource's
 * original file, or a redirect to its `url` (docs/ckan-contract.md §10.1). The file is served
 * with the resource's media type and its name `inline`, as Flask's send_file does for CKAN.
 */
import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { EngineApi } from '../engine/engine-api';
import { NotFoundError } from '../errors';
import { contentDisposition } from '../util/content-disposition';
import { mimeTypeOf } from '../util/mime-type';
import type { ExtraRoute, RouteContext } from './types';
import type { ServerResponse } from 'node:http';

export interface DownloadSource {
  readonly engine: Pick<EngineApi, 'resourceShow' | 'packageShow'>;
  /** The kept original of an uploaded resource, or null. */
  uploadedFile(resourceId: string): string | null;
}

async function download(res: ServerResponse, route: RouteContext, source: DownloadSource): Promise<void> {
  const { id = '', rid = '', filename } = route.params;
  // Both must exist, as in CKAN (which does not check that one holds the other).
  const resource = await source.engine.resourceShow(rid, route.context.siteUrl);
  await source.engine.packageShow(id, route.context.siteUrl);
  if (resource.url_type === 'upload') {
    const path = source.uploadedFile(String(resource.id));
    if (!path) throw new NotFoundError('No download is available');
    const stored = typeof resource.url === 'string' ? decodeURIComponent(resource.url.split('/').pop() ?? '') : '';
    const name = filename ?? stored ?? 'download';
    const type =
      typeof resource.mimetype === 'string' && resource.mimetype ? resource.mimetype : (mimeTypeOf(name) ?? 'application/octet-stream');
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': statSync(path).size,
      'Content-Disposition': contentDisposition(name, 'inline'),
    });
    await pipeline(createReadStream(path), res);
    return;
  }
  const url = typeof resource.url === 'string' ? resource.url : '';
  // Only web addresses: a desktop import's file:// URL is nobody else's business.
  if (!/^https?:\/\//i.test(url)) throw new NotFoundError('No download is available');
  res.writeHead(302, { Location: url, 'Content-Length': 0 });
  res.end();
}

export function downloadRoutes(source: DownloadSource): ExtraRoute[] {
  return ['/dataset/:id/resource/:rid/download', '/dataset/:id/resource/:rid/download/:filename'].map((path): ExtraRoute => ({
    method: 'GET',
    path,
    handle: (_req, res, route) => download(res, route, source),
  }));
}

/**
 * CKAN's page URLs, so a link copied from a portal opens the same thing here: a dataset page
 * goes to the catalogue (`#/?dataset=<name>`), a resource page to its table (`#/resource/<id>`),
 * in the language of the path when it has one.
 */
export function pageRoutes(): ExtraRoute[] {
  const redirect = (res: ServerResponse, route: RouteContext, fragment: string) => {
    const prefix = route.context.locale ? `/${route.context.locale}/` : '/';
    res.writeHead(302, { Location: `${prefix}#${fragment}`, 'Content-Length': 0 });
    res.end();
  };
  return [
    {
      method: 'GET',
      path: '/dataset/:id',
      handle: (_req, res, route) => redirect(res, route, `/?dataset=${encodeURIComponent(route.params.id ?? '')}`),
    },
    {
      method: 'GET',
      path: '/dataset/:id/resource/:rid',
      handle: (_req, res, route) => redirect(res, route, `/resource/${encodeURIComponent(route.params.rid ?? '')}`),
    },
  ];
}
