import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell } from '../../format/cell';
import { formatCount } from '../../format/number';
import { numberStyleOf } from '../../format/number-style';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { hrefFor, resourcePath, rowPath } from '../../router';
import { resourceTitle } from '../catalogue/catalogue-filter';
import { typeKey } from '../import/type-names';
import { columnLabel } from '../table/columns';
import { rowAsTsv } from '../table/tsv';

interface Props {
  readonly resourceId: string;
  readonly rowId: number;
  /** The table's view (search, filters…) to go back to. */
  readonly back: URLSearchParams;
}

/** A value as copied: JSON for structures, the raw text otherwise (not the formatted one). */
function rawText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * One record with all its fields, on a page of its own (`#/resource/<id>/row/<_id>`): long
 * text wrapped and selectable, each value copyable as stored, the whole row as TSV or JSON.
 */
export function RowPage({ resourceId, rowId, back }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const row = useAsync(`row:${resourceId}:${rowId}`, async (signal) => {
    const [resource, result] = await Promise.all([
      call('resource_show', { id: resourceId }, { signal }),
      call('datastore_search', { resource_id: resourceId, filters: { _id: rowId } }, { signal }),
    ]);
    return { resource, fields: result.fields, record: result.records[0] ?? null };
  });
  const title = row.data ? resourceTitle(row.data.resource) : '';
  useDocumentTitle(t('row.documentTitle', { n: rowId, name: title || t('table.title') }));
  const backHref = hrefFor(resourcePath(resourceId), back);
  const labels = { yes: t('common.yes'), no: t('common.no') };

  if (row.error !== undefined) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>{t('row.title', { n: formatCount(rowId, locale) })}</h1>
        <ErrorNotice error={row.error} onRetry={row.reload} />
        <a href={backHref}>{t('row.back')}</a>
      </div>
    );
  }
  if (!row.data)
    return (
      <div className="page" role="status">
        {t('common.loading')}
      </div>
    );
  const { record, fields } = row.data;
  const userFields = fields.filter((f) => f.id !== '_id');
  return (
    <div className="page row-page" data-testid="row-page">
      <nav aria-label={t('table.breadcrumb')} className="breadcrumb">
        <a href="#/">{t('nav.catalogue')}</a>
        <span aria-hidden="true"> › </span>
        <a href={backHref} data-testid="row-back">
          {title}
        </a>
      </nav>
      <h1 tabIndex={-1}>{t('row.title', { n: formatCount(rowId, locale) })}</h1>
      {record === null ? (
        <p className="notice" role="status">
          {t('row.missing')}
        </p>
      ) : (
        <>
          <div className="button-row">
            <a
              className="button button-small"
              href={`#${rowPath(resourceId, Math.max(1, rowId - 1))}?${back.toString()}`}
              aria-disabled={rowId <= 1}
              data-testid="row-previous"
            >
              {t('row.previous')}
            </a>
            <a className="button button-small" href={`#${rowPath(resourceId, rowId + 1)}?${back.toString()}`} data-testid="row-next">
              {t('row.next')}
            </a>
            <CopyButton
              text={rowAsTsv(
                userFields.map((f) => f.id),
                record,
              )}
              label={t('row.copyTsv')}
              caption={t('row.copyTsv')}
              testId="row-copy-tsv"
            />
            <CopyButton
              text={JSON.stringify(record, null, 2)}
              label={t('row.copyJson')}
              caption={t('row.copyJson')}
              testId="row-copy-json"
            />
          </div>
          <dl className="record" data-testid="record">
            {userFields.map((field) => {
              const value = record[field.id];
              const label = columnLabel(field);
              const empty = value === null || value === undefined || value === '';
              return (
                <div key={field.id} className="record-field" data-field={field.id}>
                  <dt>
                    <span className="record-label">{label}</span>
                    {label !== field.id && <span className="record-id">{field.id}</span>}
                    <span className="type-badge">{t(typeKey(field.type))}</span>
                  </dt>
                  <dd>
                    <span className={`record-value${empty ? ' muted' : ''}`}>
                      {empty ? t('filter.empty') : formatCell(value, field.type, locale, labels, numberStyleOf(field, [value]))}
                    </span>
                    {!empty && <CopyButton text={rawText(value)} label={t('row.copyValue', { column: label })} />}
                  </dd>
                </div>
              );
            })}
          </dl>
        </>
      )}
    </div>
  );
}
