/**
 * i18next with one JSON file per language, bundled (no fetching: the CSP allows it, but the
 * app must show its first screen without a round trip). `t` only formats words; numbers and
 * dates go through format/ with the current language.
 */
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import it from './it.json';
import { DEFAULT_LOCALE, LOCALES } from '../../../shared/locales';
import { moveToLocale, type Locale } from './locale';

const RESOURCES = { en: { translation: en }, it: { translation: it } } as const;

export async function setupI18n(locale: Locale): Promise<i18n> {
  await i18next.use(initReactI18next).init({
    resources: RESOURCES,
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  document.documentElement.lang = locale;
  return i18next;
}

/** Switches the UI language now and moves the URL to `/{locale}/`. */
export async function switchLanguage(locale: Locale): Promise<void> {
  moveToLocale(locale);
  await i18next.changeLanguage(locale);
}
