import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from './clipboard';

interface Props {
  readonly text: string;
  /** Names what is copied, for screen readers: "Copy the URL". */
  readonly label: string;
  readonly testId?: string;
  /** The button's visible words when "Copy" alone would not say what (default: "Copy"). */
  readonly caption?: string;
  readonly className?: string;
}

export function CopyButton({ text, label, testId, caption, className = 'button button-small' }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = window.setTimeout(() => setState('idle'), 2500);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <span className="copy">
      <button
        type="button"
        className={className}
        aria-label={label}
        data-testid={testId}
        onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
      >
        {caption ?? t('common.copy')}
      </button>
      <span className="copy-status" role="status">
        {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : ''}
      </span>
    </span>
  );
}
