/**
 * The UI language lives in the URL (`/en/`, `/it/`): the server serves the same app under
 * each locale (and at `/`), so switching is a history entry rewrite, with no reload that
 * would lose an import in progress. The last language used is remembered in localStorage
 * and chosen when the app is opened at `/`.
 */
import { DEFAULT_LOCALE, browserLocale, isLocale, localeFromPath, type Locale } from '../../../shared/locales';

const STORAGE_KEY = 'deskstore.locale';

export function rememberedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // storage disabled: the URL still carries the language
  }
}

/** Path with its locale segment replaced or added: `/en/x` → `/it/x`, `/` → `/it/`. */
export function pathForLocale(pathname: string, locale: Locale): string {
  const current = localeFromPath(pathname);
  if (current) return `/${locale}${pathname.slice(current.length + 1) || '/'}`;
  return `/${locale}/`;
}

/**
 * The locale to start with: the URL's; at `/`, the remembered one, else the browser's. The
 * address bar is moved to `/{locale}/` keeping the fragment (the client route).
 */
export function resolveStartLocale(): Locale {
  const fromPath = localeFromPath(window.location.pathname);
  const locale = fromPath ?? rememberedLocale() ?? browserLocale(navigator.languages ?? [navigator.language]) ?? DEFAULT_LOCALE;
  if (!fromPath) {
    window.history.replaceState(
      window.history.state,
      '',
      `${pathForLocale(window.location.pathname, locale)}${window.location.search}${window.location.hash}`,
    );
  }
  rememberLocale(locale);
  return locale;
}

/** Moves the address bar to the other locale path, keeping the fragment; no reload. */
export function moveToLocale(locale: Locale): void {
  rememberLocale(locale);
  const { pathname, search, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathForLocale(pathname, locale)}${search}${hash}`);
  document.documentElement.lang = locale;
}

export { type Locale };
