/**
 * The one way an identifier reaches SQL text. Values are always bound parameters; names
 * cannot be, so they are quoted here and callers only pass names already checked against the
 * resource's columns (or the resource id itself).
 */
export function quoteIdentifier(name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains a NUL character');
  return `"${name.replace(/"/g, '""')}"`;
}
