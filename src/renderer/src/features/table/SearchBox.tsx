import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  readonly value: string;
  readonly onCommit: (q: string) => void;
  /** The element that says what a search matches (SearchLanguageNote). */
  readonly helpId: string;
}

/** The table's global search: every word as a prefix, accents kept; sent after a pause. */
export function SearchBox({ value, onCommit, helpId }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);
  // The search may change from outside (clear all, back button): follow it.
  const [committed, setCommitted] = useState(value);
  if (committed !== value) {
    setCommitted(value);
    setText(value);
  }
  // Only typing restarts the pause; other changes of the view (a filter chosen meanwhile) do not.
  const commit = useRef(onCommit);
  useLayoutEffect(() => {
    commit.current = onCommit;
  });
  useEffect(() => {
    if (text === committed) return undefined;
    const timer = window.setTimeout(() => commit.current(text), 300);
    return () => window.clearTimeout(timer);
  }, [text, committed]);
  return (
    <div className="table-search">
      <label htmlFor={`${id}-q`}>{t('table.searchLabel')}</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        placeholder={t('table.searchPlaceholder')}
        data-testid="table-search"
        aria-describedby={helpId}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onCommit(text);
        }}
      />
    </div>
  );
}
