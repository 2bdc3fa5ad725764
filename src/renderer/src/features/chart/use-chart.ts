import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateBucket, GroupByMetric, GroupByResult, GroupKey } from '../../../../shared/wire/group-by';
import type { DatastoreField } from '../../../../shared/wire/search';
import { call } from '../../api/client';
import type { ActionParams } from '../../../../shared/wire/actions';
import { formatCell, isDateType, isNumericType } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { useAsync, type AsyncResult } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from '../table/columns';
import { queryParams, type SearchShape } from '../table/view-state';

const groupable = (f: DatastoreField) => f.id !== '_id' && !f.type.startsWith('_') && f.type !== 'json';
const measurable = (f: DatastoreField) => isNumericType(f.type) || isDateType(f.type);

/** The first column that groups well: a text column of few values is the usual pick. */
function defaultGroup(fields: readonly DatastoreField[]): string {
  return (fields.find((f) => groupable(f) && f.type === 'text') ?? fields.find(groupable))?.id ?? '';
}

/** The first number column that is a measure, not an identifier or a code (`prezzo`, not `idImpianto`). */
function defaultValueField(fields: readonly DatastoreField[]): string {
  const numbers = fields.filter((f) => f.id !== '_id' && isNumericType(f.type));
  return (numbers.find((f) => numberStyleOf(f, []).grouping) ?? numbers[0])?.id ?? '';
}

export interface ChartState {
  /** Columns a chart can group by. */
  readonly columns: readonly DatastoreField[];
  readonly group: string;
  readonly setGroup: (id: string) => void;
  readonly second: string;
  readonly setSecond: (id: string) => void;
  /** The group column holds dates: a calendar bucket may be chosen. */
  readonly dated: boolean;
  readonly bucket: DateBucket | '';
  readonly setBucket: (bucket: DateBucket | '') => void;
  readonly metric: GroupByMetric;
  readonly setMetric: (metric: GroupByMetric) => void;
  /** Columns the metric can be computed over. */
  readonly valueFields: readonly DatastoreField[];
  readonly value: string;
  readonly setValue: (id: string) => void;
  /** Everything needed for a request is chosen. */
  readonly ready: boolean;
  readonly result: AsyncResult<GroupByResult | null>;
  /** The last answer, unless the last request failed: no figures of another question stay on screen. */
  readonly data: GroupByResult | null | undefined;
  /** What the answer shows (`Mean of prezzo`): its own metric and column, not the controls'. */
  readonly metricLabel: string;
  readonly labelOf: (fieldId: string | null | undefined) => string;
  readonly typeOf: (fieldId: string | null | undefined) => string;
  /** A group's key as the table and the chart show it. */
  readonly keyText: (key: GroupKey, fieldId: string | undefined) => string;
}

/**
 * What the chart view asks (group column, calendar bucket, second column, metric and its
 * column) and the server's group-by of the rows the table shows, with the labels both the
 * chart and its table use.
 */
export function useChart(shape: SearchShape, fields: readonly DatastoreField[]): ChartState {
  const { t } = useTranslation();
  const locale = useLocale();
  const columns = fields.filter(groupable);
  const [group, setGroup] = useState(() => defaultGroup(fields));
  const [second, setSecond] = useState('');
  const [bucket, setBucket] = useState<DateBucket | ''>('');
  const [metric, setMetric] = useState<GroupByMetric>('count');
  const [valueField, setValue] = useState(() => defaultValueField(fields));
  const groupField = fields.find((f) => f.id === group);
  const valueFields = fields.filter(
    (f) => f.id !== '_id' && (metric === 'sum' || metric === 'mean' ? isNumericType(f.type) : measurable(f)),
  );
  const value = valueFields.some((f) => f.id === valueField) ? valueField : (valueFields[0]?.id ?? '');
  const dated = groupField ? isDateType(groupField.type) : false;
  const params: ActionParams<'deskstore_group_by'> = {
    resource_id: shape.resourceId,
    group_by: second ? `${group},${second}` : group,
    metric,
    ...(metric !== 'count' && value ? { value_field: value } : {}),
    ...(dated && bucket ? { bucket } : {}),
    ...queryParams(shape, { withFields: false, withSort: false }),
  };
  const ready = group !== '' && (metric === 'count' || value !== '');
  const result = useAsync(JSON.stringify(params), (signal) =>
    ready ? call('deskstore_group_by', params, { signal }) : Promise.resolve(null),
  );
  const data = result.error !== undefined ? undefined : result.data;

  const labelOf = (fieldId: string | null | undefined) => {
    const f = fields.find((x) => x.id === fieldId);
    return f ? columnLabel(f) : (fieldId ?? '');
  };
  const typeOf = (fieldId: string | null | undefined) => fields.find((x) => x.id === fieldId)?.type ?? 'text';
  const labels = { yes: t('common.yes'), no: t('common.no') };
  // each grouping column's numbers as the grid shows them (identifiers without separators)
  const keyStyles = new Map(
    (data?.group_by ?? []).map((id, i) => {
      const field = fields.find((f) => f.id === id);
      return [
        id,
        field
          ? numberStyleOf(
              field,
              data!.groups.slice(0, 200).map((g) => g.keys[i]),
            )
          : undefined,
      ];
    }),
  );
  const keyText = (key: GroupKey, fieldId: string | undefined): string => {
    if (key === null) return t('filter.empty');
    if (typeof key === 'string' && data?.bucket && isDateType(typeOf(fieldId)) && key.length < 10) return key;
    return formatCell(key, typeOf(fieldId), locale, labels, fieldId ? keyStyles.get(fieldId) : undefined);
  };
  const metricLabel = !data
    ? ''
    : data.metric === 'count' || data.value_field === null
      ? t('chart.metric.count')
      : t('chart.metricOf', { metric: t(`chart.metric.${data.metric}`), column: labelOf(data.value_field) });

  return {
    columns,
    group,
    setGroup,
    second,
    setSecond,
    dated,
    bucket,
    setBucket,
    metric,
    setMetric,
    valueFields,
    value,
    setValue,
    ready,
    result,
    data,
    metricLabel,
    labelOf,
    typeOf,
    keyText,
  };
}
