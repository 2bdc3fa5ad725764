import { useTranslation } from 'react-i18next';
import { isNoTokenError, toApiError, type ApiError } from '../api/errors';

interface Props {
  readonly error: unknown;
  /** Overrides the title, e.g. "The import failed". */
  readonly title?: string;
  /** Overrides the advice. */
  readonly hint?: string;
  readonly onRetry?: () => void;
}

/**
 * An error in the user's language: what happened, what to do, and the server's own words
 * (English, as CKAN sends them) under "Technical details".
 */
export function ErrorNotice({ error, title, hint, onRetry }: Props) {
  const { t } = useTranslation();
  const err: ApiError = toApiError(error);
  const kind = err.kind;
  const fields = Object.entries(err.fields);
  const detail = err.kind === 'network' || isNoTokenError(err) ? '' : err.message;
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{title ?? t(`errors.${kind}.title`)}</p>
      <p>{hint ?? t(`errors.${kind}.hint`)}</p>
      {fields.length > 0 && (
        <ul className="notice-fields">
          {fields.map(([field, messages]) => <li key={field}><code>{field}</code>: {messages.join(' ')}</li>)}
        </ul>
      )}
      {detail && fields.length === 0 && (
        <details open={kind === 'import_failed'}>
          <summary>{t('errors.details')}</summary>
          <p className="notice-detail">{detail}{err.status ? ` (HTTP ${err.status})` : ''}</p>
        </details>
      )}
      {onRetry && <button type="button" className="button" onClick={onRetry}>{t('common.retry')}</button>}
    </div>
  );
}
