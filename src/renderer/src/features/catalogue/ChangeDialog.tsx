import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { resourceTitle } from './catalogue-filter';
import type { PendingChange } from './catalogue-changes';

interface Props {
  readonly change: PendingChange | null;
  readonly busy: boolean;
  readonly onChange: (change: PendingChange) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

const datasetName = (change: PendingChange): string => change.dataset.title || change.dataset.name;

/** The confirmation of a pending catalogue change: delete a resource (and its dataset, if last), delete or rename a dataset. */
export function ChangeDialog({ change: pending, busy, onChange, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const id = useId();
  // The last change stays on the dialog while it closes (its words must not vanish first); no
  // dialog exists before the first one, so no control without a name sits in the page.
  const [shown, setShown] = useState(pending);
  if (pending !== null && pending !== shown) setShown(pending);
  const change = pending ?? shown;
  if (change === null) return null;
  const open = pending !== null;
  let title: string;
  let confirmLabel: string;
  let body;
  if (change.kind === 'delete-resource') {
    const last = change.dataset.resources.length === 1;
    title = t('catalogue.deleteTitle');
    confirmLabel = t('catalogue.deleteConfirm');
    body = (
      <>
        <p>{t('catalogue.deleteText', { name: resourceTitle(change.resource) })}</p>
        {last && (
          <div className="checkbox-row">
            <input
              type="checkbox"
              id={`${id}-also`}
              checked={change.alsoDataset}
              data-testid="delete-also-dataset"
              onChange={(e) => onChange({ ...change, alsoDataset: e.target.checked })}
            />
            <label htmlFor={`${id}-also`}>{t('catalogue.deleteAlsoDataset', { name: datasetName(change) })}</label>
          </div>
        )}
      </>
    );
  } else if (change.kind === 'delete-dataset') {
    title = t('catalogue.deleteDatasetTitle');
    confirmLabel = t('catalogue.deleteConfirm');
    body = <p>{t('catalogue.deleteDatasetText', { name: datasetName(change), count: change.dataset.resources.length })}</p>;
  } else {
    title = t('catalogue.renameTitle');
    confirmLabel = t('catalogue.renameConfirm');
    body = (
      <div className="option">
        <label htmlFor={`${id}-title`}>{t('catalogue.renameLabel')}</label>
        <input
          id={`${id}-title`}
          type="text"
          value={change.title}
          required
          data-testid="rename-input"
          onChange={(e) => onChange({ ...change, title: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && change.title.trim()) onConfirm();
          }}
        />
        <p className="muted small">{t('catalogue.renameNote', { name: change.dataset.name })}</p>
      </div>
    );
  }
  const incomplete = change.kind === 'rename-dataset' && !change.title.trim();
  return (
    <ConfirmDialog
      open={open}
      danger={change.kind !== 'rename-dataset'}
      busy={busy || incomplete}
      title={title}
      confirmLabel={confirmLabel}
      onCancel={onCancel}
      onConfirm={onConfirm}
      testId="change-dialog"
    >
      {body}
    </ConfirmDialog>
  );
}
