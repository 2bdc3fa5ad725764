import { useTranslation } from 'react-i18next';
import { isTextSearchLanguage } from '../../../../shared/text-search-languages';
import type { ResourceDict } from '../../../../shared/wire/catalogue';

/** Which full-text language the resource was indexed in: it decides which word forms `q` matches. */
export function SearchLanguageNote({ resource }: { readonly resource: ResourceDict }) {
  const { t } = useTranslation();
  const language = resource.deskstore?.searchLanguage;
  if (!isTextSearchLanguage(language)) return null;
  return (
    <p className="muted small" data-testid="search-language">
      {t('table.searchLanguage', { language: t(`searchLanguage.${language}`) })}
    </p>
  );
}
