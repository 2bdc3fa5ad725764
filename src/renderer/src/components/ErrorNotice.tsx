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
 * An error in the user's language: what happened and what to do. The server's own words
 * (CKAN's members such as `query` and `info`, or its English message) are technical details,
 * folded away. When the server coded its message (`deskstore_message`), that is shown, worded
 * in the user's language.
 */
export function ErrorNotice({ error, title, hint, onRetry }: Props) {
  const { t } = useTranslation();
  const err: ApiError = toApiError(error);
  const kind = err.kind;
  const fields = Object.entries(err.fields);
  const detail = err.kind === 'network' || isNoTokenError(err) ? '' : err.message;
  // A failed import still says what to do next, beside the server's worded reason.
  const whatToDo = err.worded
    ? (hint ?? (kind === 'import_failed' ? t('errors.import_failed.hint') : undefined))
    : (hint ?? t(`errors.${kind}.hint`));
  return (
    <div className="notice notice-error" role="alert" data-testid="error-notice">
      <p className="notice-title">{title ?? t(`errors.${kind}.title`)}</p>
      {err.worded && <MessageText as="p" message={err.worded} />}
      {whatToDo && <p>{whatToDo}</p>}
      {(fields.length > 0 || detail || err.worded) && (
        <details open={kind === 'import_failed' && !err.worded}>
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
              {detail}
              {err.status && !err.worded ? ` (HTTP ${err.status})` : ''}
            </p>
          )}
          {err.status && err.worded ? (
            <p className="notice-detail">
              HTTP {err.status} · <code>{err.worded.code}</code>
            </p>
          ) : null}
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
