import type { EngineApi, OutputField, SearchOutcome } from '../../engine/engine-api';
import { ROWS_MAX } from '../../../shared/wire/search';
import { searchRequest } from '../../params/search-params';
import type { DumpRequest } from './dump-request';
import { createDumpWriter, type DumpWriter } from './dump-writers';
import { contentDisposition, dumpFileName } from './file-name';

/**
 * `/datastore/dump/<id>` without the HTTP: datastore_search page after page, turned into one
 * file by a writer (docs/ckan-contract.md §11), so a million rows never sit in memory at once.
 * The first page is read before anything is sent, so a bad id or parameter still gets a
 * proper error answer instead of a cut-off file.
 */
export interface OpenedDump {
  readonly contentType: string;
  readonly contentDisposition: string;
  readonly fileName: string;
  /** The file, chunk by chunk; pull the next one only when the previous one was sent. */
  readonly chunks: AsyncIterable<string>;
}

export type DumpEngine = Pick<EngineApi, 'search' | 'resourceShow'>;

export async function openDump(engine: DumpEngine, req: DumpRequest, siteUrl: string): Promise<OpenedDump> {
  const writer = createDumpWriter(req.format, { bom: req.bom, dialect: req.dialect });
  const page = (offset: number, limit: number): Promise<SearchOutcome> =>
    engine.search(
      searchRequest({
        ...req.search,
        resource_id: req.resourceId,
        offset,
        limit,
        records_format: writer.recordsFormat,
        include_total: false,
      }),
    );
  const first = await page(req.offset, pageLimit(req.limit));
  const resource = await engine.resourceShow(first.resourceId, siteUrl);
  const fileName = dumpFileName({
    requested: req.fileName,
    resourceName: typeof resource.name === 'string' ? resource.name : '',
    resourceId: req.resourceId,
    search: req.search,
    extension: writer.extension,
  });
  return {
    contentType: writer.contentType,
    contentDisposition: contentDisposition(fileName),
    fileName,
    chunks: writeDump(writer, first, req, page),
  };
}

const pageLimit = (remaining: number | null): number => (remaining === null ? ROWS_MAX : Math.max(0, Math.min(ROWS_MAX, remaining)));

/** CKAN's `stream_dump` loop: a short page or the `limit` ends it. */
async function* writeDump(
  writer: DumpWriter,
  first: SearchOutcome,
  req: DumpRequest,
  page: (offset: number, limit: number) => Promise<SearchOutcome>,
): AsyncGenerator<string> {
  yield writer.start(first.fields satisfies readonly OutputField[]);
  let current = first;
  let offset = req.offset;
  let remaining = req.limit;
  while (remaining === null || remaining > 0) {
    yield writer.page(current.records);
    if (current.recordCount < ROWS_MAX) break;
    offset += ROWS_MAX;
    if (remaining !== null) {
      remaining -= ROWS_MAX;
      if (remaining <= 0) break;
    }
    current = await page(offset, pageLimit(remaining));
  }
  yield writer.end();
}
