import { Column } from '../column-store/column';
import { TableStore } from '../column-store/table-store';
import { fieldTypeOf } from '../field-types';
import { decodeIndex, encodeIndex, mergeDisjointIndexes, type InvertedIndex, type TextSearchLanguage } from '../fts';
import { buildTextIndex, type TextIndexRowRange } from '../text-index/build-text-index';
import type { StoredValue } from '../values/coerce';
import type { CodeArray } from '../column-store/column';

/**
 * Building the full-text index is the longest step before an import is searchable. It needs
 * only the column store, so it is split by row range: a second worker indexes the first half
 * while the import worker indexes the second, and the halves are merged (no re-tokenizing).
 */
export interface TextIndexTask {
  readonly language: TextSearchLanguage;
  readonly maxRowId: number;
  readonly live: Uint8Array;
  readonly columns: readonly { id: string; type: string; values: StoredValue[]; codes: CodeArray; mayRepeat: boolean }[];
  readonly range: TextIndexRowRange;
}

/** An index half built elsewhere (the import worker runs it in a second worker), encoded for transfer. */
export interface EncodedTextIndex {
  readonly meta: unknown;
  readonly buffers: Uint8Array[];
}

/** Runs a task in a second thread; the importer supplies it (it owns the workers). */
export type TextIndexHelper = (task: TextIndexTask) => Promise<EncodedTextIndex>;

/** Only the indexed columns travel: the others are searched through their dictionaries. */
export function textIndexTask(
  store: TableStore,
  language: TextSearchLanguage,
  indexed: ReadonlySet<string>,
  range: TextIndexRowRange = {},
): TextIndexTask {
  return {
    language,
    range,
    maxRowId: store.maxRowId,
    live: store.live,
    columns: store.columns
      .filter((c) => indexed.has(c.id))
      .map((c) => ({ id: c.id, type: c.type.name, values: c.values, codes: c.codes, mayRepeat: c.mayRepeat })),
  };
}

/** In the helper worker: rebuild the column store view, index it, encode for transfer. */
export function runTextIndexTask(task: TextIndexTask): EncodedTextIndex {
  const columns = task.columns.map((c) => new Column(c.id, fieldTypeOf(c.type), c.values, c.codes, c.mayRepeat));
  const store = new TableStore(columns, task.live, task.maxRowId);
  return encodeIndex(buildTextIndex(store, task.language, new Set(columns.map((c) => c.id)), task.range));
}

/** Rows below this are indexed in one piece: a second worker would cost more than it saves. */
const SPLIT_FROM_ROWS = 50_000;

/** The whole index, built half here and half by the helper when that pays. */
export async function buildTextIndexOnTwoCores(
  helper: TextIndexHelper | undefined,
  store: TableStore,
  language: TextSearchLanguage,
  indexed: ReadonlySet<string>,
): Promise<InvertedIndex> {
  if (!helper || store.rowCount < SPLIT_FROM_ROWS || indexed.size === 0) return buildTextIndex(store, language, indexed);
  const middle = Math.floor(store.maxRowId / 2);
  const first = helper(textIndexTask(store, language, indexed, { toRowId: middle }));
  first.catch(() => {}); // awaited below; a failure must not go unhandled while this thread works
  const second = buildTextIndex(store, language, indexed, { fromRowId: middle + 1 });
  const encoded = await first;
  return mergeDisjointIndexes(decodeIndex(encoded.meta, encoded.buffers), second);
}
