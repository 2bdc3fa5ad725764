/**
 * Recent search results of one resource, keyed by everything that decides which rows match
 * and in what order (not by limit/offset/fields/format): paging through a result, or asking
 * the same question again, then costs a slice. Any write bumps the column store's version
 * and empties the cache, so a cached answer is never stale (docs/architecture.md §4).
 */
export interface CachedOrder {
  /** Matching rows in result order: all of them, or at least the first `needed` asked so far. */
  readonly ordered: Uint32Array;
  readonly complete: boolean;
  readonly total: number;
  /** Rank columns: score by `_id`. */
  readonly scores: ReadonlyMap<string, (rowId: number) => number>;
  /** For the memory budget: row ids and scores held. */
  readonly weight: number;
}

const MAX_ENTRIES = 32;
const MAX_WEIGHT = 8_000_000;

export class SearchCache {
  private readonly entries = new Map<string, CachedOrder>();
  private version = -1;
  private weight = 0;

  get(key: string, version: number, needed: number): CachedOrder | null {
    if (version !== this.version) {
      this.clear(version);
      return null;
    }
    const hit = this.entries.get(key);
    if (!hit || (!hit.complete && hit.ordered.length < needed)) return null;
    this.entries.delete(key);
    this.entries.set(key, hit); // most recently used last
    return hit;
  }

  put(key: string, version: number, value: CachedOrder): void {
    if (version !== this.version) this.clear(version);
    if (value.weight > MAX_WEIGHT) return;
    const old = this.entries.get(key);
    if (old) this.weight -= old.weight;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.weight += value.weight;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.weight <= MAX_WEIGHT) break;
      this.entries.delete(k);
      this.weight -= v.weight;
    }
  }

  private clear(version: number): void {
    this.entries.clear();
    this.weight = 0;
    this.version = version;
  }
}
