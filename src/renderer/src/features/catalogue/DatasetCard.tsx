import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PackageDict, ResourceDict } from '../../../../shared/wire/catalogue';
import { replaceHref } from '../../router';
import { deleteResourceChange, type PendingChange } from './catalogue-changes';
import { ResourceRow } from './ResourceRow';

interface Props {
  readonly dataset: PackageDict;
  /** The resources to list (the catalogue search may narrow them). */
  readonly resources: readonly ResourceDict[];
  readonly canWrite: boolean;
  readonly onChange: (change: PendingChange) => void;
  /** Where the dataset came from, when it mirrors a portal (features/portal). */
  readonly mirrorInfo?: ReactNode;
}

/** One dataset of the catalogue: its resources, and rename/delete for it, replace/delete for each resource. */
export function DatasetCard({ dataset, resources, canWrite, onChange, mirrorInfo }: Props) {
  const { t } = useTranslation();
  const name = dataset.title || dataset.name;
  const needsToken = canWrite ? undefined : t('token.needed');
  return (
    <section className="dataset" aria-labelledby={`ds-${dataset.id}`} data-testid="dataset" data-dataset-id={dataset.id}>
      <div className="dataset-head">
        <h2 id={`ds-${dataset.id}`}>{name}</h2>
        <div className="dataset-actions">
          <button
            type="button"
            className="button button-small"
            disabled={!canWrite}
            title={needsToken}
            data-testid="rename-dataset"
            aria-label={t('catalogue.renameNamed', { name })}
            onClick={() => onChange({ kind: 'rename-dataset', dataset, title: name })}
          >
            {t('catalogue.rename')}
          </button>
          <button
            type="button"
            className="button button-small button-danger-outline"
            disabled={!canWrite}
            title={needsToken}
            data-testid="delete-dataset"
            aria-label={t('catalogue.deleteDatasetNamed', { name })}
            onClick={() => onChange({ kind: 'delete-dataset', dataset })}
          >
            {t('catalogue.deleteDataset')}
          </button>
        </div>
      </div>
      <p className="muted small">
        <code>{dataset.name}</code>
        {dataset.notes ? ` · ${dataset.notes}` : ''}
      </p>
      {mirrorInfo}
      {resources.length === 0 ? (
        <p className="muted">{t('catalogue.noResources')}</p>
      ) : (
        <div className="table-wrap">
          <table className="resources">
            <caption className="visually-hidden">{t('catalogue.resourcesOf', { name })}</caption>
            <thead>
              <tr>
                <th scope="col" className="c-name">
                  {t('catalogue.col.name')}
                </th>
                <th scope="col" className="num c-rows">
                  {t('catalogue.col.rows')}
                </th>
                <th scope="col" className="num c-cols">
                  {t('catalogue.col.columns')}
                </th>
                <th scope="col" className="num c-size">
                  {t('catalogue.col.size')}
                </th>
                <th scope="col" className="c-source">
                  {t('catalogue.col.source')}
                </th>
                <th scope="col" className="c-date">
                  {t('catalogue.col.imported')}
                </th>
                <th scope="col" className="c-actions">
                  <span className="visually-hidden">{t('catalogue.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {resources.map((r) => (
                <ResourceRow
                  key={r.id}
                  resource={r}
                  canWrite={canWrite}
                  replaceHref={replaceHref(r.id)}
                  onDelete={() => onChange(deleteResourceChange(r, dataset))}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
