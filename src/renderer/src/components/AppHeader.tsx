import { useTranslation } from 'react-i18next';
import { useToken } from '../hooks/use-token';
import { useRoute } from '../router';
import { LanguageSwitcher } from './LanguageSwitcher';

export function AppHeader() {
  const { t } = useTranslation();
  const route = useRoute();
  const token = useToken();
  const section = route.segments[0] ?? '';
  const current = (name: string) => (section === name ? ('page' as const) : undefined);
  return (
    <header className="app-header">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('nav.skip')}
      </a>
      <a className="brand" href="#/">
        Deskstore
      </a>
      <nav aria-label={t('nav.label')}>
        <ul className="nav-list">
          <li>
            <a href="#/" aria-current={section === '' || section === 'resource' ? 'page' : undefined}>
              {t('nav.catalogue')}
            </a>
          </li>
          <li>
            <a href="#/import" aria-current={current('import')}>
              {t('nav.import')}
            </a>
          </li>
          <li>
            <a href="#/portal" aria-current={current('portal')}>
              {t('nav.portal')}
            </a>
          </li>
        </ul>
      </nav>
      <span className={token ? 'mode-badge mode-write' : 'mode-badge mode-read'} data-testid="mode-badge">
        {token ? t('token.canWrite') : t('token.readOnly')}
      </span>
      <LanguageSwitcher />
    </header>
  );
}
