import { Column } from '../engine/column-store/column';
import { TableStore } from '../engine/column-store/table-store';
import { fieldTypeOf } from '../engine/field-types';
import { decodeIndex, encodeIndex, mergeDisjointIndexes, type InvertedIndex, type TextSearchLanguage } from '../engine/fts';
import { buildTextIndex, type TextIndexRowRange } from '../engine/text-index/build-text-index';
import type { StoredValue } from '../engine/values/coerce';
import { runTask } from './worker-runner';

/**
 * Building the full-text index is the longest step before an import is searchable. It needs
 * only the column store, so it is split by row range: a second worker indexes the first half
 * while the import worker indexes the second, and the halves are merged (no re-tokenizing).
 */
export interface TextIndexTask {
  readonly language: TextSearchLanguage;
  readonly maxRowId: number;
  readonly live: Uint8Array;
  readonly columns: readonly { id: string; type: string; values: StoredValue[]; codes: Uint32Array; mayRepeat: boolean }[];
  readonly range: TextIndexRowRange;
}

/** Only the indexed columns travel: the others are searched through their dictionaries. */
export function textIndexTask(
  store: TableStore, language: TextSearchLanguage, indexed: ReadonlySet<string>, range: TextIndexRowRange = {},
): TextIndexTask {
  return {
    language,
    range,
    maxRowId: store.maxRowId,
    live: store.live,
    columns: store.columns.filter((c) => indexed.has(c.id))
      .map((c) => ({ id: c.id, type: c.type.name, values: c.values, codes: c.codes, mayRepeat: c.mayRepeat })),
  };
}

/** In the helper worker: rebuild the column store view, index it, encode for transfer. */
export function runTextIndexTask(task: TextIndexTask): { meta: unknown; buffers: Uint8Array[] } {
  const columns = task.columns.map((c) => new Column(c.id, fieldTypeOf(c.type), c.values, c.codes, c.mayRepeat));
  const store = new TableStore(columns, task.live, task.maxRowId);
  return encodeIndex(buildTextIndex(store, task.language, new Set(columns.map((c) => c.id)), task.range));
}

/** Rows below this are indexed in one piece: a second worker would cost more than it saves. */
const SPLIT_FROM_ROWS = 50_000;

/** The whole index, built half here and half in a second worker when that pays. */
export async function buildTextIndexOnTwoCores(
  workerUrl: URL | undefined, store: TableStore, language: TextSearchLanguage, indexed: ReadonlySet<string>,
): Promise<InvertedIndex> {
  if (!workerUrl || store.rowCount < SPLIT_FROM_ROWS || indexed.size === 0) return buildTextIndex(store, language, indexed);
  const middle = Math.floor(store.maxRowId / 2);
  const first = buildTextIndexInWorker(workerUrl, textIndexTask(store, language, indexed, { toRowId: middle }));
  first.catch(() => {}); // awaited below; a failure must not go unhandled while this thread works
  const second = buildTextIndex(store, language, indexed, { fromRowId: middle + 1 });
  return mergeDisjointIndexes(await first, second);
}

export function buildTextIndexInWorker(workerUrl: URL, task: TextIndexTask): Promise<InvertedIndex> {
  return runTask(workerUrl, { mode: 'text-index', task }, (m) => (m.kind === 'text-index' ? decodeIndex(m.meta, m.buffers) : undefined));
}
