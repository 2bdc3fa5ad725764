import { useTranslation } from 'react-i18next';
import { LOCALES, LOCALE_NAMES as NAMES } from '../../../shared/locales';
import { switchLanguage } from '../i18n/setup';
import { useLocale } from '../hooks/use-locale';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const current = useLocale();
  return (
    <div className="language" role="group" aria-label={t('language.label')}>
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          lang={locale}
          className="language-option"
          aria-pressed={locale === current}
          data-testid={`language-${locale}`}
          onClick={() => void switchLanguage(locale)}
        >
          {NAMES[locale]}
        </button>
      ))}
    </div>
  );
}
