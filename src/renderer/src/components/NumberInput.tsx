import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTypedNumber, parseLocaleNumber, type NumberReading } from '../format/parse-number';
import { useLocale } from '../hooks/use-locale';

interface Props {
  /** The number as exact decimal text (`1234.5`), or '' for none. */
  readonly value: string;
  /** A number read from what was typed, '' when the field is emptied, null when it cannot be read. */
  readonly onChange: (value: string | null) => void;
  /** Whole numbers only (a line number, a count of columns). */
  readonly integer?: boolean;
  readonly id?: string;
  /** For a field without a visible label. */
  readonly ariaLabel?: string;
  readonly testId?: string;
  readonly className?: string;
}

/**
 * A number typed as the UI's language writes it (format/parse-number.ts), not as the browser's
 * locale would (`type="number"` does that): `1,9` in Italian, `1.9` in English. What cannot be
 * read, or could be read two ways, is said under the field and never passed on.
 */
export function NumberInput({ value, onChange, integer = false, id, ariaLabel, testId, className }: Props) {
  const locale = useLocale();
  const ownId = useId();
  const inputId = id ?? `${ownId}-n`;
  const problemId = `${ownId}-problem`;
  const [text, setText] = useState(() => (value ? formatTypedNumber(value, locale) : ''));
  // A value from outside (a reset, Back, another language) replaces the text; the value this
  // field passed on (or '' for what it could not read) leaves the text as typed.
  const [shownFor, setShownFor] = useState({ value, locale });
  if (shownFor.value !== value || shownFor.locale !== locale) {
    setShownFor({ value, locale });
    const current = parseLocaleNumber(text, shownFor.locale, { integer });
    const agrees = current.kind === 'number' ? current.value === value : value === '';
    if (!agrees || shownFor.locale !== locale) setText(value ? formatTypedNumber(value, locale) : '');
  }
  const reading: NumberReading = parseLocaleNumber(text, locale, { integer });
  const problem = reading.kind === 'invalid' ? reading : null;
  return (
    <span className={className ? `number-input ${className}` : 'number-input'}>
      <input
        id={inputId}
        type="text"
        inputMode={integer ? 'numeric' : 'decimal'}
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-label={ariaLabel}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        data-testid={testId}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          const read = parseLocaleNumber(next, locale, { integer });
          onChange(read.kind === 'number' ? read.value : read.kind === 'empty' ? '' : null);
        }}
      />
      {problem && <NumberProblemNote id={problemId} reading={problem} text={text} integer={integer} />}
    </span>
  );
}

/** Why typed text is not a number here, and how to write it (the message under a number field). */
export function NumberProblemNote({
  id,
  reading,
  text,
  integer = false,
}: {
  readonly id: string;
  readonly reading: Extract<NumberReading, { kind: 'invalid' }>;
  readonly text: string;
  readonly integer?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <span id={id} className="field-problem" role="alert" data-testid="number-problem">
      {t(`number.problem.${reading.problem}`, {
        text: text.trim(),
        first: reading.readings[0] ?? '',
        second: reading.readings[1] ?? '',
        example: formatTypedNumber(integer ? '1234' : '1234.5', locale),
      })}
    </span>
  );
}
