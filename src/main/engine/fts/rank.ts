// ts_rank(_full_text, query, 32) from postings alone. PostgreSQL's calc_rank_or scores each
// distinct query operand found in the document as  w * (1 + 1/2² + ... + 1/tf²) / ζ(2)
// (w = 0.1, the weight of unlabelled lexemes), sums over operands (for a prefix operand over
// every matching lexeme), divides by the number of operands, and normalisation 32 maps r to
// r / (r + 1). That needs only term frequencies, which the postings carry. For AND/phrase
// queries PostgreSQL uses a proximity formula (calc_rank_and) that needs positions; we use the
// same frequency formula there — ordering by "more occurrences first" is preserved.

import { gallop } from './posting-ops';
import type { TextIndexReader } from './text-index-reader';
import type { TsQuery } from './tsquery';

const WEIGHT_D = 0.1;
const ZETA_2 = 1.64493406685;

/** Score of one lexeme occurring tf times (tf <= 255, like tsvector positions). */
const TF_SCORE = new Float64Array(256);
for (let tf = 1, sum = 0; tf < 256; tf++) {
  sum += WEIGHT_D / (tf * tf);
  TF_SCORE[tf] = sum / ZETA_2;
}

/** Distinct operands of the query, NOT-ed ones included (as in PostgreSQL's SortAndUniqItems). */
function collectOperands(query: TsQuery): Map<string, boolean> {
  const operands = new Map<string, boolean>(); // lexeme -> prefix
  const stack: TsQuery[] = [query];
  while (stack.length > 0) {
    const q = stack.pop()!;
    if (q.type === 'term') operands.set(q.lexeme, (operands.get(q.lexeme) ?? false) || q.prefix);
    else if (q.type === 'not') stack.push(q.item);
    else if (q.type !== 'empty') stack.push(...q.items);
  }
  return operands;
}

/** Adds TF_SCORE of each posting whose row is in `rowIds` to `scores` (aligned with rowIds). */
function accumulate(postRows: Uint32Array, postTfs: Uint8Array, rowIds: Uint32Array, scores: Float64Array): void {
  let i = 0;
  let j = 0;
  const n = rowIds.length;
  const m = postRows.length;
  while (i < n && j < m) {
    const a = rowIds[i]!;
    const b = postRows[j]!;
    if (a === b) {
      scores[i] = scores[i]! + TF_SCORE[postTfs[j]!]!;
      i++;
      j++;
    } else if (a < b) {
      i = gallop(rowIds, i, b);
    } else {
      j = gallop(postRows, j, a);
    }
  }
}

/** accumulate() for postings in no particular order (a prefix slice spanning lexemes): rows
 * are located through a dense row -> index table, or by binary search for huge row ids. */
function accumulateUnordered(postRows: Uint32Array, postTfs: Uint8Array, rowIds: Uint32Array, scores: Float64Array): void {
  const maxRow = rowIds[rowIds.length - 1]!;
  if (maxRow <= 1 << 26) {
    const where = new Int32Array(maxRow + 1).fill(-1);
    for (let i = 0; i < rowIds.length; i++) where[rowIds[i]!] = i;
    for (let k = 0; k < postRows.length; k++) {
      const row = postRows[k]!;
      const i = row <= maxRow ? where[row]! : -1;
      if (i >= 0) scores[i] = scores[i]! + TF_SCORE[postTfs[k]!]!;
    }
    return;
  }
  for (let k = 0; k < postRows.length; k++) {
    const i = gallop(rowIds, 0, postRows[k]!);
    if (i < rowIds.length && rowIds[i] === postRows[k]) scores[i] = scores[i]! + TF_SCORE[postTfs[k]!]!;
  }
}

function isAscending(rows: Uint32Array): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i]! <= rows[i - 1]!) return false;
  return true;
}

/** ts_rank(..., 32) for each row of `rowIds`, as float4 values in [0, 1); scores[i] belongs
 * to rowIds[i]. Ascending row ids are merged directly against the postings; any other order
 * is sorted first. */
export function rankRows(query: TsQuery, source: TextIndexReader, rowIds: Uint32Array): Float64Array {
  if (!isAscending(rowIds)) {
    const order = Array.from(rowIds.keys()).sort((a, b) => rowIds[a]! - rowIds[b]!);
    const sorted = Uint32Array.from(order, (k) => rowIds[k]!);
    // Duplicated ids get the same score: rank the distinct ones, then spread back.
    const distinct = sorted.filter((v, k) => k === 0 || sorted[k - 1] !== v);
    const distinctScores = rankRows(query, source, distinct);
    const res = new Float64Array(rowIds.length);
    for (let k = 0, d = 0; k < order.length; k++) {
      if (k > 0 && sorted[k] !== sorted[k - 1]) d++;
      res[order[k]!] = distinctScores[d]!;
    }
    return res;
  }
  const scores = new Float64Array(rowIds.length);
  const operands = collectOperands(query);
  if (operands.size === 0 || rowIds.length === 0) return scores;
  for (const [lexeme, prefix] of operands) {
    const slice = prefix ? source.lookupPrefixSlice?.(lexeme) : null;
    if (slice) {
      accumulateUnordered(slice.rowIds, slice.tfs, rowIds, scores);
      continue;
    }
    const lists = prefix ? source.lookupPrefix(lexeme) : [source.lookup(lexeme)];
    for (const list of lists) accumulate(list.rowIds, list.tfs, rowIds, scores);
  }
  for (let i = 0; i < scores.length; i++) {
    const r = scores[i]! / operands.size;
    scores[i] = Math.fround(r / (r + 1)); // ts_rank returns float4
  }
  return scores;
}
