import { useTranslation } from 'react-i18next';
import type { PortalJobStatus } from '../../../../shared/portal';
import { ProgressBar } from '../../components/ProgressBar';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { MessageLine } from './MessageLine';
import { portalApi } from './portal-api';
import { isJobFinished } from './use-portal-job';

/** Per-resource progress of a mirror, sync or push, with cancel while it runs. */
export function JobProgress({ job }: { readonly job: PortalJobStatus }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const running = !isJobFinished(job);
  return (
    <div className="portal-job" data-testid="portal-job" data-status={job.status}>
      <p role="status" aria-live="polite">
        {t(`portal.job.${job.status}`)}
      </p>
      <ul className="portal-items">
        {job.items.map((item) => {
          const fraction = item.phase === 'done' ? 1 : item.rows_total ? item.rows_done / item.rows_total : 0;
          return (
            <li key={item.resource_id}>
              <span className="file-name">{item.name || item.resource_id}</span>
              <ProgressBar
                fraction={fraction}
                label={t(`portal.phase.${item.phase}`)}
                valueText={
                  item.rows_total !== null
                    ? t('portal.rowsOf', { done: formatCount(item.rows_done, locale), total: formatCount(item.rows_total, locale) })
                    : t('portal.rows', { done: formatCount(item.rows_done, locale) })
                }
              />
            </li>
          );
        })}
      </ul>
      {job.error && (
        <div className="notice notice-error" role="alert">
          <MessageLine message={job.error} />
        </div>
      )}
      {running && (
        <button
          type="button"
          className="button"
          onClick={() => {
            void portalApi.cancel(job.job_id);
          }}
        >
          {t('common.cancel')}
        </button>
      )}
    </div>
  );
}
