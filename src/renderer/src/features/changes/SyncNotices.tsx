import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MirroredResource, PortalJobStatus } from '../../../../shared/portal';
import { call } from '../../api/client';
import { useLocale } from '../../hooks/use-locale';
import { changesPath, hrefFor } from '../../router';
import { countsText } from './change-words';

/** How often the window asks whether a scheduled sync finished (a small in-memory answer). */
const POLL_MS = 10_000;
const DISMISSED_KEY = 'deskstore.dismissedSyncNotices';
/** Dismissed job ids remembered (the server keeps its last 100 jobs). */
const DISMISSED_KEPT = 200;

function loadDismissed(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The resources a finished scheduled sync changed rows of. */
function changedResources(job: PortalJobStatus): { dataset: string; resource: MirroredResource }[] {
  if (!job.scheduled || job.status !== 'complete' || !Array.isArray(job.result)) return [];
  return job.result.flatMap((outcome) =>
    outcome.resources
      .filter((r) => r.status === 'updated' && r.changes && r.changes.added + r.changes.removed + r.changes.changed > 0)
      .map((resource) => ({ dataset: outcome.name, resource })),
  );
}

/**
 * Below the header, in every screen: what a scheduled sync (docs/versions.md) changed while
 * the window was open or closed, resource by resource, with a link to the changes; each notice
 * stays until dismissed.
 */
export function SyncNotices() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [jobs, setJobs] = useState<readonly PortalJobStatus[]>([]);
  const [dismissed, setDismissed] = useState<readonly string[]>(loadDismissed);

  const poll = useCallback(() => {
    if (document.visibilityState === 'hidden') return;
    call('deskstore_portal_job_status', {}).then(
      (answer) => setJobs(Array.isArray(answer) ? answer : [answer as PortalJobStatus]),
      () => undefined, // a notice is a courtesy: the next poll tries again
    );
  }, []);
  useEffect(() => {
    poll();
    const timer = window.setInterval(poll, POLL_MS);
    document.addEventListener('visibilitychange', poll);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
    };
  }, [poll]);

  const dismiss = (jobId: string) => {
    const next = [...dismissed, jobId].slice(-DISMISSED_KEPT);
    setDismissed(next);
    try {
      window.localStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // not remembered past this window: it shows again next time
    }
  };

  const notices = jobs.filter((j) => !dismissed.includes(j.job_id)).map((job) => ({ job, changed: changedResources(job) }));
  const shown = notices.filter((n) => n.changed.length > 0);
  if (shown.length === 0) return null;
  return (
    <div className="sync-notices" role="status" aria-live="polite" data-testid="sync-notices">
      {shown.map(({ job, changed }) => (
        <div key={job.job_id} className="notice notice-info sync-notice" data-testid="sync-notice">
          <p className="notice-title">{t('changes.notice.title', { dataset: changed[0]!.dataset })}</p>
          <ul>
            {changed.map(({ resource }) => (
              <li key={resource.resource_id}>
                <a href={hrefFor(changesPath(resource.resource_id))}>{resource.name || resource.resource_id}</a>
                {': '}
                {countsText(t, resource.changes!, locale)}
              </li>
            ))}
          </ul>
          <button type="button" className="button button-small" onClick={() => dismiss(job.job_id)} data-testid="dismiss-notice">
            {t('changes.notice.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
