import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeBaseUrl, portalHints } from '../../api/urls';
import type { ResourceDict } from '../../../../shared/wire/catalogue';
import { searchPairs, type SearchShape } from '../table/view-state';
import { ActionCall } from './ActionCall';
import { SnippetTabs } from './SnippetTabs';
import { actionUrl } from './snippets';
import { SidePanel } from '../../components/SidePanel';

/** Where the same call can be made: a mirror's portal (known), or the portal a resource URL points at (to confirm). */
interface PortalOrigin {
  readonly mirror: boolean;
  /** The portal's API base when Deskstore knows it (a mirror). */
  readonly known: string | null;
  /** A base to suggest when it is not known. */
  readonly suggested: string;
  readonly resourceId: string | null;
}

/**
 * A mirror keeps its portal and the same resource id; a resource whose URL is a file on
 * another site may come from a portal there; a local file (its URL is this server's own
 * download or dump address) makes no such claim.
 */
function portalOrigin(resource: ResourceDict | null, ownBase: string): PortalOrigin | null {
  if (!resource) return null;
  const mirror = resource.deskstore_mirror;
  if (mirror) return { mirror: true, known: mirror.portal, suggested: mirror.portal, resourceId: resource.id };
  if (resource.url_type === 'upload' || resource.url_type === 'datastore' || resource.url?.startsWith(`${ownBase}/`)) return null;
  const hints = portalHints(resource.url);
  return hints ? { mirror: false, known: null, suggested: hints.base, resourceId: hints.resourceId } : null;
}

interface Props {
  readonly shape: SearchShape;
  readonly resource: ResourceDict | null;
  readonly limit: number;
  readonly offset: number;
  readonly onClose: () => void;
}

/**
 * The current view as a datastore_search call: URL and code to copy, so what was found by
 * clicking can be fetched from a script. With the portal's address the same call can be
 * made against the CKAN site the file came from.
 */
export function ApiPanel({ shape, resource, limit, offset, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const pairs = searchPairs(shape, { limit, offset });
  const baseUrl = window.location.origin;
  const origin = portalOrigin(resource, baseUrl);
  const [portalInput, setPortalInput] = useState<string | null>(null);
  const [portalResource, setPortalResource] = useState<string | null>(null);
  const portalBase = normalizeBaseUrl(portalInput ?? origin?.known ?? '');
  const portalId = (portalResource ?? origin?.resourceId ?? '').trim();
  const portalPairs = searchPairs({ ...shape, resourceId: portalId || 'RESOURCE_ID' }, { limit, offset }, { forCkan: true });
  const usesExtensions = pairs.some(([name, value]) => name.startsWith('deskstore_') || value.includes('"deskstore_'));
  return (
    <SidePanel title={t('apiPanel.title')} testId="api-panel" className="api-panel" onClose={onClose}>
      <p className="small">{t('apiPanel.intro')}</p>
      <ActionCall action="datastore_search" pairs={pairs}>
        <p className="muted small">{t('apiPanel.paging', { limit, offset })}</p>
        {usesExtensions && (
          <p className="muted small" data-testid="api-extensions">
            {t('apiPanel.extensions')}
          </p>
        )}
      </ActionCall>
      {origin && (
        <section className="portal" aria-labelledby={`${id}-portal`} data-testid="api-portal">
          <h3 id={`${id}-portal`}>{t('apiPanel.portal.title')}</h3>
          <p className="small">
            {origin.mirror
              ? t('apiPanel.portal.mirrorIntro', { portal: origin.known ?? '' })
              : t('apiPanel.portal.intro', { url: resource?.url ?? '' })}
          </p>
          <label htmlFor={`${id}-portal-url`}>{t('apiPanel.portal.base')}</label>
          <input
            id={`${id}-portal-url`}
            type="url"
            value={portalInput ?? origin.known ?? ''}
            placeholder={origin.suggested}
            onChange={(e) => setPortalInput(e.target.value)}
          />
          <label htmlFor={`${id}-portal-id`}>{t('apiPanel.portal.resourceId')}</label>
          <input
            id={`${id}-portal-id`}
            type="text"
            value={portalResource ?? origin.resourceId ?? ''}
            onChange={(e) => setPortalResource(e.target.value)}
          />
          {portalBase ? (
            <>
              <pre className="code code-url" tabIndex={0} data-testid="api-portal-url">
                {actionUrl({ baseUrl: portalBase, action: 'datastore_search', pairs: portalPairs })}
              </pre>
              <SnippetTabs input={{ baseUrl: portalBase, action: 'datastore_search', pairs: portalPairs, token: null }} />
              <p className="muted small">{t('apiPanel.portal.note')}</p>
              {usesExtensions && <p className="muted small">{t('apiPanel.portal.extensions')}</p>}
            </>
          ) : (
            <p className="muted small">{t('apiPanel.portal.needBase')}</p>
          )}
        </section>
      )}
    </SidePanel>
  );
}
