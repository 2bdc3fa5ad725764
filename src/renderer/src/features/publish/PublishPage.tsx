import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalJobStatus } from '../../../../shared/portal';
import { call } from '../../api/client';
import { normalizeBaseUrl } from '../../api/urls';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TokenForm } from '../../components/TokenForm';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { JobProgress } from '../portal/JobProgress';
import { portalApi } from '../portal/portal-api';
import { usePortalJob } from '../portal/use-portal-job';
import { RenameColumns } from './RenameColumns';

/** "Publish to a portal…": a local resource pushed to a CKAN portal's DataStore, with progress and a link. */
export function PublishPage({ resourceId }: { readonly resourceId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useToken();
  const id = useId();
  const resource = useAsync(`resource:${resourceId}`, (signal) => call('resource_show', { id: resourceId }, { signal }));
  const link = resource.data?.deskstore_push;
  const [to, setTo] = useState<string | null>(null);
  const [portalToken, setPortalToken] = useState('');
  const [dataset, setDataset] = useState('');
  const [ownerOrg, setOwnerOrg] = useState('');
  const [started, setStarted] = useState<PortalJobStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const job = usePortalJob(started);
  const title = resource.data?.name ?? resourceId;
  useDocumentTitle(t('publish.title', { name: title }));
  const portal = to ?? link?.portal ?? '';
  // Publishing writes to the portal: it needs the portal's token, given now or remembered.
  const remembered = useAsync('remembered-portals', () => portalApi.portals());
  const base = normalizeBaseUrl(portal);
  const tokenRemembered = (remembered.data ?? []).some((p) => p.hasToken && base !== null && normalizeBaseUrl(p.url) === base);
  const [tokenMissing, setTokenMissing] = useState(false);
  const tokenField = useRef<HTMLInputElement>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!portalToken.trim() && !tokenRemembered) {
      setTokenMissing(true);
      tokenField.current?.focus();
      return;
    }
    setTokenMissing(false);
    portalApi
      .push({
        resource_id: resourceId,
        to: portal,
        ...(portalToken ? { token: portalToken } : {}),
        ...(dataset ? { dataset } : {}),
        ...(ownerOrg ? { owner_org: ownerOrg } : {}),
      })
      .then(setStarted, setError);
  };
  const outcome = job?.status === 'complete' && job.result && !Array.isArray(job.result) ? job.result : null;
  return (
    <div className="page publish-page">
      <div className="page-head">
        <h1 tabIndex={-1}>{t('publish.title', { name: title })}</h1>
      </div>
      <p className="muted">{t('publish.intro')}</p>
      <TokenForm />
      {link && (
        <p className="muted small" data-testid="push-link">
          {t('publish.lastPushed')}{' '}
          <a href={link.page} target="_blank" rel="noreferrer noopener">
            {link.page}
          </a>
        </p>
      )}
      <RenameColumns resourceId={resourceId} />
      <form className="portal-form" onSubmit={submit}>
        <label htmlFor={`${id}-to`}>{t('publish.portal')}</label>
        <input id={`${id}-to`} type="url" required value={portal} onChange={(e) => setTo(e.target.value)} data-testid="publish-portal" />
        <label htmlFor={`${id}-token`}>{t('publish.tokenLabel')}</label>
        <input
          ref={tokenField}
          id={`${id}-token`}
          type="password"
          autoComplete="off"
          value={portalToken}
          aria-invalid={tokenMissing && !portalToken.trim() ? true : undefined}
          aria-describedby={(tokenMissing && !portalToken.trim()) || tokenRemembered ? `${id}-token-help` : undefined}
          onChange={(e) => setPortalToken(e.target.value)}
          data-testid="publish-token"
        />
        {tokenMissing && !portalToken.trim() ? (
          <p id={`${id}-token-help`} className="field-help field-problem" role="alert" data-testid="publish-token-needed">
            {t('publish.tokenNeeded')}
          </p>
        ) : tokenRemembered ? (
          <p id={`${id}-token-help`} className="field-help muted small">
            {t('publish.tokenRemembered')}
          </p>
        ) : null}
        <label htmlFor={`${id}-dataset`}>{t('publish.dataset')}</label>
        <input
          id={`${id}-dataset`}
          value={dataset}
          onChange={(e) => setDataset(e.target.value)}
          placeholder={t('publish.datasetDefault')}
        />
        <label htmlFor={`${id}-org`}>{t('publish.ownerOrg')}</label>
        <input id={`${id}-org`} value={ownerOrg} onChange={(e) => setOwnerOrg(e.target.value)} />
        <button
          type="submit"
          className="button button-primary"
          disabled={!token || (job !== null && job.status === 'running')}
          data-testid="publish-button"
        >
          {t('publish.push')}
        </button>
      </form>
      {error !== null && <ErrorNotice error={error} />}
      {job && <JobProgress job={job} />}
      {outcome && (
        <div className="notice notice-ok" role="status" data-testid="publish-done">
          <p>{t(`publish.status.${outcome.status}`, { rows: formatCount(outcome.rows, locale) })}</p>
          <p>
            <a href={outcome.url} target="_blank" rel="noreferrer noopener">
              {outcome.url}
            </a>
          </p>
          {outcome.renamed && outcome.renamed.length > 0 && (
            <>
              <p>{t('publish.renamed', { count: outcome.renamed.length })}</p>
              <ul data-testid="publish-renamed">
                {outcome.renamed.map((r) => (
                  <li key={r.from}>
                    “{r.from}” → “{r.to}”
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
