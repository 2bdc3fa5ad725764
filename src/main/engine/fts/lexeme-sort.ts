// Sorting millions of distinct lexemes in JS string order. Array.prototype.sort on 3M strings
// takes ~2 s, dominated by cache misses chasing string objects. Instead every lexeme gets a
// fixed-width key made of its first characters (ranked in a compact alphabet, several per
// 32-bit word), the keys are LSD-radix-sorted with typed arrays (sequential, cache friendly),
// and only runs sharing the whole key prefix fall back to string comparison.

/** Returns the indexes of `lexemes` in ascending JS string order. Lexemes must be distinct. */
export function sortLexemeIndexes(lexemes: readonly string[], indexes?: Uint32Array): Uint32Array {
  const ids = indexes ? Uint32Array.from(indexes) : Uint32Array.from({ length: lexemes.length }, (_, i) => i);
  const n = ids.length;
  if (n < 2) return ids;

  // Rank the code units actually used, so each character needs only log2(alphabet) bits.
  const seen = new Uint8Array(65536);
  for (let k = 0; k < n; k++) {
    const s = lexemes[ids[k]!]!;
    for (let j = 0; j < s.length; j++) seen[s.charCodeAt(j)] = 1;
  }
  let maxLength = 0;
  for (let k = 0; k < n; k++) maxLength = Math.max(maxLength, lexemes[ids[k]!]!.length);
  const rank = new Uint32Array(65536);
  let alphabet = 0;
  for (let c = 0; c < 65536; c++) if (seen[c]) rank[c] = ++alphabet;
  const radix = alphabet + 1; // 0 = "past the end of the string", sorts first
  let perWord = 0;
  for (let cap = 1; cap * radix <= 0x100000000; cap *= radix) perWord++;

  // Up to three 32-bit key words; fewer when every lexeme fits (each word is two radix passes).
  const WORDS = Math.max(1, Math.min(3, Math.ceil(maxLength / perWord)));
  let keys: Uint32Array[] = Array.from({ length: WORDS }, () => new Uint32Array(n));
  for (let k = 0; k < n; k++) {
    const s = lexemes[ids[k]!]!;
    const len = s.length;
    for (let w = 0; w < WORDS; w++) {
      let key = 0;
      const base = w * perWord;
      for (let j = 0; j < perWord; j++) key = key * radix + (base + j < len ? rank[s.charCodeAt(base + j)]! : 0);
      keys[w]![k] = key;
    }
  }

  // LSD radix sort, 16 bits per pass, least significant word first; each pass is stable.
  let order = ids;
  let orderTmp = new Uint32Array(n);
  let keysTmp: Uint32Array[] = Array.from({ length: WORDS }, () => new Uint32Array(n));
  const count = new Int32Array(65537);
  for (let w = WORDS - 1; w >= 0; w--) {
    for (let shift = 0; shift <= 16; shift += 16) {
      const src = keys[w]!;
      count.fill(0);
      for (let k = 0; k < n; k++) {
        const bucket = ((src[k]! >>> shift) & 0xffff) + 1;
        count[bucket] = count[bucket]! + 1;
      }
      for (let b = 1; b <= 65536; b++) count[b] = count[b]! + count[b - 1]!;
      for (let k = 0; k < n; k++) {
        const bucket = (src[k]! >>> shift) & 0xffff;
        const dst = count[bucket]!;
        count[bucket] = dst + 1;
        orderTmp[dst] = order[k]!;
        for (let x = 0; x < WORDS; x++) keysTmp[x]![dst] = keys[x]![k]!;
      }
      [order, orderTmp] = [orderTmp, order];
      [keys, keysTmp] = [keysTmp, keys];
    }
  }

  // Runs with identical keys whose strings go on past the key: compare the strings.
  const last = keys[WORDS - 1]!;
  let k = 0;
  while (k < n) {
    let e = k + 1;
    while (e < n && sameKey(keys, k, e)) e++;
    if (e - k > 1 && last[k]! % radix !== 0) {
      const run = Array.from(order.subarray(k, e)).sort((a, b) => (lexemes[a]! < lexemes[b]! ? -1 : 1));
      order.set(run, k);
    }
    k = e;
  }
  return order;
}

function sameKey(keys: Uint32Array[], a: number, b: number): boolean {
  for (const w of keys) if (w[a] !== w[b]) return false;
  return true;
}

/** First index of `sorted` (ascending JS string order) whose string is >= s. */
export function lowerBound(sorted: readonly string[], s: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
