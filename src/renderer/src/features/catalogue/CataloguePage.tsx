import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { PackageDict } from '../../../../shared/wire/catalogue';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TokenForm } from '../../components/TokenForm';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDebounced } from '../../hooks/use-debounced';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { resourcesToShow } from './catalogue-filter';
import { applyChange, type PendingChange } from './catalogue-changes';
import { ChangeDialog } from './ChangeDialog';
import { DatasetCard } from './DatasetCard';
import { MirrorInfo } from '../portal/MirrorInfo';

export function CataloguePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useToken();
  const id = useId();
  const [query, setQuery] = useState('');
  const settled = useDebounced(query.trim(), 250);
  const search = useAsync(`packages:${settled}`, (signal) => call('package_search', { q: settled, rows: 1000, start: 0 }, { signal }));
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [busy, setBusy] = useState(false);
  const [changeError, setChangeError] = useState<unknown>(null);
  useDocumentTitle(t('catalogue.title'));
  // A deleted dataset or resource takes the button that opened the dialog with it: focus goes
  // to the page's heading instead of falling to <body>.
  const heading = useRef<HTMLHeadingElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || search.loading) return;
    refocus.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body || !active.isConnected) heading.current?.focus();
  }, [search.loading, search.data]);

  const confirmChange = () => {
    if (!pending) return;
    setBusy(true);
    applyChange(pending).then(
      () => {
        setPending(null);
        setBusy(false);
        refocus.current = true;
        search.reload();
      },
      (err: unknown) => {
        setPending(null);
        setBusy(false);
        setChangeError(err);
      },
    );
  };

  const packages: readonly PackageDict[] = search.data?.results ?? [];
  const resourceCount = packages.reduce((n, p) => n + resourcesToShow(p, settled).length, 0);
  return (
    <div className="page catalogue">
      <div className="page-head">
        <h1 tabIndex={-1} ref={heading}>
          {t('catalogue.title')}
        </h1>
        <a className="button button-primary" href="#/import">
          {t('catalogue.importFile')}
        </a>
      </div>
      <TokenForm />
      <div className="search-row">
        <label htmlFor={`${id}-q`}>{t('catalogue.searchLabel')}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          placeholder={t('catalogue.searchPlaceholder')}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="catalogue-search"
        />
        <span className="muted" role="status" aria-live="polite">
          {search.data
            ? t('catalogue.counts', {
                count: search.data.count,
                datasets: formatCount(search.data.count, locale),
                resources: t('catalogue.resourceCount', { count: resourceCount, n: formatCount(resourceCount, locale) }),
              })
            : search.loading
              ? t('common.loading')
              : ''}
        </span>
      </div>
      {changeError !== null && <ErrorNotice error={changeError} onRetry={() => setChangeError(null)} />}
      {search.error !== undefined && <ErrorNotice error={search.error} onRetry={search.reload} />}
      {search.data && packages.length === 0 && (
        <div className="empty">
          <p>{settled ? t('catalogue.noMatch', { query: settled }) : t('catalogue.empty')}</p>
          {!settled && (
            <a className="button button-primary" href="#/import">
              {t('catalogue.importFile')}
            </a>
          )}
        </div>
      )}
      {packages.map((pkg) => (
        <DatasetCard
          key={pkg.id}
          dataset={pkg}
          resources={resourcesToShow(pkg, settled)}
          canWrite={token !== null}
          onChange={setPending}
          mirrorInfo={
            <MirrorInfo
              packageId={pkg.id}
              mirror={pkg.deskstore_mirror}
              schedule={pkg.deskstore_sync_schedule}
              canWrite={token !== null}
              onUpdated={search.reload}
            />
          }
        />
      ))}
      <ChangeDialog change={pending} busy={busy} onChange={setPending} onConfirm={confirmChange} onCancel={() => setPending(null)} />
    </div>
  );
}
