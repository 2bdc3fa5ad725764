import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_BUCKETS, GROUP_BY_METRICS, type DateBucket, type GroupByMetric, type GroupKey } from '../../../../shared/wire/group-by';
import { api } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell, isDateType, isNumericType } from '../../format/cell';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { hrefFor, sqlPath } from '../../router';
import { columnLabel } from '../table/columns';
import { queryPairs, type SearchShape } from '../table/view-state';
import { chartKind, plotOptions } from './chart-spec';
import { groupsCsv } from './groups-csv';
import { download, pngBlob, renderPlot, svgText } from './render-plot';
import { formatStatistic } from '../profile/profile-format';

interface Props {
  readonly shape: SearchShape;
  readonly fields: readonly DatastoreField[];
  readonly title: string;
}

const groupable = (f: DatastoreField) => f.id !== '_id' && !f.type.startsWith('_') && f.type !== 'json';
const measurable = (f: DatastoreField) => isNumericType(f.type) || isDateType(f.type);

/** The first column that groups well: a text column of few values is the usual pick. */
function defaultGroup(fields: readonly DatastoreField[]): string {
  return (fields.find((f) => groupable(f) && f.type === 'text') ?? fields.find(groupable))?.id ?? '';
}

/**
 * Group-by of the rows the table shows (search, filters, conditions), as a chart and a table,
 * with the SQL that computes the same on a CKAN portal; chart as PNG or SVG, data as CSV.
 */
