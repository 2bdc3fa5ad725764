import { useTranslation } from 'react-i18next';
import { LabelledSelect } from '../../components/LabelledSelect';
import { type TextSearchLanguage } from '../../../../shared/text-search-languages';

interface Props {
  readonly value: TextSearchLanguage;
  /** What the data looks like (shown as a hint when it is not English). */
  readonly suggested: TextSearchLanguage;
  readonly onChange: (language: TextSearchLanguage) => void;
}

/** In the order offered: CKAN's default first. */
const CHOICES: readonly TextSearchLanguage[] = ['english', 'italian', 'simple'];

/**
 * The full-text language of the new table: which word forms a search finds (in Italian,
 * `comuni` finds `comune`). English is CKAN's default, kept by datastore_create; Italian is
 * suggested when the data looks Italian.
 */
export function SearchLanguageChoice({ value, suggested, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <fieldset className="options search-language">
      <legend>{t('import.language.title')}</legend>
      <LabelledSelect
        label={t('import.language.label')}
        value={value}
        options={CHOICES.map((language) => ({ value: language, label: t(`import.language.choice.${language}`) }))}
        onChange={onChange}
        testId="search-language-select"
      />
      <p className="muted small" data-testid="search-language-hint">
        {suggested !== 'english'
          ? t('import.language.suggested', { language: t(`searchLanguage.${suggested}`) })
          : t('import.language.help')}
      </p>
    </fieldset>
  );
}
