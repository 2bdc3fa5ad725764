import { useTranslation } from 'react-i18next';
import type { MirrorOutcome } from '../../../../shared/portal';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { changesPath, hrefFor, resourcePath } from '../../router';
import { MessageLine } from './MessageLine';

/** What a mirror or an Update did, resource by resource: rows added, removed, changed, or nothing. */
export function MirrorResults({ outcomes }: { readonly outcomes: readonly MirrorOutcome[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="mirror-results" data-testid="mirror-results">
      {outcomes.map((o) => (
        <div key={o.package_id}>
          {o.metadata_changed && <p>{t('portal.metadataChanged')}</p>}
          <ul>
            {o.resources.map((r) => (
              <li key={r.resource_id} data-status={r.status}>
                {r.status === 'mirrored' || r.status === 'updated' || r.status === 'unchanged' ? (
                  <a href={hrefFor(resourcePath(r.resource_id))}>{r.name || r.resource_id}</a>
                ) : (
                  <span>{r.name || r.resource_id}</span>
                )}
                {': '}
                <strong>{t(`portal.status.${r.status}`)}</strong>
                {r.status !== 'failed' && r.status !== 'skipped' && ` · ${t('portal.rows', { done: formatCount(r.rows, locale) })}`}
                {r.changes &&
                  ` · ${t('portal.changes', {
                    added: formatCount(r.changes.added, locale),
                    removed: formatCount(r.changes.removed, locale),
                    changed: formatCount(r.changes.changed, locale),
                  })}`}
                {r.changes && r.changes.added + r.changes.removed + r.changes.changed > 0 && (
                  <>
                    {' · '}
                    <a href={hrefFor(changesPath(r.resource_id))} data-testid="result-show-changes">
                      {t('changes.show')}
                    </a>
                  </>
                )}
                {r.message && (
                  <>
                    {' '}
                    · <MessageLine message={r.message} />
                  </>
                )}
              </li>
            ))}
          </ul>
          {!o.metadata_changed && o.resources.every((r) => r.status === 'unchanged' || r.status === 'skipped') && (
            <p data-testid="nothing-changed">{t('portal.nothingChanged')}</p>
          )}
        </div>
      ))}
      <p>
        <a href="#/">{t('nav.backToCatalogue')}</a>
      </p>
    </div>
  );
}
