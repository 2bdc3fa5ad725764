import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportPreviewResult } from '../../../../shared/wire/import';
import { LabelledSelect } from '../../components/LabelledSelect';
import { MessageText } from '../../components/MessageText';
import { NumberInput } from '../../components/NumberInput';
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
      <LabelledSelect
        label={t('import.options.encoding')}
        value={preview.encoding.toLowerCase()}
        options={encodings.map((enc) => ({ value: enc.toLowerCase(), label: enc }))}
        onChange={(encoding) => onChange({ encoding })}
        testId="option-encoding"
      />
      <LabelledSelect
        label={t('import.options.delimiter')}
        value={delimiter}
        options={DELIMITERS.map((d) => ({ value: d, label: delimiterName(d, t) }))}
        onChange={(value) => onChange({ delimiter: value })}
        testId="option-delimiter"
      />
      <div className="option">
        <label htmlFor={`${id}-header`}>{t('import.options.headerLine')}</label>
        <NumberInput
          id={`${id}-header`}
          integer
          value={String(preview.skipLines + 1)}
          testId="option-header-line"
          onChange={(text) => {
            const line = text ? Number(text) : NaN;
            if (Number.isInteger(line) && line >= 1 && line <= 1000) onChange({ skipLines: line - 1 });
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
