import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatCount, formatDuration, formatPercent, formatRate } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { hrefFor, navigate, resourcePath } from '../../router';
import { ImportReport, reportHasNews } from './ImportReport';
import { PhaseSteps } from './PhaseSteps';
import { importProgress } from './progress-math';
import { removeUnfinishedImport } from './remove-unfinished';
import { useImportStatus } from './use-import-status';
import type { ImportJobStatus } from '../../../../shared/wire/import';
import type { Message } from '../../../../shared/messages';
import { isMessage } from '../../i18n/format-message';

/** The coded message of a failed load: the error itself, or its `deskstore_message`. */
function importErrorMessage(error: ImportJobStatus['error']): Message | null {
  if (isMessage(error)) return error;
  const inner = (error as { deskstore_message?: unknown } | null)?.deskstore_message;
  return isMessage(inner) ? inner : null;
}

interface Props {
  readonly resourceId: string;
  /** The dataset this import created (null: the file went into an existing one). */
  readonly createdDataset: string | null;
}

/**
 * A running import: one bar over all phases, rows read, percent, rate and time left, and
 * a cancel button. The import runs in the server's worker, so this screen (and every
 * other) stays responsive; it can be left and reopened from the catalogue. A cancelled new
 * import leaves nothing behind (its resource, and the dataset made for it); a cancelled
 * replacement leaves the previous data as it was.
 */
