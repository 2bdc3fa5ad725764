import type { ColumnProfile, ProfileBucket, ProfileResult, ProfileTopValue, ProfileValue } from '../../../shared/wire/profile';
import { invalid } from '../../errors';
import type { Column } from '../column-store/column';
import type { TextSearchLanguage } from '../fts';
import { isNumericStorage } from '../field-types';
import { recordValue } from '../values/encode';
import { approximate } from '../values/exact-number';
import { epochOf, isDateStorage, textOfEpoch } from '../values/epoch';
import { isEmptyValue } from './deskstore-operators';
import type { SearchableResource } from './execute-search';
import { dateBins, numberBins, type Bins } from './histogram';
import { selectRows, type RowSelection } from './row-selection';

/**
 * `deskstore_profile` (docs/views.md, "Column profiles"): per column, counts, distinct
 * values, the most frequent ones and, for numbers and dates, min/max/mean/median and a
 * histogram, over every row the search selects. Rows are counted per dictionary code in one
 * pass; everything else walks the distinct values, already in order for numbers and dates
 * (the column's sort ranks), so a million rows cost one scan per column.
 */
export interface ProfileRequest extends RowSelection {
  readonly resourceId: string;
  /** Columns to profile; all user columns when absent. */
  readonly fields?: readonly string[];
  readonly top: number;
  readonly bins: number;
}

type Kind = 'number' | 'date' | 'time' | 'other';

function kindOf(column: Column): Kind {
  const storage = column.type.storage;
  if (isNumericStorage(storage)) return 'number';
  if (isDateStorage(storage)) return 'date';
  if (storage === 'time') return 'time';
  return 'other';
}

/** Value counts of a column over the rows, grouped so equal values share one slot. */
interface Tally {
  /** counts[g]: rows whose value is in group g (0 = NULL). */
  readonly counts: Uint32Array;
  /** A dictionary code holding group g's value (-1 for groups never used). */
  readonly representative: Int32Array;
  /** Groups are numbered in value order (numbers, dates, times). */
  readonly ordered: boolean;
}

function tally(column: Column, rows: Uint32Array): Tally {
  const ordered = kindOf(column) !== 'other';
  // Sort ranks give equal values one number, in order; other types group by canonical code.
  const group = ordered ? column.sortRanks() : column.canonicalCodes();
  const size = column.values.length;
  const counts = new Uint32Array(size);
  const codes = column.codes;
  for (let i = 0; i < rows.length; i++) counts[group[codes[rows[i]!]!]!]!++;
  const representative = new Int32Array(size).fill(-1);
  for (let code = size - 1; code >= 0; code--) representative[group[code]!] = code;
  return { counts, representative, ordered };
}

function topValues(column: Column, t: Tally, isEmpty: (g: number) => boolean, limit: number): ProfileTopValue[] {
  const best: number[] = []; // groups, most frequent first (ties: first in dictionary order)
  const { counts } = t;
  for (let g = 1; g < counts.length; g++) {
    const c = counts[g]!;
    if (!c || isEmpty(g)) continue;
    if (best.length === limit && c <= counts[best[best.length - 1]!]!) continue;
    let at = best.length;
    while (at > 0 && counts[best[at - 1]!]! < c) at--;
    best.splice(at, 0, g);
    if (best.length > limit) best.pop();
  }
  return best.map((g) => ({ value: valueOf(column, t, g), count: counts[g]! }));
}

function valueOf(column: Column, t: Tally, g: number): ProfileValue {
  return recordValue(column.values[t.representative[g]!]!, column.type.storage) as ProfileValue;
}

function codePoints(text: string): number {
  return /[\uD800-\uDFFF]/.test(text) ? [...text].length : text.length;
}

interface OrderedStats {
  min: number | string | null;
  max: number | string | null;
  mean: number | string | null;
  median: number | string | null;
  histogram: ProfileBucket[];
  unit: string | null;
}

