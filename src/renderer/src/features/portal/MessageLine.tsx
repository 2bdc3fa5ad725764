import { useTranslation } from 'react-i18next';
import type { Message } from '../../../../shared/messages';

/**
 * A server Message in the user's language (`messages.<code>`), falling back to its English
 * text for a code this UI does not know, with the portal's own words underneath when it sent any.
 */
export function MessageLine({ message }: { readonly message: Message }) {
  const { t, i18n } = useTranslation();
  const key = `messages.${message.code}`;
  const text = i18n.exists(key) ? t(key, { ...message.params }) : message.text;
  const portalSaid = message.params?.portal_message;
  return (
    <span className="message-line" data-code={message.code}>
      {text}
      {portalSaid !== undefined && <span className="muted small portal-said">{t('portal.portalSaid', { text: String(portalSaid) })}</span>}
    </span>
  );
}
