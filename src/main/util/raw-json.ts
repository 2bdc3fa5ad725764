/**
 * A piece of JSON text that is already serialized (e.g. the records of a search, encoded by
 * the engine worker). `stringifyWithRaw` splices it in verbatim, so large results are not
 * parsed and re-serialized on the main thread, and values such as `2.50` keep their text.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export function stringifyWithRaw(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stringifyWithRaw(v))).join(',')}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function') continue;
    parts.push(`${JSON.stringify(k)}:${stringifyWithRaw(v)}`);
  }
  return `{${parts.join(',')}}`;
}
