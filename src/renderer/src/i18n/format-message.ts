/**
 * Server messages (src/shared/messages.ts) in the user's language: the i18n key
 * `messages.<code>` with the message's params, numbers formatted for the language; the
 * server's English `text` when this UI does not know the code (a newer server) or when the
 * server sent plain text. Pure apart from the `t` it is given.
 */
import type { TFunction } from 'i18next';
import type { Message, MessageParams } from '../../../shared/messages';
import { formatNumber } from '../format/number';

export function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { code?: unknown; text?: unknown; params?: unknown };
  return (
    typeof m.code === 'string' &&
    typeof m.text === 'string' &&
    (m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params)))
  );
}

export interface WordedMessage {
  readonly text: string;
  /** False when the English text from the server is shown (so it can be marked `lang="en"`). */
  readonly translated: boolean;
}

/** Parameters that name delimiters: the server names a TAB `tab`, which is a word to translate. */
const DELIMITER_PARAMS = new Set(['delimiter', 'delimiters', 'chosen']);

function localParams(params: MessageParams | undefined, locale: string, t: TFunction): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params ?? {}).map(([name, value]) => [
      name,
      typeof value === 'number'
        ? formatNumber(value, locale)
        : DELIMITER_PARAMS.has(name)
          ? value.replace(/\btab\b/g, t('delimiter.tab'))
          : value,
    ]),
  );
}

export function wordMessage(message: Message | string, t: TFunction, locale: string): WordedMessage {
  if (typeof message === 'string') return { text: message, translated: false };
  const key = `messages.${message.code}`;
  const text = t(key, { ...localParams(message.params, locale, t), defaultValue: '' });
  return text ? { text, translated: true } : { text: message.text, translated: false };
}

export function formatMessage(message: Message | string, t: TFunction, locale: string): string {
  return wordMessage(message, t, locale).text;
}
