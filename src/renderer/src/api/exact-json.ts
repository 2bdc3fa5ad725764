/**
 * JSON.parse that keeps numbers a double cannot say as their exact text: a numeric `2.50`
 * (its scale) or an int8 beyond 2^53 arrive as the strings "2.50" / "9223372036854775807",
 * which the table formats exactly (format/number.ts). Every other number stays a number.
 * Uses JSON.parse's source text access (Chromium 114+, Node 21+); where a runtime lacks it,
 * values are parsed as plain JSON.
 */
type SourceContext = { readonly source?: string } | undefined;
type ReviverWithSource = (this: unknown, key: string, value: unknown, context?: SourceContext) => unknown;

const keepExact: ReviverWithSource = (_key, value, context) => {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return String(value) === context.source ? value : exactNumberText(context.source, value);
};

/** The written form when it says more than the double (`2.50`, `1e400` stays a number's text). */
function exactNumberText(source: string, value: number): number | string {
  // `1E3` or `1.0e2` are other spellings of the same double, not more precise ones.
  if (/[eE]/.test(source)) return value;
  return source;
}

export function parseJsonExact(text: string): unknown {
  return JSON.parse(text, keepExact);
}
