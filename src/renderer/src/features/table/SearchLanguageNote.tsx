import { useTranslation } from 'react-i18next';
import { isTextSearchLanguage } from '../../../../shared/text-search-languages';
import type { ResourceDict } from '../../../../shared/wire/catalogue';

/**
 * Which full-text language the resource was indexed in, and what a search therefore matches:
 * the word forms of that language (so an English table does not find `ingegneri` for
 * `ingegnere`), or word beginnings. The search box is described by the help (`helpId`).
 */
export function SearchLanguageNote({ resource, helpId }: { readonly resource: ResourceDict; readonly helpId: string }) {
  const { t } = useTranslation();
  const stored = resource.deskstore?.searchLanguage;
  // a table from before the language was stored was indexed in CKAN's default, English
  const language = isTextSearchLanguage(stored) ? stored : 'english';
  return (
    <p className="muted small search-note">
      {isTextSearchLanguage(stored) && (
        <span data-testid="search-language">{t('table.searchLanguage', { language: t(`searchLanguage.${stored}`) })}</span>
      )}
      {isTextSearchLanguage(stored) && ' · '}
      <span id={helpId} data-testid="search-help">
        {t(`table.searchHelp.${language}`)}
      </span>
    </p>
  );
}
