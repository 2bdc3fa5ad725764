import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  readonly open: boolean;
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  /** Confirm is disabled (working, or the form inside is not complete). */
  readonly busy?: boolean;
  readonly testId?: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** A modal `<dialog>`: focus is trapped by the browser, Escape cancels, focus returns after. */
export function ConfirmDialog({ open, title, children, confirmLabel, danger, busy, testId, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={danger ? 'button button-danger' : 'button button-primary'}
          disabled={busy}
          onClick={onConfirm}
          data-testid="dialog-confirm"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
