import type { RecordsFormat } from '../../../shared/wire/search';
import { ValidationError } from '../../errors';
import type { OutputField } from '../../engine/engine-api';
import { SchemaErrors } from '../../params/validators';
import { readChangesSelection, type ChangesOutcome, type ChangesRequest, type ChangesSelection } from '../versions-actions';
import { parseDumpRequest, type DumpRequest } from './dump-request';
import type { OpenedDump } from './dump-stream';
import { createDumpWriter } from './dump-writers';
import { contentDisposition, dumpFileName } from './file-name';

/**
 * `GET /datastore/changes/<id>`: the rows `deskstore_changes` answers, as a file, in the
 * dump's formats and with its options (csv, tsv, json, xml; `bom`, `deskstore_dialect`,
 * `deskstore_filename`: docs/ckan-contract.md §11) and the action's selection (`from`, `to`,
 * `key`, `change`): how the window's Changes view is exported. Each row is `_change`, `_id`,
 * every compared column, then `_before` (the old values of a changed row's changed cells, as a
 * JSON object). Pages are asked of the changes worker one after another, so a million changed
 * rows never sit in memory at once.
 */
export interface ChangesDumpRequest {
  readonly dump: DumpRequest;
  readonly selection: ChangesSelection;
}

/** Records per page asked of the changes worker. */
const PAGE = 10_000;

export function parseChangesDumpRequest(resourceId: string, query: URLSearchParams): ChangesDumpRequest {
  const dump = parseDumpRequest(resourceId, query);
  const errors = new SchemaErrors();
  const keys = query.getAll('key');
  const selection = readChangesSelection(
    {
      from: query.get('from') ?? undefined,
      to: query.get('to') ?? undefined,
      key: keys.length > 1 ? keys : (keys[0] ?? undefined),
      change: query.get('change') ?? undefined,
    },
    errors,
  );
  if (errors.any) throw new ValidationError(errors.members);
  return { dump, selection };
}

export interface ChangesDumpDeps {
  readonly changes: (request: ChangesRequest) => Promise<ChangesOutcome>;
  readonly resourceName: (resourceId: string) => Promise<string>;
}

export async function openChangesDump(deps: ChangesDumpDeps, req: ChangesDumpRequest): Promise<OpenedDump> {
  const { dump, selection } = req;
  const writer = createDumpWriter(dump.format, { bom: dump.bom, dialect: dump.dialect });
  const format: RecordsFormat = writer.recordsFormat;
  const page = (offset: number) => deps.changes({ resourceId: dump.resourceId, ...selection, offset, limit: PAGE, format });
  // The first page before anything is sent: a bad id or version is still a proper error answer.
  const first = await page(0);
  const name = await deps.resourceName(first.resourceId);
  const fileName = dumpFileName({
    requested: dump.fileName,
    resourceName: `${name || first.resourceId} (changes ${first.from}→${first.to}${selection.change ? `, ${selection.change}` : ''})`,
    resourceId: first.resourceId,
    search: {},
    extension: writer.extension,
  });
  async function* chunks(): AsyncGenerator<string> {
    const fields: OutputField[] = [{ id: '_change', type: 'text' }, ...first.answer.fields, { id: '_before', type: 'json' }];
    yield writer.start(fields);
    let current = first;
    for (let offset = 0; ;) {
      yield writer.page(current.answer.records);
      offset += PAGE;
      if (offset >= current.answer.total) break;
      current = await page(offset);
    }
    yield writer.end();
  }
  return { contentType: writer.contentType, contentDisposition: contentDisposition(fileName), fileName, chunks: chunks() };
}
