import { useTranslation } from 'react-i18next';
import type { ResourceDict } from '../../../../shared/wire/catalogue';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { resourceTitle } from '../catalogue/catalogue-filter';

interface Props {
  readonly resource: ResourceDict | null;
  readonly error: unknown;
  readonly onRetry: () => void;
}

/** Which resource a file will replace the data of, and what stays the same (its id). */
export function ReplaceTarget({ resource, error, onRetry }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (error !== undefined) return <ErrorNotice error={error} onRetry={onRetry} />;
  if (!resource) return <p role="status">{t('common.loading')}</p>;
  return (
    <section className="card replace-target" aria-labelledby="replace-title" data-testid="replace-target">
      <h2 id="replace-title">{t('import.replace.what', { name: resourceTitle(resource) })}</h2>
      <p>
        {t('import.replace.keeps')} <code>{resource.id}</code>
      </p>
      {resource.deskstore?.rows !== undefined && (
        <p className="muted small">{t('import.replace.now', { rows: formatCount(resource.deskstore.rows, locale) })}</p>
      )}
    </section>
  );
}
