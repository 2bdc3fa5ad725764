import { useTranslation } from 'react-i18next';
import type { Message } from '../../../shared/messages';
import { useLocale } from '../hooks/use-locale';
import { wordMessage } from '../i18n/format-message';

interface Props {
  readonly message: Message | string;
  readonly as?: 'span' | 'p' | 'li';
  readonly className?: string;
  /** Also as the tooltip (for text cut to a few lines). */
  readonly withTitle?: boolean;
}

/** A message from the server in the user's language (its English text, marked as such, when no translation exists). */
export function MessageText({ message, as: Tag = 'span', className, withTitle = false }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { text, translated } = wordMessage(message, t, locale);
  return (
    <Tag className={className} lang={translated ? undefined : 'en'} title={withTitle ? text : undefined}>
      {text}
    </Tag>
  );
}
