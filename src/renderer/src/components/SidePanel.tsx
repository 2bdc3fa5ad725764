import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  readonly title: string;
  readonly testId: string;
  readonly className?: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
}

/** The frame of the table page's side panels: a region named by its heading, a close button, Escape closes. */
export function SidePanel({ title, testId, className, onClose, children }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className={className ? `side-panel ${className}` : 'side-panel'} aria-labelledby={`${id}-title`} data-testid={testId}
      onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }}>
      <div className="side-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>×</button>
      </div>
      {children}
    </section>
  );
}
