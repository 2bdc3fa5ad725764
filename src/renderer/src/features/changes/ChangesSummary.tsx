import { useTranslation } from 'react-i18next';
import type { ResourceDict } from '../../../../shared/wire/catalogue';
import { call } from '../../api/client';
import { useAsync } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { changesPath, hrefFor } from '../../router';
import { sinceText } from './change-words';

/**
 * Above a table whose data was replaced or synced: "N added, M removed, K changed since
 * <date>" against the version kept before the current one, and a link to the Changes view.
 * Nothing for a resource with one version. The comparison runs in the server's changes worker
 * (a million rows take seconds): the line says so until it is there.
 */
export function ChangesSummary({ resource }: { readonly resource: ResourceDict }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const kept = resource.deskstore?.versions ?? 1;
  const version = resource.deskstore?.version ?? 1;
  const changes = useAsync(kept > 1 ? `changes-summary:${resource.id}:${version}` : '', async (signal) => {
    if (kept < 2) return null;
    const [answer, versions] = await Promise.all([
      call('deskstore_changes', { resource_id: resource.id, limit: 0 }, { signal }),
      call('deskstore_versions', { resource_id: resource.id }, { signal }),
    ]);
    const since = versions.versions.find((v) => v.version === answer.from)?.created ?? '';
    return { counts: answer.counts, since };
  });
  if (kept < 2) return null;
  if (changes.error !== undefined) return null; // the table is what this page is for
  return (
    <p className="changes-summary" data-testid="changes-summary" role="status">
      {changes.data ? sinceText(t, changes.data.counts, changes.data.since, locale) : t('changes.comparing')}{' '}
      <a href={hrefFor(changesPath(resource.id))} data-testid="show-changes">
        {t('changes.show')}
      </a>
    </p>
  );
}
