/**
 * A sentence the server says to a person (a type's reason in an import preview, a repair made
 * to a row, why a portal refused a push, why an import was refused): a stable `code` the UI
 * words in the user's language (i18n key `messages.<code>`, interpolating `params`), and the
 * English `text` for scripts, logs and the CLI. The server never sends only English prose for
 * something the UI shows.
 *
 * Codes are dotted, lowercase, grouped by area: `import.type.leading_zeros`,
 * `import.repair.extra_cells`, `portal.unreachable`, `limits.too_many_columns`.
 */
export type MessageParams = Readonly<Record<string, string | number>>;

export interface Message {
  readonly code: string;
  readonly text: string;
  readonly params?: MessageParams;
}

export function message(code: string, text: string, params?: MessageParams): Message {
  return params === undefined ? { code, text } : { code, text, params };
}
