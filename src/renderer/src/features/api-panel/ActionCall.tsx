import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParamPairs } from '../../api/urls';
import { hasNativeBridge } from '../../bridge';
import { CopyButton } from '../../components/CopyButton';
import { useToken } from '../../hooks/use-token';
import { SnippetTabs } from './SnippetTabs';
import { actionUrl } from './snippets';

interface Props {
  readonly action: string;
  readonly pairs: ParamPairs;
  /** Notes shown under the parameters (paging, Deskstore's extensions). */
  readonly children?: ReactNode;
}

/**
 * One action call on this server, ready to copy: its URL (and a link to open it in a
 * browser), its parameters, and the same call as code. The write token goes into the code
 * only when asked: a copied snippet cannot leak it by default, and reads need none.
 */
export function ActionCall({ action, pairs, children }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const token = useToken();
  const [withToken, setWithToken] = useState(false);
  const baseUrl = window.location.origin;
  const url = actionUrl({ baseUrl, action, pairs });
  return (
    <>
      <div className="heading-row">
        <h3 id={`${id}-url`}>{t('apiPanel.url')}</h3>
        <CopyButton text={url} label={t('apiPanel.copyUrl')} testId="copy-api-url" />
        {!hasNativeBridge() && (
          <a className="button button-small" href={url} target="_blank" rel="noreferrer">
            {t('apiPanel.open')}
          </a>
        )}
      </div>
      <pre className="code code-url" aria-labelledby={`${id}-url`} data-testid="api-url" tabIndex={0}>
        {url}
      </pre>
      <dl className="params" aria-label={t('apiPanel.params')} data-testid="api-params">
        {pairs.map(([name, value], i) => (
          <div key={`${name}-${i}`}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {children}
      {token && (
        <div className="checkbox-row">
          <input type="checkbox" id={`${id}-token`} checked={withToken} onChange={(e) => setWithToken(e.target.checked)} />
          <label htmlFor={`${id}-token`}>{t('apiPanel.includeToken')}</label>
        </div>
      )}
      <SnippetTabs input={{ baseUrl, action, pairs, token: token && withToken ? token : null }} />
    </>
  );
}
