/**
 * What chart a group-by gets, as Observable Plot options: a line over dates or numbers, bars
 * for categories (largest first), stacked bars when there is a second grouping column.
 * Pure apart from Plot's mark constructors, passed in so this module loads without Plot.
 */
import type { GroupByResult, GroupKey } from '../../../../shared/wire/group-by';
import type * as PlotModule from '@observablehq/plot';

export type ChartKind = 'line' | 'bar' | 'stacked';

export const MAX_BARS = 30;
export const MAX_SERIES = 8;
/** One blue with ≥ 3:1 contrast on the light and the dark background (graphics need 3:1). */
export const CHART_COLOR = '#3a78d8';

export function chartKind(result: GroupByResult): ChartKind {
  if (result.group_by.length === 2) return 'stacked';
  return result.order === 'key' && result.groups.some((g) => typeof g.keys[0] === 'number' || isDateKey(g.keys[0] ?? null))
    ? 'line'
    : 'bar';
}

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const DATE_KEY = /^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?)?)?$/;
export const isDateKey = (key: GroupKey): key is string => typeof key === 'string' && DATE_KEY.test(key);

/** `2020`, `2020-03`, `2020-03-15` → a Date at the start of that period (UTC). */
export function keyDate(key: string): Date {
  const [y, m = 1, d = 1] = key.slice(0, 10).split('-').map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y!, m - 1, d);
  return date;
}

export interface ChartLabels {
  readonly keyLabel: (key: GroupKey) => string;
  readonly number: (n: number) => string;
  readonly metricLabel: string;
  readonly groupLabel: string;
  readonly seriesLabel: string;
  readonly other: string;
  readonly locale: string;
}

export function plotOptions(Plot: typeof PlotModule, result: GroupByResult, labels: ChartLabels, width: number): PlotModule.PlotOptions {
  const kind = chartKind(result);
  // a numeric sum or mean may come as exact decimal text; a date's min or max as ISO text
  const value = (v: number | string | null) =>
    typeof v === 'number' ? v : v === null ? NaN : DECIMAL_TEXT.test(v) ? Number(v) : keyDate(v).getTime();
  const common = { width, marginLeft: 100, style: { fontSize: '12px' }, ariaLabel: labels.metricLabel } as const;
  const xTicks = Math.max(2, Math.floor(width / 110));
  const yNumber = { label: labels.metricLabel, grid: true, tickFormat: labels.number };
  if (kind === 'line') {
    const data = result.groups
      .filter((g) => g.keys[0] !== null)
      .map((g) => ({
        x: typeof g.keys[0] === 'number' ? g.keys[0] : keyDate(String(g.keys[0])),
        y: value(g.value),
        label: labels.keyLabel(g.keys[0] ?? null),
      }));
    const dateFormat = new Intl.DateTimeFormat(labels.locale, { year: 'numeric', month: 'short', timeZone: 'UTC' });
    return {
      ...common,
      height: 360,
      x: {
        label: labels.groupLabel,
        ticks: xTicks,
        ...(data[0] && data[0].x instanceof Date
          ? { type: 'utc' as const, tickFormat: (d: Date) => dateFormat.format(d) }
          : { tickFormat: labels.number }),
      },
      y: yNumber,
      marks: [
        Plot.lineY(data, { x: 'x', y: 'y', stroke: CHART_COLOR }),
        Plot.dot(data, {
          x: 'x',
          y: 'y',
          r: data.length > 80 ? 1.5 : 3,
          fill: CHART_COLOR,
          title: (d: { label: string; y: number }) => `${d.label}: ${labels.number(d.y)}`,
        }),
        Plot.ruleY([0]),
      ],
    };
  }
  if (kind === 'bar') {
    const data = result.groups.slice(0, MAX_BARS).map((g) => ({ key: labels.keyLabel(g.keys[0] ?? null), y: value(g.value) }));
    return {
      ...common,
      marginLeft: 160,
      height: Math.max(160, 26 * data.length + 50),
      x: { label: labels.metricLabel, grid: true, ticks: xTicks, tickFormat: labels.number },
      y: { label: null, domain: data.map((d) => d.key), tickFormat: (k: string) => (k.length > 24 ? `${k.slice(0, 23)}…` : k) },
      marks: [
        Plot.barX(data, {
          y: 'key',
          x: 'y',
          fill: CHART_COLOR,
          title: (d: { key: string; y: number }) => `${d.key}: ${labels.number(d.y)}`,
        }),
        Plot.ruleX([0]),
      ],
    };
  }
  // stacked: the second key's most common values as series, the rest as "other"
  const totals = new Map<string, number>();
  for (const g of result.groups)
    totals.set(labels.keyLabel(g.keys[1] ?? null), (totals.get(labels.keyLabel(g.keys[1] ?? null)) ?? 0) + g.count);
  const series = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_SERIES)
    .map(([k]) => k);
  const keep = new Set(series);
  const firstKeys = [...new Set(result.groups.map((g) => labels.keyLabel(g.keys[0] ?? null)))].slice(0, MAX_BARS);
  const firstSet = new Set(firstKeys);
  const data = result.groups
    .filter((g) => firstSet.has(labels.keyLabel(g.keys[0] ?? null)))
    .map((g) => {
      const s = labels.keyLabel(g.keys[1] ?? null);
      return { key: labels.keyLabel(g.keys[0] ?? null), series: keep.has(s) ? s : labels.other, y: value(g.value) };
    });
  return {
    ...common,
    height: 380,
    marginBottom: 70,
    x: {
      label: labels.groupLabel,
      domain: firstKeys,
      tickRotate: firstKeys.length > 8 ? -35 : 0,
      tickFormat: (k: string) => (k.length > 16 ? `${k.slice(0, 15)}…` : k),
    },
    y: yNumber,
    color: { legend: true, label: labels.seriesLabel, scheme: 'tableau10' },
    marks: [
      Plot.barY(data, {
        x: 'key',
        y: 'y',
        fill: 'series',
        title: (d: { key: string; series: string; y: number }) => `${d.key} · ${d.series}: ${labels.number(d.y)}`,
      }),
      Plot.ruleY([0]),
    ],
  };
}
