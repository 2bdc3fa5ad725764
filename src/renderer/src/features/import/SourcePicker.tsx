import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportPreviewResult } from '../../../../shared/wire/import';
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
  const id = useId();
  if (!preview.entries && !preview.sheets) return null;
  return (
    <fieldset className="options source-picker" aria-busy={busy}>
      <legend>{t('import.source.title')}</legend>
      {preview.entries && (
        <div className="option">
          <label htmlFor={`${id}-entry`}>{t('import.source.entry')}</label>
          <select id={`${id}-entry`} value={preview.entry ?? ''} data-testid="option-entry" onChange={(e) => onEntry(e.target.value)}>
            {preview.entries.map((e) => (
              <option key={e.name} value={e.name} disabled={e.format === null}>
                {e.format === null
                  ? t('import.source.entryUnreadable', { name: e.name })
                  : t('import.source.entryOption', { name: e.name, size: formatBytes(e.bytes, locale) })}
              </option>
            ))}
          </select>
        </div>
      )}
      {preview.sheets && (
        <div className="option">
          <label htmlFor={`${id}-sheet`}>{t('import.source.sheet')}</label>
          <select id={`${id}-sheet`} value={preview.sheet ?? ''} data-testid="option-sheet" onChange={(e) => onSheet(e.target.value)}>
            {preview.sheets.map((s) => (
              <option key={s.name} value={s.name}>
                {s.empty ? t('import.source.sheetEmpty', { name: s.name }) : s.name}
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}
