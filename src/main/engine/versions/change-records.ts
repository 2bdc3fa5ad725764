import type { RecordsFormat } from '../../../shared/wire/search';
import type { ChangeKind } from '../../../shared/wire/versions';
import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { delimitedCell, jsonCell } from '../values/encode';
import type { RowDiff } from './row-diff';

/**
 * One page of `deskstore_changes` records, values written exactly as datastore_search writes
 * them (values/encode.ts): added rows, then removed rows, then changed rows, each kind in
 * `_id` order; `kind` keeps one of them. `objects` is the action's form (`_change`, the row,
 * `_before` on changed rows); `lists`, `csv` and `tsv` are the export's (the changes dump), one
 * cell per column of `fields` and one `_before` cell (a JSON object, or null) at the end.
 */
export interface ChangePage {
  readonly total: number;
  /** `_id` and the compared columns (the dump adds `_change` before and `_before` after). */
  readonly fields: { id: string; type: string }[];
  /** A JSON list (`objects`, `lists`) or the rows' text (`csv`, `tsv`: a newline after each). */
  readonly records: string;
}

export function changePage(
  diff: RowDiff,
  before: TableStore,
  after: TableStore,
  kind: ChangeKind | null,
  offset: number,
  limit: number,
  format: RecordsFormat = 'objects',
): ChangePage {
  const lists = (
    [
      { kind: 'added', length: diff.added.length },
      { kind: 'removed', length: diff.removed.length },
      { kind: 'changed', length: diff.changedAfter.length },
    ] as const
  ).filter((l) => kind === null || l.kind === kind);
  const total = lists.reduce((n, l) => n + l.length, 0);
  const writer = new RecordWriter(diff, before, format);
  const records: string[] = [];
  let skip = offset;
  let room = limit;
  for (const list of lists) {
    if (room <= 0) break;
    if (skip >= list.length) {
      skip -= list.length;
      continue;
    }
    const end = Math.min(list.length, skip + room);
    for (let i = skip; i < end; i++) {
      if (list.kind === 'added') records.push(writer.row('added', diff.added[i]!, after, null));
      else if (list.kind === 'removed') records.push(writer.row('removed', diff.removed[i]!, before, null));
      else records.push(writer.row('changed', diff.changedAfter[i]!, after, writer.before(i)));
    }
    room -= end - skip;
    skip = 0;
  }
  const fields = [
    { id: '_id', type: 'int' },
    ...diff.columns.map((id) => ({ id, type: (after.column(id) ?? before.column(id))!.type.name })),
  ];
  const text = format === 'csv' || format === 'tsv' ? records.join('') : `[${records.join(',')}]`;
  return { total, fields, records: text };
}

/** One record in the page's format. */
class RecordWriter {
  private readonly delimiter: string | null;

  constructor(
    private readonly diff: RowDiff,
    private readonly beforeStore: TableStore,
    private readonly format: RecordsFormat,
  ) {
    this.delimiter = format === 'csv' ? ',' : format === 'tsv' ? '\t' : null;
  }

  /** The old values of the i-th changed row's changed columns, as a JSON object's text. */
  before(i: number): string {
    const { diff } = this;
    const old = diff.changedBefore[i]!;
    const mask = diff.changedMask.subarray(i * diff.maskWords, (i + 1) * diff.maskWords);
    const parts: string[] = [];
    diff.columns.forEach((id, c) => {
      if (!(mask[c >>> 5]! & (1 << (c & 31)))) return;
      const column = this.beforeStore.column(id);
      parts.push(`${JSON.stringify(id)}:${column ? jsonCell(column.valueOf(old), column.type.storage) : 'null'}`);
    });
    return `{${parts.join(',')}}`;
  }

  /** A row of `store` (the version its values come from), with `before` on a changed row. */
  row(kind: ChangeKind, rowId: number, store: TableStore, before: string | null): string {
    if (this.format === 'objects') {
      let text = `{"_change":"${kind}","_id":${rowId}`;
      for (const c of store.columns) text += `,${JSON.stringify(c.id)}:${jsonCell(c.valueOf(rowId), c.type.storage)}`;
      return `${text}${before === null ? '' : `,"_before":${before}`}}`;
    }
    // One cell per compared column, NULL where this version has no such column.
    const columns: (Column | undefined)[] = this.diff.columns.map((id) => store.column(id));
    const { delimiter } = this;
    if (delimiter === null) {
      const cells = columns.map((c) => (c ? jsonCell(c.valueOf(rowId), c.type.storage) : 'null'));
      return `[${JSON.stringify(kind)},${rowId},${cells.join(',')},${before ?? 'null'}]`;
    }
    const cells = columns.map((c) => (c ? delimitedCell(c.valueOf(rowId), c.type.storage, delimiter) : ''));
    return `${[kind, String(rowId), ...cells, delimitedCell(before, 'json', delimiter)].join(delimiter)}\n`;
  }
}
