import { useTranslation } from 'react-i18next';
import { isNoTokenError, toApiError, type ApiError } from '../api/errors';
import { MessageText } from './MessageText';

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
 * (English, as CKAN sends them) under "Technical details". When the server coded its message
 * (`deskstore_message`), that is shown, worded in the user's language, and CKAN's members go
 * to the technical details.
 */
export function ErrorNotice({ error, title, hint, onRetry }: Props) {
  const { t } = useTranslation();
  const err: ApiError = toApiError(error);
  const kind = err.kind;
  const fields = Object.entries(err.fields);
  const detail = err.kind === 'network' || isNoTokenError(err) ? '' : err.message;
  if (err.worded) {
    // A failed import still says what to do next, beside the server's worded reason.
    const whatToDo = hint ?? (kind === 'import_failed' ? t('errors.import_failed.hint') : undefined);
    return (
      <div className="notice notice-error" role="alert" data-testid="error-notice">
        <p className="notice-title">{title ?? t(`errors.${kind}.title`)}</p>
        <MessageText as="p" message={err.worded} />
        {whatToDo && <p>{whatToDo}</p>}
        <details>
          <summary>{t('errors.details')}</summary>
          {fields.length > 0 ? (
            <ul className="notice-fields" lang="en">
              {fields.map(([field, messages]) => (
                <li key={field}>
                  <code>{field}</code>: {messages.join(' ')}
                </li>
              ))}
            </ul>
          ) : (
            <p className="notice-detail" lang="en">
              {err.message}
            </p>
          )}
          {err.status ? (
            <p className="notice-detail">
              HTTP {err.status} · <code>{err.worded.code}</code>
            </p>
          ) : null}
        </details>
        {onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            {t('common.retry')}
          </button>
        )}
      </div>
    );
  }
  return (
    <div className="notice notice-error" role="alert" data-testid="error-notice">
      <p className="notice-title">{title ?? t(`errors.${kind}.title`)}</p>
      <p>{hint ?? t(`errors.${kind}.hint`)}</p>
      {fields.length > 0 && (
        <ul className="notice-fields">
          {fields.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join(' ')}
            </li>
          ))}
        </ul>
      )}
      {detail && fields.length === 0 && (
        <details open={kind === 'import_failed'}>
          <summary>{t('errors.details')}</summary>
          <p className="notice-detail">
            {detail}
            {err.status ? ` (HTTP ${err.status})` : ''}
          </p>
        </details>
      )}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
