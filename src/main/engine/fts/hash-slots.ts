/**
 * The open-addressing tables of the full-text builder (term ids, token cache) store each slot
 * as two Int32 values: an entry number (0 = empty) and the key's hash. Growing one re-places
 * every entry by its stored hash, without touching the keys.
 */
export function rehashSlots(old: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(size * 2);
  const mask = size - 1;
  for (let j = 0; j < old.length; j += 2) {
    const e = old[j]!;
    if (e === 0) continue;
    const hash = old[j + 1]!;
    let i = hash & mask;
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = e;
    slots[2 * i + 1] = hash;
  }
  return slots;
}