export function ImportProgressPage({ resourceId, createdDataset }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useToken();
  const { status, lastActive, samples, error } = useImportStatus(resourceId);
  const resource = useAsync(`resource:${resourceId}`, (signal) => call('resource_show', { id: resourceId }, { signal }));
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [removed, setRemoved] = useState(false);
  const name = resource.data?.name || t('import.progress.unnamed');
  // A resource that had a table when this screen opened is being replaced: cancelling keeps its data.
  const replacing = resource.data?.datastore_active ?? false;
  useDocumentTitle(t('import.progress.title', { name }));

  // Once complete, the resource keeps the import's report: read it again. A clean new import
  // goes on to its table; one that repaired, renamed or warned, or replaced data, stays here
  // with the report, so what the import did is seen before the table is used.
  const complete = status?.status === 'complete';
  const done = useAsync(`done:${resourceId}:${complete}`, (signal) =>
    complete ? call('resource_show', { id: resourceId }, { signal }) : Promise.resolve(null),
  );
  const report = done.data?.deskstore?.source ?? null;
  const stay = replacing || reportHasNews(report);
  useEffect(() => {
    if (!complete || !done.data || stay) return undefined;
    const timer = window.setTimeout(() => navigate(resourcePath(resourceId), undefined, { replace: true }), 600);
    return () => window.clearTimeout(timer);
  }, [complete, done.data, stay, resourceId]);

  // The user asked for nothing of a cancelled new import: its empty resource (and the dataset
  // made for it) go.
  useEffect(() => {
    if (status?.status !== 'cancelled' || !cancelling || removed || replacing || !resource.data) return;
    removeUnfinishedImport(resourceId, createdDataset).then(
      () => setRemoved(true),
      (err: unknown) => setCancelError(err),
    );
  }, [status?.status, cancelling, removed, replacing, resource.data, resourceId, createdDataset]);

  const cancel = () => {
    setCancelling(true);
    setCancelError(null);
    call('deskstore_import_cancel', { resource_id: resourceId }).catch((err: unknown) => {
      setCancelling(false);
      setCancelError(err);
    });
  };

  const notFound = error instanceof ApiError && error.kind === 'not_found';
  if (notFound) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>{t('import.progress.noJobTitle')}</h1>
        <p>{t('import.progress.noJob')}</p>
        <a className="button" href="#/">
          {t('nav.backToCatalogue')}
        </a>
      </div>
    );
  }
  const view = status ? importProgress(status, samples, lastActive) : null;
  const running = status !== null && !view?.finished;
  const valueText = !view
    ? t('common.loading')
    : view.stopped
      ? t(status?.status === 'cancelled' ? 'import.progress.stoppedValueText' : 'import.progress.failedValueText', {
          rows: formatCount(view.rows, locale),
        })
      : t('import.progress.valueText', { percent: formatPercent(view.fraction, locale), rows: formatCount(view.rows, locale) });
  return (
    <div className="page import-progress">
      <div className="page-head">
        <h1 tabIndex={-1}>{t('import.progress.title', { name })}</h1>
      </div>
      <section className={view?.stopped ? 'card card-stopped' : 'card'} aria-labelledby="progress-phase" data-testid="import-card">
        <h2 id="progress-phase" className="phase" aria-live="polite">
          {status
            ? t(`import.phase.${status.status === 'running' || status.status === 'pending' ? status.phase : status.status}`)
            : t('common.loading')}
        </h2>
        <ProgressBar
          fraction={view ? view.fraction : null}
          label={t('import.progress.label')}
          valueText={valueText}
          stopped={view?.stopped ?? false}
        />
        {view && status && (
          <dl className="stats" data-testid="import-stats">
            {!view.stopped && (
              <div>
                <dt>{t('import.progress.percent')}</dt>
                <dd data-testid="import-percent">{formatPercent(view.fraction, locale)}</dd>
              </div>
            )}
            <div>
              <dt>{t('import.progress.rows')}</dt>
              <dd data-testid="import-rows">{formatCount(view.rows, locale)}</dd>
            </div>
            {!view.stopped && (
              <>
                {status.bytes_total > 0 && (
                  // a workbook is read whole: no bytes to count, so none are shown
                  <div>
                    <dt>{t('import.progress.read')}</dt>
                    <dd>
                      {t('import.progress.bytes', {
                        done: formatBytes(status.bytes_done, locale),
                        total: formatBytes(status.bytes_total, locale),
                      })}
                    </dd>
                  </div>
                )}
                <div>
                  <dt>{t('import.progress.rate')}</dt>
                  <dd>
                    {view.rowsPerSecond !== null
                      ? t('import.progress.rowsPerSecond', { rate: formatRate(view.rowsPerSecond, locale) })
                      : '–'}
                  </dd>
                </div>
                <div>
                  <dt>{t('import.progress.timeLeft')}</dt>
                  <dd>
                    {view.finished
                      ? '–'
                      : view.secondsLeft !== null
                        ? formatDuration(view.secondsLeft, locale)
                        : status.phase === 'queued'
                          ? '–'
                          : t('import.progress.finishing')}
                  </dd>
                </div>
              </>
            )}
          </dl>
        )}
        {status && <PhaseSteps phase={status.phase} status={status.status} stoppedIn={view?.stoppedIn ?? null} />}
        {running && (
          <div className="import-actions">
            <button
              type="button"
              className="button button-danger-outline"
              onClick={cancel}
              disabled={cancelling || !token}
              data-testid="cancel-import"
            >
              {cancelling ? t('import.progress.cancelling') : t('import.progress.cancel')}
            </button>
            {view?.searchable && (
              <a className="button" href={hrefFor(resourcePath(resourceId))}>
                {t('import.progress.openNow')}
              </a>
            )}
          </div>
        )}
        {cancelError !== null && <ErrorNotice error={cancelError} />}
        {error !== null && !notFound && <ErrorNotice error={error} />}
        {status?.status === 'complete' && (
          <>
            <p className="notice notice-ok" role="status">
              {t('import.progress.done', { rows: formatCount(status.rows_done, locale) })}
              {!stay && (
                <>
                  {' '}
                  <a href={hrefFor(resourcePath(resourceId))} data-testid="open-table">
                    {t('import.progress.openTable')}
                  </a>
                </>
              )}
            </p>
            {report && stay && (
              <section className="import-report" aria-labelledby="import-report-title" data-testid="import-report">
                <h3 id="import-report-title">{t('import.report.title')}</h3>
                <ImportReport source={report} />
                <div className="import-actions">
                  <a className="button button-primary" href={hrefFor(resourcePath(resourceId))} data-testid="open-table">
                    {t('import.progress.openTable')}
                  </a>
                </div>
              </section>
            )}
          </>
        )}
        {status?.status === 'error' && (
          <>
            <ErrorNotice error={new ApiError('import_failed', 0, status.error?.message ?? '', {}, importErrorMessage(status.error))} />
            <div className="import-actions">
              <a className="button button-primary" href="#/import">
                {t('import.progress.tryAgain')}
              </a>
              {replacing ? null : removed ? (
                <span role="status">{t('import.progress.removed')}</span>
              ) : (
                <button
                  type="button"
                  className="button"
                  disabled={!token}
                  data-testid="remove-empty"
                  onClick={() =>
                    void removeUnfinishedImport(resourceId, createdDataset).then(
                      () => setRemoved(true),
                      (err: unknown) => setCancelError(err),
                    )
                  }
                >
                  {t('import.progress.removeEmpty')}
                </button>
              )}
              <a className="button" href="#/">
                {t('nav.backToCatalogue')}
              </a>
            </div>
          </>
        )}
        {status?.status === 'cancelled' && (
          <>
            <p className="notice" role="status" data-testid="cancelled-notice">
              {replacing
                ? t('import.progress.cancelled')
                : removed
                  ? t('import.progress.cancelledRemoved')
                  : cancelling
                    ? t('import.progress.cancelledRemoving')
                    : t('import.progress.cancelledLeft')}
            </p>
            <div className="import-actions">
              <a className="button button-primary" href="#/import">
                {t('import.progress.importAnother')}
              </a>
              {!replacing && !removed && !cancelling && (
                <button
                  type="button"
                  className="button"
                  disabled={!token}
                  data-testid="remove-empty"
                  onClick={() =>
                    void removeUnfinishedImport(resourceId, createdDataset).then(
                      () => setRemoved(true),
                      (err: unknown) => setCancelError(err),
                    )
                  }
                >
                  {t('import.progress.removeEmpty')}
                </button>
              )}
              <a className="button" href="#/">
                {t('nav.backToCatalogue')}
              </a>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
