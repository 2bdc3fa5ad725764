/** A delimiter character as words (`;` → "semicolon (;)"). */
export function delimiterName(delimiter: string | undefined, t: (key: string) => string): string {
  switch (delimiter) {
    case ',':
      return t('delimiter.comma');
    case ';':
      return t('delimiter.semicolon');
    case '|':
      return t('delimiter.pipe');
    case '\t':
    case 'tab':
      return t('delimiter.tab');
    default:
      return delimiter ?? '';
  }
}
