/**
 * Request JSON nested deeper than any CKAN call needs is refused where it is decoded
 * (docs/security.md, "hostile input"): copying or printing a value nested a hundred thousand
 * levels deep (to the engine thread, into an error message) exhausts the stack, which used to
 * end in a 500. `$or` trees, GeoJSON and json column values stay far below this.
 */
export const MAX_JSON_DEPTH = 100;

/** How deep `value` nests arrays and objects, counted without recursion; stops past `limit`. */
export function jsonDepthExceeds(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * The same limit read from the text before it is parsed: JSON.parse with a reviver (the exact
 * number reader) walks the parsed value recursively, so a text nested a hundred thousand levels
 * deep overflows the stack inside the parse — at a depth that depends on the thread's stack —
 * before the parsed value could be measured. One pass over the characters, strings skipped.
 */
export function jsonTextDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
