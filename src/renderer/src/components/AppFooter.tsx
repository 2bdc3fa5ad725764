import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { setToken } from '../api/token';
import { hasNativeBridge, revealDataFolder } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { useToken } from '../hooks/use-token';

export function AppFooter() {
  const { t } = useTranslation();
  const token = useToken();
  const status = useAsync('status', (signal) => call('status_show', {}, { signal }));
  return (
    <footer className="app-footer">
      <span>
        {status.data
          ? t('footer.version', { version: status.data.deskstore_version ?? '?', ckan: status.data.ckan_version ?? '?' })
          : 'Deskstore'}
      </span>
      {/* the desktop window opens no second window: the API is for scripts there */}
      {!hasNativeBridge() && (
        <a href="/api/3/action/status_show" target="_blank" rel="noreferrer">
          {t('footer.apiRoot')}
        </a>
      )}
      {hasNativeBridge() && (
        <button type="button" className="link-button" onClick={() => void revealDataFolder()}>
          {t('footer.revealData')}
        </button>
      )}
      {token && (
        <button type="button" className="link-button" onClick={() => setToken(null)}>
          {t('token.forget')}
        </button>
      )}
    </footer>
  );
}
