import type { ChangeCounts, ChangeKeyReason } from '../../../shared/wire/versions';
import { message } from '../../../shared/messages';
import { ValidationError, withMessage } from '../../errors';
import type { TableStore } from '../column-store/table-store';
import { groupRows, pairKeys } from './key-groups';
import { rowCodes, sharedCodes } from './shared-codes';

/**
 * The rows that differ between two versions of a resource (docs/versions.md, "Changes"),
 * computed from their column stores: every value is first renumbered into codes both versions
 * share (shared-codes.ts, once per distinct value), then rows are matched and compared as
 * integers. Nothing goes through JSON or SQL, so a million rows take seconds, not minutes.
 *
 * Rows are matched by the `key` the caller gives, else by the resource's primary key, else by
 * the column that is unique and non-empty in both versions and shares the most values between
 * them (`_id` is one when the ids name the same rows in both: a DataStore mirror keeps the
 * portal's), else whole: then an edited row is one removed and one added. Rows with equal keys
 * (a key that is not unique, or identical whole rows) pair up in `_id` order.
 */
export interface RowMatching {
  /** Columns chosen by the caller (`_id` allowed). */
  readonly key?: readonly string[];
  /** The resource's primary key, used when every column of it is in both versions. */
  readonly primaryKey: readonly string[];
  /** `_id` names the same row in both versions (a DataStore mirror keeps the portal's ids). */
  readonly rowIdsStable: boolean;
}

export interface RowDiff {
  readonly key: readonly string[] | 'row';
  readonly reason: ChangeKeyReason | null;
  /** The compared columns: the newer version's, then those only the older one has. */
  readonly columns: readonly string[];
  /** `_id`s in the newer version, ascending. */
  readonly added: Uint32Array;
  /** `_id`s in the older version, ascending. */
  readonly removed: Uint32Array;
  /** Changed rows as pairs of `_id`s (older, newer), in the newer version's `_id` order. */
  readonly changedBefore: Uint32Array;
  readonly changedAfter: Uint32Array;
  /** Per changed pair, `maskWords` words with a bit per column of `columns` that differs. */
  readonly changedMask: Uint32Array;
  readonly maskWords: number;
}

export const ROW_ID = '_id';

export function countsOf(diff: RowDiff): ChangeCounts {
  return { added: diff.added.length, removed: diff.removed.length, changed: diff.changedAfter.length };
}

export function diffStores(before: TableStore, after: TableStore, matching: RowMatching): RowDiff {
  const columns = [...after.columns.map((c) => c.id), ...before.columns.map((c) => c.id).filter((id) => !after.column(id))];
  const rows = columns.map((id) => {
    const shared = sharedCodes(before.column(id), after.column(id));
    return {
      size: shared.size,
      before: rowCodes(before.column(id), shared.before, before.maxRowId),
      after: rowCodes(after.column(id), shared.after, after.maxRowId),
    };
  });
  const liveBefore = before.liveRowIds();
  const liveAfter = after.liveRowIds();
  const idCodes = {
    size: Math.max(before.maxRowId, after.maxRowId) + 1,
    before: identity(before.maxRowId),
    after: identity(after.maxRowId),
  };
  const codesOf = (id: string) => (id === ROW_ID ? idCodes : rows[columns.indexOf(id)]!);

  const chosen = chooseKey(matching, columns, before, after, (id) => codesOf(id), liveBefore, liveAfter);
  const keyColumns = chosen.key === 'row' ? columns : chosen.key;
  const keys = pairKeys(
    keyColumns.map((id) => codesOf(id)),
    liveBefore,
    liveAfter,
  );
  const { pairsBefore, pairsAfter, removed, added } = groupRows(keys, liveBefore, liveAfter);

  const maskWords = Math.max(1, Math.ceil(columns.length / 32));
  const changedBefore: number[] = [];
  const changedAfter: number[] = [];
  const masks: number[] = [];
  if (chosen.key !== 'row') {
    const mask = new Uint32Array(maskWords);
    for (let p = 0; p < pairsAfter.length; p++) {
      const b = pairsBefore[p]!;
      const a = pairsAfter[p]!;
      let differs = false;
      mask.fill(0);
      for (let c = 0; c < rows.length; c++) {
        if (rows[c]!.before[b] !== rows[c]!.after[a]) {
          mask[c >>> 5]! |= 1 << (c & 31);
          differs = true;
        }
      }
      if (!differs) continue;
      changedBefore.push(b);
      changedAfter.push(a);
      for (const word of mask) masks.push(word);
    }
  }
  return {
    key: chosen.key,
    reason: chosen.reason,
    columns,
    added,
    removed,
    changedBefore: Uint32Array.from(changedBefore),
    changedAfter: Uint32Array.from(changedAfter),
    changedMask: Uint32Array.from(masks),
    maskWords,
  };
}

function identity(maxRowId: number): Uint32Array {
  const out = new Uint32Array(maxRowId + 1);
  for (let i = 0; i <= maxRowId; i++) out[i] = i;
  return out;
}

interface ColumnRows {
  readonly size: number;
  readonly before: Uint32Array;
  readonly after: Uint32Array;
}

function chooseKey(
  matching: RowMatching,
  columns: readonly string[],
  before: TableStore,
  after: TableStore,
  codesOf: (id: string) => ColumnRows,
  liveBefore: Uint32Array,
  liveAfter: Uint32Array,
): { key: readonly string[] | 'row'; reason: ChangeKeyReason | null } {
  const inBoth = (id: string) => id === ROW_ID || (before.column(id) !== undefined && after.column(id) !== undefined);
  if (matching.key?.length) {
    const key = [...new Set(matching.key)];
    const missing = key.filter((id) => !inBoth(id));
    if (missing.length) {
      const columns = missing.map((m) => JSON.stringify(m)).join(', ');
      throw withMessage(
        new ValidationError({ key: [`Column ${columns} is not in both versions`] }),
        message('changes.key_not_in_both', `Rows cannot be matched by ${columns}: not both versions have it.`, { columns }),
      );
    }
    return { key, reason: 'given' };
  }
  if (matching.primaryKey.length && matching.primaryKey.every(inBoth)) return { key: [...matching.primaryKey], reason: 'primary_key' };
  const candidates = columns.filter(inBoth);
  if (matching.rowIdsStable) candidates.push(ROW_ID);
  let best: string | null = null;
  let bestShared = -1;
  for (const id of candidates) {
    const codes = codesOf(id);
    const shared = sharedIfUnique(codes, liveBefore, liveAfter);
    // Ties go to the earlier column, `_id` last: a key column the portal shows says more.
    if (shared !== null && shared > bestShared) {
      best = id;
      bestShared = shared;
    }
  }
  return best === null ? { key: 'row', reason: null } : { key: [best], reason: 'unique_column' };
}

/**
 * How many values a column shares between the versions when it is unique and non-empty in
 * both (a key candidate: the more rows it matches, the likelier it names them); null otherwise.
 */
function sharedIfUnique(codes: ColumnRows, liveBefore: Uint32Array, liveAfter: Uint32Array): number | null {
  const seen = new Uint8Array(codes.size);
  for (const row of liveBefore) {
    const code = codes.before[row]!;
    if (code === 0 || seen[code]) return null;
    seen[code] = 1;
  }
  let shared = 0;
  for (const row of liveAfter) {
    const code = codes.after[row]!;
    if (code === 0 || seen[code]! & 2) return null;
    if (seen[code]! & 1) shared++;
    seen[code]! |= 2;
  }
  return shared;
}
