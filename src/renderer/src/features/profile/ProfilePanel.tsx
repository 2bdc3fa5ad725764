import { useTranslation } from 'react-i18next';
import type { ColumnProfile, ProfileBucket, ProfileResult } from '../../../../shared/wire/profile';
import { call } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { LabelledSelect } from '../../components/LabelledSelect';
import { SidePanel } from '../../components/SidePanel';
import { formatCell } from '../../format/cell';
import { formatCount } from '../../format/number';
import { numberStyleOf } from '../../format/number-style';
import { useAsync } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from '../table/columns';
import { queryParams, type SearchShape } from '../table/view-state';
import { bucketLabel, formatStatistic } from './profile-format';

interface Props {
  readonly shape: SearchShape;
  readonly fields: readonly DatastoreField[];
  readonly field: string | null;
  readonly onField: (field: string) => void;
  readonly onClose: () => void;
}

/** Bars as a table: each row a label, a bar proportional to its count, and the count. */
function BarTable({
  caption,
  rows,
  testId,
}: {
  readonly caption: string;
  readonly rows: readonly { label: string; count: number }[];
  readonly testId: string;
}) {
  const locale = useLocale();
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <table className="bar-table" data-testid={testId}>
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <th scope="row" title={r.label}>
              {r.label}
            </th>
            <td className="bar-cell" aria-hidden="true">
              <span className="bar" style={{ width: `${(100 * r.count) / max}%` }} />
            </td>
            <td className="num">{formatCount(r.count, locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Statistics({ profile, field }: { readonly profile: ColumnProfile; readonly field: DatastoreField }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const style = numberStyleOf(
    field,
    profile.top.map((v) => v.value),
  );
  const stat = (v: number | string | null) => formatStatistic(v, field.type, locale, style);
  const items: [string, string][] = [
    [t('profile.values'), formatCount(profile.count, locale)],
    [t('profile.empty'), formatCount(profile.nulls, locale)],
    [t('profile.distinct'), formatCount(profile.distinct, locale)],
  ];
  if (profile.min !== null) items.push([t('profile.min'), stat(profile.min)], [t('profile.max'), stat(profile.max)]);
  if (profile.mean !== null) items.push([t('profile.mean'), stat(profile.mean)]);
  if (profile.median !== null) items.push([t('profile.median'), stat(profile.median)]);
  if (profile.min_length !== null) {
    items.push([
      t('profile.length'),
      t('profile.lengthRange', { min: formatCount(profile.min_length, locale), max: formatCount(profile.max_length ?? 0, locale) }),
    ]);
  }
  return (
    <dl className="stats profile-stats" data-testid="profile-stats">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What one column holds among the rows the table shows (search, filters and conditions):
 * counts, distinct values, range and centre, a histogram for numbers and dates, the most
 * frequent values. Computed by the server over all matching rows (deskstore_profile).
 */
export function ProfilePanel({ shape, fields, field, onField, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const columns = fields.filter((f) => f.id !== '_id');
  const target = columns.find((f) => f.id === field) ?? columns[0] ?? null;
  // `fields` as a list, so a column whose name has a comma stays one column.
  const params = target
    ? { resource_id: shape.resourceId, fields: [target.id], ...queryParams(shape, { withFields: false, withSort: false }) }
    : null;
  const profile = useAsync(JSON.stringify(params), (signal) =>
    params ? call('deskstore_profile', params, { signal }) : Promise.resolve<ProfileResult | null>(null),
  );
  const column = profile.data?.fields[0]?.id === target?.id ? profile.data?.fields[0] : undefined;
  const labels = { yes: t('common.yes'), no: t('common.no') };
  // the column's number style, as the grid shows it (identifiers without separators)
  const topStyle =
    column && target
      ? numberStyleOf(
          target,
          column.top.map((v) => v.value),
        )
      : undefined;
  return (
    <SidePanel title={t('profile.title')} testId="profile-panel" className="profile-panel" onClose={onClose}>
      <LabelledSelect
        label={t('profile.column')}
        value={target?.id ?? ''}
        options={columns.map((f) => ({ value: f.id, label: columnLabel(f) }))}
        onChange={onField}
        testId="profile-column"
      />
      <p className="muted small" role="status" aria-live="polite">
        {profile.data && column
          ? t('profile.over', { count: profile.data.rows, n: formatCount(profile.data.rows, locale) })
          : t('common.loading')}
      </p>
      {profile.error !== undefined && <ErrorNotice error={profile.error} onRetry={profile.reload} />}
      {column && target && (
        <div aria-busy={profile.loading}>
          <Statistics profile={column} field={target} />
          {column.histogram.length > 0 && (
            <BarTable
              caption={t('profile.histogram')}
              testId="profile-histogram"
              rows={column.histogram.map((b: ProfileBucket) => ({
                label: bucketLabel(b, column.histogram_unit, target.type, locale, topStyle),
                count: b.count,
              }))}
            />
          )}
          {column.top.length > 0 && (
            <BarTable
              caption={t('profile.top')}
              testId="profile-top"
              rows={column.top.map((v) => ({
                label: v.value === '' ? t('filter.empty') : formatCell(v.value, target.type, locale, labels, topStyle),
                count: v.count,
              }))}
            />
          )}
        </div>
      )}
    </SidePanel>
  );
}
