import { useTranslation } from 'react-i18next';
import type { ResourceDict } from '../../../../shared/wire/catalogue';
import { formatInstant } from '../../format/date';
import { formatBytes, formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { delimiterName } from '../../components/delimiter-name';
import { resourceTitle } from './catalogue-filter';
import { hrefFor, importPath, publishPath, resourcePath } from '../../router';

interface Props {
  readonly resource: ResourceDict;
  readonly canWrite: boolean;
  /** The import screen set to replace this resource's data. */
  readonly replaceHref: string;
  readonly onDelete: () => void;
}

export function ResourceRow({ resource, canWrite, replaceHref, onDelete }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const info = resource.deskstore;
  const source = info?.source ?? null;
  const title = resourceTitle(resource);
  const bytes = info?.bytes ?? resource.size ?? null;
  return (
    <tr data-testid="resource-row" data-resource-id={resource.id}>
      <th scope="row">
        {resource.datastore_active ? <a href={hrefFor(resourcePath(resource.id))}>{title}</a> : <span>{title}</span>}
        {!resource.datastore_active && (
          <span className="badge badge-warn">
            <a href={hrefFor(importPath(resource.id))}>{t('catalogue.notLoaded')}</a>
          </span>
        )}
      </th>
      {/* data-label: the column's name, shown beside the value where the table is stacked (narrow windows) */}
      <td className="num" data-label={t('catalogue.col.rows')}>
        {info?.rows !== undefined ? formatCount(info.rows, locale) : '–'}
      </td>
      <td className="num" data-label={t('catalogue.col.columns')}>
        {info?.columns !== undefined ? formatCount(info.columns, locale) : '–'}
      </td>
      <td className="num" data-label={t('catalogue.col.size')}>
        {bytes !== null ? formatBytes(bytes, locale) : '–'}
      </td>
      <td data-label={t('catalogue.col.source')}>
        {source ? (
          <>
            <span className="file-name">{source.file}</span>
            <span className="muted small">{`${formatBytes(source.bytes, locale)} · ${source.encoding} · ${delimiterName(source.delimiter, t)}`}</span>
          </>
        ) : (
          (resource.url ?? '–')
        )}
      </td>
      <td className="nowrap" data-label={t('catalogue.col.imported')}>
        {source ? formatInstant(source.importedAt, locale) : formatInstant(resource.created, locale)}
      </td>
      <td className="actions">
        {resource.datastore_active && (
          <a
            className="button button-small"
            href={hrefFor(resourcePath(resource.id))}
            aria-label={t('catalogue.openNamed', { name: title })}
          >
            {t('catalogue.open')}
          </a>
        )}
        {resource.datastore_active && (
          <a
            className="button button-small"
            href={hrefFor(publishPath(resource.id))}
            aria-label={t('catalogue.publishNamed', { name: title })}
          >
            {t('catalogue.publish')}
          </a>
        )}
        {canWrite ? (
          <a
            className="button button-small"
            href={replaceHref}
            aria-label={t('catalogue.replaceNamed', { name: title })}
            data-testid="replace-data"
          >
            {t('catalogue.replace')}
          </a>
        ) : (
          <button type="button" className="button button-small" disabled title={t('token.needed')}>
            {t('catalogue.replace')}
          </button>
        )}
        <button
          type="button"
          className="button button-small button-danger-outline"
          disabled={!canWrite}
          title={canWrite ? undefined : t('token.needed')}
          aria-label={t('catalogue.deleteNamed', { name: title })}
          onClick={onDelete}
        >
          {t('catalogue.delete')}
        </button>
      </td>
    </tr>
  );
}
