/**
 * `{ [key]: value }` when value is defined, `{}` otherwise: spreads an optional property
 * without writing `undefined` into it (exactOptionalPropertyTypes is on, and structured
 * clones and JSON keep an explicit `undefined` key apart from a missing one).
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
