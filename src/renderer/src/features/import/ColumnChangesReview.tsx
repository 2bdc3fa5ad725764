import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import type { ColumnChanges } from './column-changes';
import { typeKey } from './type-names';

interface Props {
  readonly changes: ColumnChanges;
  readonly accepted: boolean;
  readonly onAccept: (accepted: boolean) => void;
}

/**
 * A replacement whose file has other columns than the table: what goes, what comes, what
 * changes type, and a box to tick before the data is replaced (scripts name columns).
 */
export function ColumnChangesReview({ changes, accepted, onAccept }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const names = (list: readonly { readonly id: string }[]) => list.map((c) => c.id).join(', ');
  return (
    <section className="card notice column-changes" role="note" aria-labelledby={`${id}-title`} data-testid="column-changes">
      <h2 id={`${id}-title`}>{t('import.replace.changes.title')}</h2>
      <p>{t('import.replace.changes.intro')}</p>
      <ul>
        {changes.removed.length > 0 && (
          <li>
            {t('import.replace.changes.removed', { count: changes.removed.length, n: formatCount(changes.removed.length, locale) })}{' '}
            <code>{names(changes.removed)}</code>
          </li>
        )}
        {changes.added.length > 0 && (
          <li>
            {t('import.replace.changes.added', { count: changes.added.length, n: formatCount(changes.added.length, locale) })}{' '}
            <code>{names(changes.added)}</code>
          </li>
        )}
        {changes.retyped.map((c) => (
          <li key={c.id}>{t('import.replace.changes.retyped', { column: c.id, from: t(typeKey(c.from)), to: t(typeKey(c.to)) })}</li>
        ))}
      </ul>
      <div className="checkbox-row">
        <input
          type="checkbox"
          id={`${id}-accept`}
          checked={accepted}
          onChange={(e) => onAccept(e.target.checked)}
          data-testid="accept-column-changes"
        />
        <label htmlFor={`${id}-accept`}>{t('import.replace.changes.accept')}</label>
      </div>
    </section>
  );
}
