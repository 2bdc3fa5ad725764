/** The UI and URL locales Deskstore offers; `/{locale}/api/...` is stripped for these only. */
export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Each language named in itself, so it can be found whichever language is on screen. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', it: 'Italiano' };

/** The locale segment of a UI path (`/it/#/import` → `it`), if it names one. */
export function localeFromPath(pathname: string): Locale | null {
  const first = pathname.split('/')[1] ?? '';
  return isLocale(first) ? first : null;
}

/** The first of these language tags (`de-DE`, `it-IT`, …: the browser's or the system's) that Deskstore offers. */
export function browserLocale(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return null;
}
