import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PackageMirror, PortalJobStatus } from '../../../../shared/portal';
import type { SyncSchedule } from '../../../../shared/wire/catalogue';
import { ErrorNotice } from '../../components/ErrorNotice';
import { SyncScheduleControl } from '../changes/SyncScheduleControl';
import { formatInstant } from '../../format/date';
import { useLocale } from '../../hooks/use-locale';
import { JobProgress } from './JobProgress';
import { MirrorResults } from './MirrorResults';
import { portalApi } from './portal-api';
import { isJobFinished, usePortalJob } from './use-portal-job';

/** On a mirrored dataset in the catalogue: where it came from, when it was synced, and Update. */
export function MirrorInfo({
  packageId,
  mirror,
  canWrite,
  onUpdated,
  schedule,
}: {
  readonly packageId: string;
  readonly mirror: PackageMirror | undefined;
  readonly canWrite: boolean;
  readonly onUpdated: () => void;
  /** Its sync schedule, if it has one (docs/versions.md). */
  readonly schedule?: SyncSchedule | undefined;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [started, setStarted] = useState<PortalJobStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const job = usePortalJob(started);
  const finished = job !== null && isJobFinished(job);
  useEffect(() => {
    if (finished) onUpdated(); // the catalogue shows the new rows and sync time
  }, [finished, onUpdated]);
  if (!mirror) return null;
  const detach = () => {
    setError(null);
    portalApi.detach(packageId).then(onUpdated, setError);
  };
  const update = () => {
    setError(null);
    portalApi.sync([packageId]).then(setStarted, setError);
  };
  return (
    <div className="mirror-info" data-testid="mirror-info">
      <p className="muted small">
        {t('portal.from')}{' '}
        <a href={mirror.page} target="_blank" rel="noreferrer noopener">
          {mirror.page}
        </a>
        {' · '}
        {t('portal.lastSynced', { when: formatInstant(mirror.fetchedAt, locale) })}{' '}
        <button
          type="button"
          className="button button-small"
          disabled={!canWrite || (job !== null && !isJobFinished(job))}
          title={canWrite ? undefined : t('token.needed')}
          onClick={update}
          data-testid="mirror-update"
        >
          {t('portal.update')}
        </button>{' '}
        <button
          type="button"
          className="button button-small"
          disabled={!canWrite || (job !== null && !isJobFinished(job))}
          title={t('portal.detachHint')}
          onClick={detach}
          data-testid="mirror-detach"
        >
          {t('portal.detach')}
        </button>
      </p>
      <SyncScheduleControl packageId={packageId} schedule={schedule} canWrite={canWrite} onChanged={onUpdated} />
      {error !== null && <ErrorNotice error={error} />}
      {job && !isJobFinished(job) && <JobProgress job={job} />}
      {job?.status === 'error' && <JobProgress job={job} />}
      {job?.status === 'complete' && Array.isArray(job.result) && <MirrorResults outcomes={job.result} />}
    </div>
  );
}
