import type { ChangeKind } from '../../../shared/wire/versions';
import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import { jsonCell } from '../values/encode';
import type { RowDiff } from './row-diff';

/**
 * One page of `deskstore_changes` records as JSON text, values written exactly as
 * datastore_search writes them (values/encode.ts): added rows, then removed rows, then
 * changed rows, each kind in `_id` order; `kind` keeps one of them.
 */
export interface ChangePage {
  readonly total: number;
  readonly fields: { id: string; type: string }[];
  readonly records: string;
}

export function changePage(
  diff: RowDiff,
  before: TableStore,
  after: TableStore,
  kind: ChangeKind | null,
  offset: number,
  limit: number,
): ChangePage {
  const lists: { kind: ChangeKind; length: number }[] = [
    { kind: 'added', length: diff.added.length },
    { kind: 'removed', length: diff.removed.length },
    { kind: 'changed', length: diff.changedAfter.length },
  ].filter((l) => kind === null || l.kind === kind) as { kind: ChangeKind; length: number }[];
  const total = lists.reduce((n, l) => n + l.length, 0);
  const afterColumns = after.columns;
  const beforeColumns = before.columns;
  const columnIndex = new Map(diff.columns.map((id, i) => [id, i]));
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
      if (list.kind === 'added') records.push(rowText('added', diff.added[i]!, afterColumns));
      else if (list.kind === 'removed') records.push(rowText('removed', diff.removed[i]!, beforeColumns));
      else records.push(changedText(diff, i, before, afterColumns, columnIndex));
    }
    room -= end - skip;
    skip = 0;
  }
  const fields = [
    { id: '_id', type: 'int' },
    ...diff.columns.map((id) => ({ id, type: (after.column(id) ?? before.column(id))!.type.name })),
  ];
  return { total, fields, records: `[${records.join(',')}]` };
}

function rowText(kind: ChangeKind, rowId: number, columns: readonly Column[]): string {
  let text = `{"_change":"${kind}","_id":${rowId}`;
  for (const c of columns) text += `,${JSON.stringify(c.id)}:${jsonCell(c.valueOf(rowId), c.type.storage)}`;
  return `${text}}`;
}

function changedText(
  diff: RowDiff,
  i: number,
  before: TableStore,
  afterColumns: readonly Column[],
  columnIndex: ReadonlyMap<string, number>,
): string {
  const row = rowText('changed', diff.changedAfter[i]!, afterColumns);
  const old = diff.changedBefore[i]!;
  const mask = diff.changedMask.subarray(i * diff.maskWords, (i + 1) * diff.maskWords);
  const parts: string[] = [];
  for (const id of diff.columns) {
    const c = columnIndex.get(id)!;
    if (!(mask[c >>> 5]! & (1 << (c & 31)))) continue;
    const column = before.column(id);
    parts.push(`${JSON.stringify(id)}:${column ? jsonCell(column.valueOf(old), column.type.storage) : 'null'}`);
  }
  return `${row.slice(0, -1)},"_before":{${parts.join(',')}}}`;
}