/** Min, max, mean, median and histogram by walking the groups in value order. */
function orderedStats(column: Column, t: Tally, count: number, wantedBins: number): OrderedStats {
  const kind = kindOf(column);
  const storage = column.type.storage;
  const { counts } = t;
  const raw = (g: number) => column.values[t.representative[g]!]!;
  // Exact numbers (numeric/int8) count by their nearest double here: statistics, not values.
  const numeric = (g: number): number => (kind === 'number' ? approximate(raw(g)) : epochOf(raw(g) as string));
  const present: number[] = [];
  for (let g = 1; g < counts.length; g++) if (counts[g]) present.push(g);
  if (!present.length) return { min: null, max: null, mean: null, median: null, histogram: [], unit: null };
  const first = present[0]!;
  const last = present[present.length - 1]!;
  const shown = (g: number) => valueOf(column, t, g) as number | string;

  // The median: the middle value, or the mean of the two middle numbers (percentile_cont).
  const lowIndex = Math.floor((count - 1) / 2);
  const highIndex = Math.floor(count / 2);
  let seen = 0;
  let low = -1;
  let high = -1;
  let sum = 0;
  for (const g of present) {
    const c = counts[g]!;
    if (low < 0 && seen + c > lowIndex) low = g;
    if (high < 0 && seen + c > highIndex) high = g;
    seen += c;
    if (kind !== 'time') sum += numeric(g) * c;
  }
  if (kind === 'time') return { min: shown(first), max: shown(last), mean: null, median: shown(low), histogram: [], unit: null };
  const median = kind === 'number' ? (numeric(low) + numeric(high)) / 2 : shown(low);
  const meanNumber = sum / count;
  const mean = !Number.isFinite(meanNumber) ? null : kind === 'number' ? meanNumber : textOfEpoch(meanNumber, storage);

  const lo = numeric(first);
  const hi = numeric(last);
  let bins: Bins | null = null;
  if (Number.isFinite(lo) && Number.isFinite(hi)) {
    bins =
      kind === 'number'
        ? numberBins(lo, hi, wantedBins, storage === 'integer' || column.type.name === 'int8')
        : dateBins(lo, hi, wantedBins, storage);
  }
  const histogram: ProfileBucket[] = [];
  if (bins) {
    const binCounts = new Float64Array(bins.count);
    for (const g of present) binCounts[bins.binOf(numeric(g))]! += counts[g]!;
    for (let i = 0; i < bins.count; i++) histogram.push({ ...bins.bounds(i), count: binCounts[i]! });
  }
  return { min: shown(first), max: shown(last), mean, median, histogram, unit: bins?.unit ?? null };
}

function profileColumn(column: Column, rows: Uint32Array, top: number, bins: number): ColumnProfile {
  const storage = column.type.storage;
  const t = tally(column, rows);
  const emptyGroup = (g: number) => g === 0 || (storage === 'text' && isEmptyValue(column.values[t.representative[g]!]!, storage));
  let nulls = 0;
  let distinct = 0;
  let minLength = Infinity;
  let maxLength = -1;
  for (let g = 0; g < t.counts.length; g++) {
    const c = t.counts[g]!;
    if (!c) continue;
    if (emptyGroup(g)) {
      nulls += c;
      continue;
    }
    distinct++;
    if (storage === 'text') {
      const length = codePoints(column.values[t.representative[g]!] as string);
      if (length < minLength) minLength = length;
      if (length > maxLength) maxLength = length;
    }
  }
  const count = rows.length - nulls;
  const stats = t.ordered && count > 0 ? orderedStats(column, t, count, bins) : null;
  return {
    id: column.id,
    type: column.type.name,
    count,
    nulls,
    distinct,
    min: stats?.min ?? null,
    max: stats?.max ?? null,
    mean: stats?.mean ?? null,
    median: stats?.median ?? null,
    top: topValues(column, t, emptyGroup, top),
    histogram: stats?.histogram ?? [],
    histogram_unit: stats?.unit ?? null,
    min_length: maxLength >= 0 ? minLength : null,
    max_length: maxLength >= 0 ? maxLength : null,
  };
}

export function computeProfile(req: ProfileRequest, resource: SearchableResource, defaultLanguage: TextSearchLanguage): ProfileResult {
  const ids = req.fields?.length ? req.fields : resource.fields.map((f) => f.id);
  const columns = ids.map((id) => {
    const column = resource.store.column(id);
    if (!column) throw invalid('fields', `invalid value "${id}"`);
    return column;
  });
  const rows = selectRows(req, resource, defaultLanguage);
  return {
    resource_id: resource.id,
    rows: rows.length,
    fields: columns.map((column) => profileColumn(column, rows, req.top, req.bins)),
  };
}
