/**
 * The field delimiters Deskstore reads, and the names people and scripts give them: the CLI's
 * `--delimiter`, the API's `deskstore_delimiter` and the UI's choice all go through here.
 */
export type Delimiter = ',' | ';' | '\t' | '|';

/** Candidates in order of preference when everything else is equal. */
export const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];

const BY_NAME: Readonly<Record<string, Delimiter>> = {
  ',': ',',
  ';': ';',
  '|': '|',
  '\t': '\t',
  tab: '\t',
  '\\t': '\t',
  comma: ',',
  semicolon: ';',
  pipe: '|',
};

/** The names accepted on the command line and in `deskstore_delimiter`, for messages. */
export const DELIMITER_CHOICES = ', ; | tab';

export function delimiterFromName(name: string): Delimiter | undefined {
  return Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined;
}

/** How a delimiter travels as a parameter: a TAB is sent as `tab`. */
export function delimiterParam(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : delimiter;
}
