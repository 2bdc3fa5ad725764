import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../shared/locales';
import { switchLanguage } from '../i18n/setup';
import { useLocale } from '../hooks/use-locale';

/** Each language named in itself, so it can be found whichever language is on screen. */
const NAMES: Record<Locale, string> = { en: 'English', it: 'Italiano' };

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const current = useLocale();
  return (
    <div className="language" role="group" aria-label={t('language.label')}>
      {LOCALES.map((locale) => (
        <button key={locale} type="button" lang={locale} className="language-option" aria-pressed={locale === current}
          data-testid={`language-${locale}`} onClick={() => void switchLanguage(locale)}>
          {NAMES[locale]}
        </button>
      ))}
    </div>
  );
}
