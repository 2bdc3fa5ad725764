/**
 * The preview reports a forced type's first unreadable value as `"abc" is not a valid int4`;
 * that shape is shown in the user's language, anything else as the server wrote it.
 */
export function parseTypeProblem(problem: string): { value: string; type: string } | null {
  const match = /^"(.*)" is not a valid (\w+)$/s.exec(problem);
  return match ? { value: match[1] ?? '', type: match[2] ?? '' } : null;
}
