/**
 * The preview reports a forced type's first unreadable value as `"abc" is not a valid int4`;
 * that shape is shown in the user's language, anything else as the server wrote it.
 */
export function parseTypeProblem(problem: string): { value: string; type: string } | null {
  const match = /^"(.*)" is not a valid (\w+)$/s.exec(problem);
  return match ? { value: match[1] ?? '', type: match[2] ?? '' } : null;
}

/**
 * Files the server refuses before reading them (a spreadsheet, a binary file): recognised
 * from its message so the user is told, in their language, what to do instead.
 */
export function fileProblem(message: string): 'spreadsheet' | 'binary' | null {
  if (/looks like a spreadsheet or a zip archive/.test(message)) return 'spreadsheet';
  if (/is not a text \(CSV\/TSV\) file/.test(message)) return 'binary';
  return null;
}