export function ChartView({ shape, fields, title }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const columns = fields.filter(groupable);
  const [group, setGroup] = useState(() => defaultGroup(fields));
  const [second, setSecond] = useState('');
  const [bucket, setBucket] = useState<DateBucket | ''>('');
  const [metric, setMetric] = useState<GroupByMetric>('count');
  const [valueField, setValueField] = useState(() => fields.find((f) => isNumericType(f.type))?.id ?? '');
  const groupField = fields.find((f) => f.id === group);
  const numberFields = fields.filter(
    (f) => f.id !== '_id' && (metric === 'sum' || metric === 'mean' ? isNumericType(f.type) : measurable(f)),
  );
  const value = numberFields.some((f) => f.id === valueField) ? valueField : (numberFields[0]?.id ?? '');
  const dated = groupField ? isDateType(groupField.type) : false;
  const pairs: [string, string][] = [
    ['resource_id', shape.resourceId],
    ['group_by', second ? `${group},${second}` : group],
    ['metric', metric],
    ...(metric !== 'count' && value ? [['value_field', value] as [string, string]] : []),
    ...(dated && bucket ? [['bucket', bucket] as [string, string]] : []),
    ...queryPairs(shape, { withFields: false, withSort: false }),
  ];
  const ready = group !== '' && (metric === 'count' || value !== '');
  const result = useAsync(JSON.stringify(pairs), (signal) => (ready ? api.groupBy(pairs, { signal }) : Promise.resolve(null)));
  const data = result.data;
  const chartRef = useRef<HTMLDivElement>(null);
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const labelOf = (fieldId: string | null | undefined) => {
    const f = fields.find((x) => x.id === fieldId);
    return f ? columnLabel(f) : (fieldId ?? '');
  };
  const typeOf = (fieldId: string | undefined) => fields.find((x) => x.id === fieldId)?.type ?? 'text';
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const keyText = (key: GroupKey, fieldId: string | undefined): string => {
    if (key === null) return t('filter.empty');
    if (typeof key === 'string' && data?.bucket && isDateType(typeOf(fieldId)) && key.length < 10) return key;
    return formatCell(key, typeOf(fieldId), locale, labels);
  };
  const metricLabel =
    metric === 'count' ? t('chart.metric.count') : t('chart.metricOf', { metric: t(`chart.metric.${metric}`), column: labelOf(value) });

  // The chart is drawn from the latest answer and labels; the effect runs when either changes.
  const drawRef = useRef<(host: HTMLDivElement) => Promise<SVGSVGElement | null>>(async () => null);
  useEffect(() => {
    drawRef.current = async (host) => {
      if (!data || !data.groups.length) return null;
      const Plot = await import('@observablehq/plot');
      const node = await renderPlot(
        plotOptions(
          Plot,
          data,
          {
            keyLabel: (k) => keyText(k, data.group_by[0]),
            number: (n) => formatStatistic(n, 'numeric', locale),
            metricLabel,
            groupLabel: labelOf(data.group_by[0]),
            seriesLabel: labelOf(data.group_by[1]),
            other: t('chart.other'),
            locale,
          },
          Math.max(320, host.clientWidth - 8),
        ),
      );
      const found = node instanceof SVGSVGElement ? node : node.querySelector('svg');
      found?.setAttribute('role', 'img');
      host.replaceChildren(node);
      return found;
    };
  });
  useEffect(() => {
    const host = chartRef.current;
    if (!host) return undefined;
    let cancelled = false;
    host.replaceChildren();
    void drawRef.current(host).then((found) => {
      if (!cancelled) setSvg(found);
    });
    return () => {
      cancelled = true;
    };
  }, [data, locale]);

  const fileBase = `${title || 'chart'}-${group}`.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80);
  const keyColumns = data ? data.group_by.map((g) => labelOf(g)) : [];
  return (
    <section className="chart-view" aria-labelledby={`${id}-title`} data-testid="chart-view">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('views.chart')}
      </h2>
      <div className="chart-controls options">
        <div className="option">
          <label htmlFor={`${id}-group`}>{t('chart.groupBy')}</label>
          <select id={`${id}-group`} value={group} onChange={(e) => setGroup(e.target.value)} data-testid="chart-group">
            {columns.map((f) => (
              <option key={f.id} value={f.id}>
                {columnLabel(f)}
              </option>
            ))}
          </select>
        </div>
        {dated && (
          <div className="option">
            <label htmlFor={`${id}-bucket`}>{t('chart.bucket')}</label>
            <select
              id={`${id}-bucket`}
              value={bucket}
              onChange={(e) => setBucket(e.target.value as DateBucket | '')}
              data-testid="chart-bucket"
            >
              <option value="">{t('chart.exact')}</option>
              {DATE_BUCKETS.map((b) => (
                <option key={b} value={b}>
                  {t(`chart.buckets.${b}`)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="option">
          <label htmlFor={`${id}-second`}>{t('chart.thenBy')}</label>
          <select id={`${id}-second`} value={second} onChange={(e) => setSecond(e.target.value)} data-testid="chart-second">
            <option value="">{t('chart.none')}</option>
            {columns
              .filter((f) => f.id !== group)
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {columnLabel(f)}
                </option>
              ))}
          </select>
        </div>
        <div className="option">
          <label htmlFor={`${id}-metric`}>{t('chart.show')}</label>
          <select
            id={`${id}-metric`}
            value={metric}
            onChange={(e) => setMetric(e.target.value as GroupByMetric)}
            data-testid="chart-metric"
          >
            {GROUP_BY_METRICS.map((m) => (
              <option key={m} value={m}>
                {t(`chart.metric.${m}`)}
              </option>
            ))}
          </select>
        </div>
        {metric !== 'count' && (
          <div className="option">
            <label htmlFor={`${id}-value`}>{t('chart.of')}</label>
            <select id={`${id}-value`} value={value} onChange={(e) => setValueField(e.target.value)} data-testid="chart-value">
              {numberFields.map((f) => (
                <option key={f.id} value={f.id}>
                  {columnLabel(f)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {result.error !== undefined && <ErrorNotice error={result.error} onRetry={result.reload} />}
      {!ready && <p className="muted">{t('chart.noNumbers')}</p>}
      <p className="muted small" role="status" aria-live="polite">
        {data
          ? t('chart.summary', {
              count: data.total_groups,
              groups: formatCount(data.total_groups, locale),
              rows: formatCount(data.rows, locale),
            })
          : t('common.loading')}
        {data && chartKind(data) === 'bar' && data.groups.length > 30 ? ` ${t('chart.firstBars', { n: 30 })}` : ''}
      </p>
      <div className="chart-layout">
        <figure className="chart-figure">
          <div ref={chartRef} className="chart-host" data-testid="chart" aria-busy={result.loading} />
          <figcaption className="visually-hidden">{metricLabel}</figcaption>
          {svg && data && (
            <div className="button-row">
              <button
                type="button"
                className="button button-small"
                data-testid="chart-png"
                onClick={() => void pngBlob(svg).then((blob) => download(blob, `${fileBase}.png`))}
              >
                {t('chart.png')}
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="chart-svg"
                onClick={() => download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${fileBase}.svg`)}
              >
                {t('chart.svg')}
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="chart-csv"
                onClick={() => download(new Blob([groupsCsv(data, keyColumns, metricLabel)], { type: 'text/csv' }), `${fileBase}.csv`)}
              >
                {t('chart.csv')}
              </button>
            </div>
          )}
        </figure>
        {data && (
          <div className="chart-side">
            <div className="table-wrap chart-table-wrap">
              <table className="chart-table" data-testid="chart-table">
                <caption className="visually-hidden">{metricLabel}</caption>
                <thead>
                  <tr>
                    {keyColumns.map((k) => (
                      <th key={k} scope="col">
                        {k}
                      </th>
                    ))}
                    <th scope="col" className="num">
                      {t('chart.metric.count')}
                    </th>
                    {metric !== 'count' && (
                      <th scope="col" className="num">
                        {metricLabel}
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.groups.slice(0, 500).map((g, i) => (
                    <tr key={i}>
                      {g.keys.map((k, j) => (
                        <td key={j}>{keyText(k, data.group_by[j])}</td>
                      ))}
                      <td className="num">{formatCount(g.count, locale)}</td>
                      {metric !== 'count' && (
                        <td className="num">{formatStatistic(g.value, typeOf(data.value_field ?? undefined), locale)}</td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="chart-sql">
              <div className="heading-row">
                <h3>{t('chart.sqlTitle')}</h3>
                <CopyButton text={data.sql} label={t('chart.copySql')} />
                <a className="button button-small" href={hrefFor(sqlPath(shape.resourceId), new URLSearchParams([['sql', data.sql]]))}>
                  {t('chart.openSql')}
                </a>
              </div>
              <pre className="code" data-testid="chart-sql">
                {data.sql}
              </pre>
              {data.sql_without_q && (
                <p className="small notice" role="note">
                  {t('chart.sqlWithoutQ')}
                </p>
              )}
              {!data.sql_exact && (
                <p className="small notice" role="note">
                  {t('chart.sqlInexact')}
                </p>
              )}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
