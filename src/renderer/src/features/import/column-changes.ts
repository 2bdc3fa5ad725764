/**
 * How a replacement changes a table's columns: which go, which come, which change type.
 * Scripts and saved views name columns, so a replacement that changes them is asked about
 * first (issue 22, item 10). Pure.
 */
export interface ColumnLike {
  readonly id: string;
  readonly type: string;
}

export interface ColumnChanges {
  readonly removed: readonly ColumnLike[];
  readonly added: readonly ColumnLike[];
  readonly retyped: readonly { readonly id: string; readonly from: string; readonly to: string }[];
}

/** Type names that are one type (`int` is `int4`). */
const SAME: Readonly<Record<string, string>> = { int: 'int4', integer: 'int4', bigint: 'int8', float: 'float8', varchar: 'text' };
const canonical = (type: string) => SAME[type] ?? type;

export function columnChanges(before: readonly ColumnLike[], after: readonly ColumnLike[]): ColumnChanges {
  const own = (list: readonly ColumnLike[]) => list.filter((c) => c.id !== '_id');
  const old = new Map(own(before).map((c) => [c.id, c]));
  const next = new Map(own(after).map((c) => [c.id, c]));
  return {
    removed: [...old.values()].filter((c) => !next.has(c.id)),
    added: [...next.values()].filter((c) => !old.has(c.id)),
    retyped: [...next.values()]
      .filter((c) => old.has(c.id) && canonical(old.get(c.id)!.type) !== canonical(c.type))
      .map((c) => ({ id: c.id, from: old.get(c.id)!.type, to: c.type })),
  };
}

export function hasChanges(changes: ColumnChanges): boolean {
  return changes.removed.length + changes.added.length + changes.retyped.length > 0;
}
