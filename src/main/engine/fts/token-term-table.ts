// Open-addressing hash table from a token's text, read in place from the document, to a
// term id. A document word that was seen before costs one probe and one comparison of its
// characters (the hash comes from the tokenizer, which computes it while scanning): no
// substring, no lexeme string, no Map entry object. Keys are copied into one UTF-16 char pool
// and slots and entries are flat Int32Arrays, so a million cached tokens are a handful of large
// arrays rather than millions of small heap objects for the GC to trace.

import { rehashSlots } from './hash-slots';

/** find() result for a token the table has not seen (term ids are >= 0; -1 is free for callers). */
export const TOKEN_MISSING = -2;

const MIN_SLOTS = 1 << 10;
/** Default bound on entries (and on pool characters, times 16) before the table starts over. */
const DEFAULT_MAX_ENTRIES = 1 << 21; // ~100 MB of tables at most

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a state over text[start, start + len) (the tokenizer computes the same while scanning). */
export function fnvRange(text: string, start: number, len: number): number {
  let h = FNV_OFFSET;
  for (let i = start, end = start + len; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Table hash of a token from its FNV state and key kind: the kind mixed in, then an avalanche
 * (FNV's low bits, which pick the slot, are weak on their own). */
export function tokenHash(fnv: number, kind: number): number {
  let h = fnv ^ Math.imul(kind + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h;
}

export class TokenTermTable {
  // Slot pairs [entry index + 1 (0 = empty), hash]: a probe reads one cache line, and a token
  // seen for the first time (most tokens of a rare word) touches nothing else.
  private slots = new Int32Array(MIN_SLOTS * 2);
  private mask = MIN_SLOTS - 1;
  // Entry triples [length * 4 + kind, start in pool, term id]: one cache line per hit.
  private entries = new Int32Array((MIN_SLOTS >> 1) * 3);
  private pool = new Uint16Array(1 << 14);
  private poolUsed = 0;
  private count = 0;
  private readonly maxEntries: number;

  /** @param maxEntries entries kept before the table is cleared (a cleared entry is just a miss again) */
  constructor(maxEntries = DEFAULT_MAX_ENTRIES) {
    this.maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.count;
  }

  /** Term id cached for the token text[start, start + len) of `kind` (0..3), or TOKEN_MISSING. */
  find(text: string, start: number, len: number, kind: number, hash: number): number {
    const { slots, mask, entries, pool } = this;
    const key = len * 4 + kind;
    let i = hash & mask;
    for (;;) {
      const e = slots[2 * i]!;
      if (e === 0) return TOKEN_MISSING;
      if (slots[2 * i + 1] === hash) {
        const k = 3 * (e - 1);
        if (entries[k] === key) {
          let p = entries[k + 1]!;
          let q = start;
          const end = start + len;
          while (q < end && pool[p] === text.charCodeAt(q)) {
            p++;
            q++;
          }
          if (q === end) return entries[k + 2]!;
        }
      }
      i = (i + 1) & mask;
    }
  }

  /**
   * find() for a token whose characters were copied to chars[start, start + len). A twin of
   * find() on purpose: one function taking either a string or an array would make this, the
   * tokenizer's hottest loop, polymorphic and measurably slower.
   */
  findChars(chars: Uint16Array, start: number, len: number, kind: number, hash: number): number {
    const { slots, mask, entries, pool } = this;
    const key = len * 4 + kind;
    let i = hash & mask;
    for (;;) {
      const e = slots[2 * i]!;
      if (e === 0) return TOKEN_MISSING;
      if (slots[2 * i + 1] === hash) {
        const k = 3 * (e - 1);
        if (entries[k] === key) {
          let p = entries[k + 1]!;
          let q = start;
          const end = start + len;
          while (q < end && pool[p] === chars[q]) {
            p++;
            q++;
          }
          if (q === end) return entries[k + 2]!;
        }
      }
      i = (i + 1) & mask;
    }
  }

  /** Remembers `term` for a token that find() just reported missing (same arguments). */
  insert(text: string, start: number, len: number, kind: number, hash: number, term: number): void {
    if (this.count >= this.maxEntries || this.poolUsed + len > this.maxEntries * 16) this.clear();
    if ((this.count + 1) * 3 > (this.mask + 1) * 2) this.rehash((this.mask + 1) * 2); // load <= 2/3
    const k = this.count;
    if (3 * k + 3 > this.entries.length) {
      const grown = new Int32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    if (this.poolUsed + len > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.poolUsed + len, this.pool.length * 2));
      pool.set(this.pool.subarray(0, this.poolUsed));
      this.pool = pool;
    }
    const pool = this.pool;
    const at = this.poolUsed;
    for (let j = 0; j < len; j++) pool[at + j] = text.charCodeAt(start + j);
    this.poolUsed = at + len;
    const entries = this.entries;
    entries[3 * k] = len * 4 + kind;
    entries[3 * k + 1] = at;
    entries[3 * k + 2] = term;
    this.count = k + 1;
    const { slots, mask } = this;
    let i = hash & mask;
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = k + 1;
    slots[2 * i + 1] = hash;
  }

  /** Forgets every entry (the arrays are kept for reuse). */
  clear(): void {
    this.slots.fill(0);
    this.count = 0;
    this.poolUsed = 0;
  }

  private rehash(size: number): void {
    this.slots = rehashSlots(this.slots, size);
    this.mask = size - 1;
  }
}
