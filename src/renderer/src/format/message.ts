import type { i18n as I18n } from 'i18next';
import type { Message } from '../../../shared/messages';

/**
 * A server Message in the user's language: its code names the string (`messages.<code>`,
 * filled with its params); a code this UI does not know yet shows the server's English text,
 * marked as English for screen readers (`lang`).
 */
export function messageText(i18n: I18n, message: Message): { text: string; lang?: 'en' } {
  const key = `messages.${message.code}`;
  if (!i18n.exists(key)) return { text: message.text, lang: 'en' };
  return { text: i18n.t(key, { ...message.params, defaultValue: message.text }) };
}
