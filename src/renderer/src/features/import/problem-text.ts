/**
 * Files the server refuses before reading them (a legacy .xls workbook, a binary file):
 * recognised from its message so the user is told, in their language, what to do instead.
 */
export function fileProblem(message: string): 'spreadsheet' | 'binary' | null {
  if (/legacy Excel \(\.xls\)/.test(message)) return 'spreadsheet';
  if (/it contains binary data/.test(message)) return 'binary';
  return null;
}
