import type { ServerResponse } from 'node:http';
import { parseSearchParams } from '../actions/datastore-search';
import { ValidationError } from '../errors';
import type { EngineApi } from '../engine/engine-api';
import { ROWS_MAX } from '../engine/search/search-request';
import type { ExtraRoute } from '../server';

/**
 * CKAN's dump endpoint (contract §10): `GET /datastore/dump/<id>?format=csv|tsv|json` with
 * the datastore_search filters (`q`, `filters`, `fields`, `sort`, `plain`, `language`,
 * `distinct`, `limit`, `offset`, Deskstore's `deskstore_q`) and `bom=true` for Excel. Streams page by page, so a
 * million rows never sit in memory at once. This is what the UI's export uses.
 */
const FORMATS = { csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json' } as const;
type DumpFormat = keyof typeof FORMATS;

function csvHeader(names: string[], delimiter: string): string {
  return `${names.map((n) => (/[",\t\r\n]/.test(n) || n.includes(delimiter) ? `"${n.replace(/"/g, '""')}"` : n)).join(delimiter)}\n`;
}

async function write(res: ServerResponse, chunk: string): Promise<void> {
  if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve));
}

export function dumpRoute(engine: EngineApi): ExtraRoute {
  return {
    method: 'GET',
    path: '/datastore/dump/:id',
    async handle(_req, res, route) {
      const q = route.query;
      const format = (q.get('format') ?? 'csv').toLowerCase();
      if (!(format in FORMATS)) throw new ValidationError({ format: ['Value must be one of [csv, tsv, json]'] });
      const params: Record<string, unknown> = { resource_id: route.params.id };
      for (const key of ['q', 'filters', 'fields', 'sort', 'plain', 'language', 'distinct', 'full_text', 'deskstore_q']) {
        const v = q.get(key);
        if (v !== null && v !== '') params[key] = v;
      }
      const wantedLimit = q.get('limit') ? Number(q.get('limit')) : Infinity;
      let offset = q.get('offset') ? Number(q.get('offset')) : 0;
      if (!Number.isFinite(offset) || offset < 0 || Number.isNaN(wantedLimit)) {
        throw new ValidationError({ limit: ['limit and offset must be natural numbers'] });
      }
      const kind = format as DumpFormat;
      const page = (limit: number) => engine.search(parseSearchParams({
        ...params, offset, limit, include_total: false, records_format: kind === 'json' ? 'lists' : kind,
      }));
      let remaining = wantedLimit;
      let first = await page(Math.min(ROWS_MAX, remaining));
      res.writeHead(200, {
        'Content-Type': `${FORMATS[kind]}; charset=utf-8`,
        'Content-Disposition': `attachment; filename="${first.resourceId}.${kind}"`,
      });
      if (q.get('bom') === 'true' || q.get('bom') === 'True') await write(res, '\ufeff');
      const names = first.fields.map((f) => f.id);
      await write(res, kind === 'json' ? `{"fields": ${JSON.stringify(first.fields)}, "records": [` : csvHeader(names, kind === 'csv' ? ',' : '\t'));
      let wroteRecord = false;
      for (;;) {
        const count = first.recordCount;
        if (kind === 'json') {
          const inner = first.records.slice(1, -1);
          if (inner) {
            await write(res, (wroteRecord ? ',' : '') + inner);
            wroteRecord = true;
          }
        } else {
          await write(res, first.records);
        }
        remaining -= count;
        offset += count;
        if (count < ROWS_MAX || remaining <= 0) break;
        first = await page(Math.min(ROWS_MAX, remaining));
      }
      if (kind === 'json') await write(res, ']}');
      res.end();
    },
  };
}
