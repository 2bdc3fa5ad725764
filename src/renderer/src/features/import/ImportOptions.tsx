import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportPreviewResult } from '../../../../shared/wire/import';
import { MessageText } from '../../components/MessageText';
import { delimiterName } from '../../components/delimiter-name';
import { formatPercent } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { DELIMITERS, ENCODINGS } from './type-names';
import { delimiterParam } from '../../../../shared/delimiters';
import type { Overrides } from './use-import-preview';

interface Props {
  readonly preview: ImportPreviewResult;
  readonly busy: boolean;
  readonly onChange: (patch: Partial<Overrides>) => void;
}

/** Encoding, delimiter and header line: detected values shown, each one changeable. */
export function ImportOptions({ preview, busy, onChange }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const encodings = ENCODINGS.includes(preview.encoding.toLowerCase()) ? ENCODINGS : [preview.encoding, ...ENCODINGS];
  const delimiter = delimiterParam(preview.delimiter);
  return (
    <fieldset className="options" aria-busy={busy}>
      <legend>{t('import.options.title')}</legend>
      <div className="option">
        <label htmlFor={`${id}-enc`}>{t('import.options.encoding')}</label>
        <select
          id={`${id}-enc`}
          value={preview.encoding.toLowerCase()}
          data-testid="option-encoding"
          onChange={(e) => onChange({ encoding: e.target.value })}
        >
          {encodings.map((enc) => (
            <option key={enc} value={enc.toLowerCase()}>
              {enc}
            </option>
          ))}
        </select>
      </div>
      <div className="option">
        <label htmlFor={`${id}-delim`}>{t('import.options.delimiter')}</label>
        <select
          id={`${id}-delim`}
          value={delimiter}
          data-testid="option-delimiter"
          onChange={(e) => onChange({ delimiter: e.target.value })}
        >
          {DELIMITERS.map((d) => (
            <option key={d} value={d}>
              {delimiterName(d, t)}
            </option>
          ))}
        </select>
      </div>
      <div className="option">
        <label htmlFor={`${id}-header`}>{t('import.options.headerLine')}</label>
        <input
          id={`${id}-header`}
          type="number"
          min={1}
          max={1000}
          step={1}
          value={preview.skipLines + 1}
          data-testid="option-header-line"
          onChange={(e) => {
            const line = Number.parseInt(e.target.value, 10);
            if (Number.isFinite(line) && line >= 1) onChange({ skipLines: line - 1 });
          }}
        />
      </div>
      <details className="option-reasons">
        <summary>{t('import.options.why', { confidence: formatPercent(preview.confidence, locale) })}</summary>
        <ul>
          {preview.reasons.map((reason, i) => (
            <MessageText key={i} as="li" message={reason} />
          ))}
        </ul>
      </details>
    </fieldset>
  );
}
