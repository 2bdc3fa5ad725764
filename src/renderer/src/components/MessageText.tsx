import { useTranslation } from 'react-i18next';
import type { Message } from '../../../shared/messages';
import { messageText } from '../format/message';

/** A server Message, worded in the user's language (the server's English when the code is new). */
export function MessageText({ message, className }: { readonly message: Message; readonly className?: string }) {
  const { i18n } = useTranslation();
  const { text, lang } = messageText(i18n, message);
  return <span className={className} lang={lang} title={message.text}>{text}</span>;
}
