import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { PackageDict, ResourceDict } from '../../../../shared/wire/catalogue';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TokenForm } from '../../components/TokenForm';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDebounced } from '../../hooks/use-debounced';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { resourceTitle, resourcesToShow } from './catalogue-filter';
import { ResourceRow } from './ResourceRow';

export function CataloguePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useToken();
  const id = useId();
  const [query, setQuery] = useState('');
  const settled = useDebounced(query.trim(), 250);
  const search = useAsync(`packages:${settled}`, (signal) => api.packageSearch(settled, { signal }));
  const [deleting, setDeleting] = useState<ResourceDict | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  useDocumentTitle(t('catalogue.title'));

  const confirmDelete = () => {
    if (!deleting) return;
    setBusy(true);
    api.resourceDelete(deleting.id).then(() => {
      setDeleting(null);
      setBusy(false);
      search.reload();
    }, (err: unknown) => {
      setDeleting(null);
      setBusy(false);
      setDeleteError(err);
    });
  };

  const packages: readonly PackageDict[] = search.data?.results ?? [];
  const resourceCount = packages.reduce((n, p) => n + resourcesToShow(p, settled).length, 0);
  return (
    <div className="page catalogue">
      <div className="page-head">
        <h1 tabIndex={-1}>{t('catalogue.title')}</h1>
        <a className="button button-primary" href="#/import">{t('catalogue.importFile')}</a>
      </div>
      <TokenForm />
      <div className="search-row">
        <label htmlFor={`${id}-q`}>{t('catalogue.searchLabel')}</label>
        <input id={`${id}-q`} type="search" value={query} placeholder={t('catalogue.searchPlaceholder')}
          onChange={(e) => setQuery(e.target.value)} data-testid="catalogue-search" />
        <span className="muted" role="status" aria-live="polite">
          {search.data ? t('catalogue.counts', {
            count: search.data.count, datasets: formatCount(search.data.count, locale),
            resources: t('catalogue.resourceCount', { count: resourceCount, n: formatCount(resourceCount, locale) }),
          }) : search.loading ? t('common.loading') : ''}
        </span>
      </div>
      {deleteError !== null && <ErrorNotice error={deleteError} onRetry={() => setDeleteError(null)} />}
      {search.error !== undefined && <ErrorNotice error={search.error} onRetry={search.reload} />}
      {search.data && packages.length === 0 && (
        <div className="empty">
          <p>{settled ? t('catalogue.noMatch', { query: settled }) : t('catalogue.empty')}</p>
          {!settled && <a className="button button-primary" href="#/import">{t('catalogue.importFile')}</a>}
        </div>
      )}
      {packages.map((pkg) => {
        const resources = resourcesToShow(pkg, settled);
        return (
          <section key={pkg.id} className="dataset" aria-labelledby={`ds-${pkg.id}`} data-testid="dataset">
            <h2 id={`ds-${pkg.id}`}>{pkg.title || pkg.name}</h2>
            <p className="muted small">
              <code>{pkg.name}</code>{pkg.notes ? ` · ${pkg.notes}` : ''}
            </p>
            {resources.length === 0 ? <p className="muted">{t('catalogue.noResources')}</p> : (
              <div className="table-wrap">
                <table className="resources">
                  <caption className="visually-hidden">{t('catalogue.resourcesOf', { name: pkg.title || pkg.name })}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className="c-name">{t('catalogue.col.name')}</th>
                      <th scope="col" className="num c-rows">{t('catalogue.col.rows')}</th>
                      <th scope="col" className="num c-cols">{t('catalogue.col.columns')}</th>
                      <th scope="col" className="num c-size">{t('catalogue.col.size')}</th>
                      <th scope="col" className="c-source">{t('catalogue.col.source')}</th>
                      <th scope="col" className="c-date">{t('catalogue.col.imported')}</th>
                      <th scope="col" className="c-actions"><span className="visually-hidden">{t('catalogue.col.actions')}</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {resources.map((r) => <ResourceRow key={r.id} resource={r} canWrite={token !== null} onDelete={setDeleting} />)}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
      <ConfirmDialog open={deleting !== null} danger busy={busy} title={t('catalogue.deleteTitle')}
        confirmLabel={t('catalogue.deleteConfirm')} onCancel={() => setDeleting(null)} onConfirm={confirmDelete}>
        <p>{deleting ? t('catalogue.deleteText', { name: resourceTitle(deleting) }) : ''}</p>
      </ConfirmDialog>
    </div>
  );
}
