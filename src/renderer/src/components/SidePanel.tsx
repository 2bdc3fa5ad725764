import { useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  readonly title: string;
  readonly testId: string;
  readonly className?: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
}

/**
 * Where focus goes when a panel closes: back to what opened it (the element focused when the
 * panel appeared), if focus was inside the panel, so Escape or × does not drop the keyboard
 * user on <body>. A panel replaced by another one leaves focus where the user put it.
 */
function useReturnFocus(panel: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const element = panel.current;
    return () => {
      const active = document.activeElement;
      const focusWasInside = active === null || active === document.body || (element?.contains(active) ?? false);
      if (focusWasInside && opener?.isConnected) opener.focus();
    };
  }, [panel]);
}

/** The frame of the table page's side panels: a region named by its heading, a close button, Escape closes. */
export function SidePanel({ title, testId, className, onClose, children }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const panel = useRef<HTMLElement>(null);
  useReturnFocus(panel);
  return (
    <section
      ref={panel}
      className={className ? `side-panel ${className}` : 'side-panel'}
      aria-labelledby={`${id}-title`}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="side-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </section>
  );
}
