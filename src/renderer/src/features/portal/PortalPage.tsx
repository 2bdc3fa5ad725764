import { LabelledSelect } from '../../components/LabelledSelect';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalJobStatus } from '../../../../shared/portal';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TokenForm } from '../../components/TokenForm';
import { formatBytes, formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDebounced } from '../../hooks/use-debounced';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { JobProgress } from './JobProgress';
import { MessageLine } from './MessageLine';
import { PortalFailure, portalApi, type RemotePackage } from './portal-api';
import { MirrorResults } from './MirrorResults';
import { usePortalJob } from './use-portal-job';

const PAGE = 20;

/** The dataset a pasted URL names (`…/dataset/NAME[/resource/ID]`), if any. */
export function datasetOfUrl(url: string): string | null {
  const m = /\/dataset\/([^/?#]+)/.exec(url);
  return m ? decodeURIComponent(m[1]!) : null;
}

function PortalProblem({ error }: { readonly error: unknown }) {
  const { t } = useTranslation();
  if (error instanceof PortalFailure) {
    return (
      <div className="notice notice-error" role="alert" data-testid="portal-problem">
        <p className="notice-title">
          <MessageLine message={error.worded} />
        </p>
        <p>{t('portal.localStillWorks')}</p>
      </div>
    );
  }
  return <ErrorNotice error={error} />;
}

/** "From a portal": paste a portal or dataset URL, browse and search its catalogue, mirror resources. */
export function PortalPage() {
  const { t } = useTranslation();
  const token = useToken();
  const id = useId();
  const [draft, setDraft] = useState('');
  const [portalToken, setPortalToken] = useState('');
  const [portal, setPortal] = useState<string | null>(null);
  const [dataset, setDataset] = useState<string | null>(null);
  const remembered = useAsync(`portals:${token ?? ''}`, () => (token ? portalApi.portals() : Promise.resolve([])));
  useDocumentTitle(t('portal.title'));

  const open = (url: string) => {
    const clean = url.trim();
    if (!clean) return;
    setDraft(clean);
    setPortal(clean);
    setDataset(datasetOfUrl(clean));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    open(draft);
  };
  return (
    <div className="page portal-page">
      <div className="page-head">
        <h1 tabIndex={-1}>{t('portal.title')}</h1>
      </div>
      <p className="muted">{t('portal.intro')}</p>
      <TokenForm />
      <form className="portal-form" onSubmit={submit}>
        <label htmlFor={`${id}-url`}>{t('portal.urlLabel')}</label>
        <input
          id={`${id}-url`}
          type="url"
          value={draft}
          required
          placeholder="https://dati.comune.example.it/opendata/dataset/…"
          onChange={(e) => setDraft(e.target.value)}
          data-testid="portal-url"
        />
        <label htmlFor={`${id}-token`}>{t('portal.tokenLabel')}</label>
        <input id={`${id}-token`} type="password" autoComplete="off" value={portalToken} onChange={(e) => setPortalToken(e.target.value)} />
        <button type="submit" className="button button-primary" disabled={!token}>
          {t('portal.open')}
        </button>
      </form>
      {(remembered.data?.length ?? 0) > 0 && (
        <div className="remembered" aria-label={t('portal.remembered')}>
          <span className="muted small">{t('portal.remembered')}</span>
          {remembered.data!.map((p) => (
            <button key={p.url} type="button" className="button button-small" onClick={() => open(p.url)} title={p.url}>
              {p.title}
            </button>
          ))}
        </div>
      )}
      {portal && !dataset && <PortalBrowser key={portal} url={portal} onOpen={setDataset} />}
      {portal && dataset && (
        <RemoteDataset
          key={`${portal} ${dataset}`}
          url={portal}
          name={dataset}
          portalToken={portalToken}
          onBack={datasetOfUrl(portal) ? null : () => setDataset(null)}
        />
      )}
    </div>
  );
}

function PortalBrowser({ url, onOpen }: { readonly url: string; readonly onOpen: (name: string) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [query, setQuery] = useState('');
  const [organization, setOrganization] = useState('');
  const [start, setStart] = useState(0);
  const q = useDebounced(query.trim(), 300);
  const search = useAsync(`${url} ${q} ${organization} ${start}`, (signal) => portalApi.search(url, q, organization, start, PAGE, signal));
  const organizations = useAsync(`orgs ${url}`, (signal) => portalApi.organizations(url, signal));
  const results = search.data?.result;
  return (
    <section className="portal-browser" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{search.data?.portal ?? url}</h2>
      {search.error !== undefined && <PortalProblem error={search.error} />}
      <div className="search-row">
        <label htmlFor={`${id}-q`}>{t('portal.searchLabel')}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setStart(0);
          }}
          data-testid="portal-search"
        />
        {(organizations.data?.result.length ?? 0) > 0 && (
          <LabelledSelect
            className="inline-option"
            label={t('portal.organization')}
            value={organization}
            options={[
              { value: '', label: t('portal.allOrganizations') },
              ...organizations.data!.result.map((o) => ({ value: o, label: o })),
            ]}
            onChange={(value) => {
              setOrganization(value);
              setStart(0);
            }}
          />
        )}
        <span className="muted" role="status" aria-live="polite">
          {results
            ? t('portal.found', { count: results.count, n: formatCount(results.count, locale) })
            : search.loading
              ? t('common.loading')
              : ''}
        </span>
      </div>
      <ul className="portal-results">
        {results?.results.map((p) => (
          <li key={p.id}>
            <button type="button" className="link-button" onClick={() => onOpen(p.name)} data-testid="portal-result">
              {p.title || p.name}
            </button>
            <span className="muted small">{` ${p.organization?.title ?? ''} · ${t('portal.resourceCount', { count: p.num_resources ?? p.resources?.length ?? 0 })}`}</span>
          </li>
        ))}
      </ul>
      {results && results.count > PAGE && (
        <div className="pager">
          <button type="button" className="button button-small" disabled={start === 0} onClick={() => setStart(Math.max(0, start - PAGE))}>
            {t('portal.previous')}
          </button>
          <span className="muted small">
            {t('portal.page', { from: start + 1, to: Math.min(start + PAGE, results.count), count: results.count })}
          </span>
          <button
            type="button"
            className="button button-small"
            disabled={start + PAGE >= results.count}
            onClick={() => setStart(start + PAGE)}
          >
            {t('portal.next')}
          </button>
        </div>
      )}
    </section>
  );
}

function RemoteDataset({
  url,
  name,
  portalToken,
  onBack,
}: {
  readonly url: string;
  readonly name: string;
  readonly portalToken: string;
  readonly onBack: (() => void) | null;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const shown = useAsync(`${url} ${name}`, (signal) => portalApi.dataset(url, name, signal));
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [started, setStarted] = useState<PortalJobStatus | null>(null);
  const [startError, setStartError] = useState<unknown>(null);
  const job = usePortalJob(started);
  const pkg: RemotePackage | undefined = shown.data?.result;
  const resources = pkg?.resources ?? [];
  const chosen = resources.filter((r) => !unchecked.has(r.id)).map((r) => r.id);
  const toggle = (rid: string) =>
    setUnchecked((s) => {
      const next = new Set(s);
      if (next.has(rid)) next.delete(rid);
      else next.add(rid);
      return next;
    });
  const mirror = () => {
    setStartError(null);
    portalApi
      .mirror(`${shown.data!.portal}/dataset/${encodeURIComponent(name)}`, pkg!.id, chosen, portalToken)
      .then(setStarted, setStartError);
  };
  return (
    <section className="remote-dataset" aria-labelledby="remote-dataset-title">
      {onBack && (
        <button type="button" className="link-button" onClick={onBack}>
          {t('portal.backToResults')}
        </button>
      )}
      {shown.error !== undefined && <PortalProblem error={shown.error} />}
      {pkg && (
        <>
          <h2 id="remote-dataset-title">{pkg.title || pkg.name}</h2>
          <p className="muted small">
            <code>{pkg.name}</code>
            {pkg.organization ? ` · ${pkg.organization.title}` : ''}
          </p>
          {pkg.notes && <p>{pkg.notes}</p>}
          <fieldset className="remote-resources" disabled={job !== null && job.status === 'running'}>
            <legend>{t('portal.chooseResources')}</legend>
            {resources.map((r) => (
              <label key={r.id} className="remote-resource" data-testid="remote-resource">
                <input type="checkbox" checked={!unchecked.has(r.id)} onChange={() => toggle(r.id)} />
                <span className="file-name">{r.name || r.id}</span>
                <span className="muted small">
                  {[r.format || '–', typeof r.size === 'number' ? formatBytes(r.size, locale) : null].filter(Boolean).join(' · ')}
                </span>
                {r.datastore_active && <span className="badge badge-ok">{t('portal.inDatastore')}</span>}
              </label>
            ))}
          </fieldset>
          <button
            type="button"
            className="button button-primary"
            disabled={chosen.length === 0 || (job !== null && job.status === 'running')}
            onClick={mirror}
            data-testid="mirror-button"
          >
            {t('portal.mirror', { count: chosen.length })}
          </button>
        </>
      )}
      {startError !== null && <ErrorNotice error={startError} />}
      {job && <JobProgress job={job} />}
      {job?.status === 'complete' && Array.isArray(job.result) && <MirrorResults outcomes={job.result} />}
    </section>
  );
}
