import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect } from '../../components/LabelledSelect';
import type { PackageDict } from '../../../../shared/wire/catalogue';

export type TargetChoice = { readonly mode: 'new'; readonly title: string } | { readonly mode: 'existing'; readonly packageId: string };

interface Props {
  readonly packages: readonly PackageDict[];
  readonly target: TargetChoice;
  readonly resourceName: string;
  readonly onTarget: (target: TargetChoice) => void;
  readonly onResourceName: (name: string) => void;
  readonly newTitle: string;
}

/** Where the imported table goes: a new dataset or an existing one, and its name. */
export function ImportTarget({ packages, target, resourceName, onTarget, onResourceName, newTitle }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset className="options target">
      <legend>{t('import.target.title')}</legend>
      <div className="radio-row">
        <input
          type="radio"
          id={`${id}-new`}
          name={`${id}-mode`}
          checked={target.mode === 'new'}
          onChange={() => onTarget({ mode: 'new', title: newTitle })}
        />
        <label htmlFor={`${id}-new`}>{t('import.target.newDataset')}</label>
        <input
          type="radio"
          id={`${id}-existing`}
          name={`${id}-mode`}
          checked={target.mode === 'existing'}
          disabled={packages.length === 0}
          onChange={() => onTarget({ mode: 'existing', packageId: packages[0]?.id ?? '' })}
        />
        <label htmlFor={`${id}-existing`}>{t('import.target.existingDataset')}</label>
      </div>
      {target.mode === 'new' ? (
        <div className="option">
          <label htmlFor={`${id}-title`}>{t('import.target.datasetTitle')}</label>
          <input
            id={`${id}-title`}
            type="text"
            value={target.title}
            required
            data-testid="dataset-title"
            onChange={(e) => onTarget({ mode: 'new', title: e.target.value })}
          />
        </div>
      ) : (
        <LabelledSelect
          label={t('import.target.dataset')}
          value={target.packageId}
          options={packages.map((p) => ({ value: p.id, label: p.title || p.name }))}
          onChange={(packageId) => onTarget({ mode: 'existing', packageId })}
        />
      )}
      <div className="option">
        <label htmlFor={`${id}-res`}>{t('import.target.resourceName')}</label>
        <input
          id={`${id}-res`}
          type="text"
          value={resourceName}
          required
          data-testid="resource-name"
          onChange={(e) => onResourceName(e.target.value)}
        />
      </div>
    </fieldset>
  );
}
