import { useTranslation } from 'react-i18next';
import type { ImportPreviewResult } from '../../../../shared/wire/import';
import { LabelledSelect } from '../../components/LabelledSelect';
import { formatBytes } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';

interface Props {
  readonly preview: ImportPreviewResult;
  readonly busy: boolean;
  readonly onSheet: (sheet: string) => void;
  readonly onEntry: (entry: string) => void;
}

/** Which file of a zip archive, and which sheet of a workbook, to import. */
export function SourcePicker({ preview, busy, onSheet, onEntry }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!preview.entries && !preview.sheets) return null;
  return (
    <fieldset className="options source-picker" aria-busy={busy}>
      <legend>{t('import.source.title')}</legend>
      {preview.entries && (
        <LabelledSelect
          label={t('import.source.entry')}
          value={preview.entry ?? ''}
          options={preview.entries.map((e) => ({
            value: e.name,
            disabled: e.format === null,
            label:
              e.format === null
                ? t('import.source.entryUnreadable', { name: e.name })
                : t('import.source.entryOption', { name: e.name, size: formatBytes(e.bytes, locale) }),
          }))}
          onChange={onEntry}
          testId="option-entry"
        />
      )}
      {preview.sheets && (
        <LabelledSelect
          label={t('import.source.sheet')}
          value={preview.sheet ?? ''}
          options={preview.sheets.map((s) => ({
            value: s.name,
            label: s.empty ? t('import.source.sheetEmpty', { name: s.name }) : s.name,
          }))}
          onChange={onSheet}
          testId="option-sheet"
        />
      )}
    </fieldset>
  );
}
