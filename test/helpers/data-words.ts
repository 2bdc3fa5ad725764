/**
 * Words taken from real data for search tests: the words a user would type, drawn from the
 * records themselves so every fixture file is covered without a hand-kept list per file.
 */

/** Lower case without accents, as the search box compares (independent of the engine's code). */
export function foldForTest(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * `count` distinct words of four or more letters from the records' text values, spread evenly
 * over the order in which they first appear (deterministic for the same records).
 */
export function wordsFrom(records: readonly Record<string, unknown>[], count: number): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      if (key === '_id' || typeof value !== 'string') continue;
      for (const match of value.matchAll(/\p{L}{4,}/gu)) {
        const folded = foldForTest(match[0]);
        if (seen.has(folded)) continue;
        seen.add(folded);
        words.push(match[0]);
      }
    }
  }
  if (words.length <= count) return words;
  return Array.from({ length: count }, (_, i) => words[Math.floor((i * words.length) / count)]!);
}

/** Whether a record's text has a word (a run of letters and digits) starting with `prefix`, folded. */
export function recordHasWordStartingWith(record: Record<string, unknown>, prefix: string): boolean {
  const wanted = foldForTest(prefix);
  return Object.entries(record).some(([key, value]) => {
    if (key === '_id' || value === null || value === undefined) return false;
    const text = foldForTest(String(value));
    return [...text.matchAll(/[\p{L}\p{N}]+/gu)].some((m) => text.startsWith(wanted, m.index));
  });
}
