import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/main/engine/engine';
import type { ColumnProfile } from '../../../src/shared/wire/profile';
import { removeDir, tempDir } from '../../helpers/deskstore-process';
import { lcg } from '../../helpers/random';

/**
 * deskstore_profile against figures computed here from the records themselves: counts,
 * empties, distinct values, top values, min/max/mean/median and the histogram's total.
 */
let engine: Engine;
let dataDir: string;
const rid = '00000000-0000-4000-8000-00000000beef';
type Row = { n: number | null; x: number | null; day: string | null; name: string | null; flag: boolean | null };
let records: Row[];

beforeAll(async () => {
  dataDir = tempDir();
  engine = new Engine({ dataDir });
  const random = lcg(777);
  const maybe = <T>(v: T): T | null => (random() < 0.1 ? null : v);
  records = Array.from({ length: 3000 }, (_, i) => ({
    n: maybe(Math.floor(random() * 50) - 10),
    x: maybe(Math.round(random() * 100000) / 100),
    day: maybe(`20${10 + Math.floor(random() * 10)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`),
    name: i % 17 === 0 ? '' : maybe(['Roma', 'Milano', 'Napoli', 'Torino', 'Forlì', 'Città di Castello'][Math.floor(random() ** 2 * 6)]!),
    flag: maybe(random() < 0.3),
  }));
  engine.packageCreate({ name: 'profile' }, 'http://x');
  engine.resourceCreate({ package_id: 'profile', id: rid, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({
    resourceId: rid,
    force: true,
    deleteFields: false,
    records,
    fields: [
      { id: 'n', type: 'int' },
      { id: 'x', type: 'numeric' },
      { id: 'day', type: 'date' },
      { id: 'name', type: 'text' },
      { id: 'flag', type: 'bool' },
    ],
  });
});

afterAll(async () => {
  await engine.close();
  removeDir(dataDir);
});

const profile = (extra: Record<string, unknown> = {}) => engine.profile({ resourceId: rid, plain: true, top: 10, bins: 20, ...extra });
const fieldOf = (fields: readonly ColumnProfile[], id: string) => fields.find((f) => f.id === id)!;

function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe('deskstore_profile', () => {
  it('numbers: counts, distinct, min, max, mean, median and a histogram holding every value', () => {
    const { fields, rows } = profile();
    expect(rows).toBe(3000);
    for (const id of ['n', 'x'] as const) {
      const values = records
        .map((r) => r[id])
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
      const p = fieldOf(fields, id);
      expect(p.count).toBe(values.length);
      expect(p.nulls).toBe(3000 - values.length);
      expect(p.distinct).toBe(new Set(values).size);
      expect(p.min).toBe(values[0]);
      expect(p.max).toBe(values[values.length - 1]);
      expect(p.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6);
      expect(p.median).toBe(median(values));
      expect(p.histogram.reduce((a, b) => a + b.count, 0)).toBe(values.length);
      expect(p.histogram[0]!.from as number).toBeLessThanOrEqual(values[0]!);
      expect(p.histogram[p.histogram.length - 1]!.to as number).toBeGreaterThanOrEqual(values[values.length - 1]!);
      // each bar holds exactly the values in [from, to) (the last one also its upper bound)
      p.histogram.forEach((bar, i) => {
        const last = i === p.histogram.length - 1;
        const inside = values.filter((v) => v >= (bar.from as number) && (v < (bar.to as number) || (last && v === bar.to)));
        expect(bar.count, `${id} bar ${i}`).toBe(inside.length);
      });
    }
  });

  it('text: empty cells are NULL or the empty string, top values with counts, length range', () => {
    const p = fieldOf(profile({ fields: ['name'] }).fields, 'name');
    const values = records.map((r) => r.name).filter((v): v is string => v !== null && v !== '');
    expect(p.nulls).toBe(3000 - values.length);
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    const expected = [...counts].sort((a, b) => b[1] - a[1]).map(([value, count]) => ({ value, count }));
    expect(p.top).toEqual(expected);
    expect(p.distinct).toBe(counts.size);
    expect([p.min_length, p.max_length]).toEqual([4, 17]);
    expect([p.min, p.max, p.mean, p.median]).toEqual([null, null, null, null]);
  });

  it('dates: range, mean and median as dates, a histogram by calendar year', () => {
    const p = fieldOf(profile({ fields: ['day'] }).fields, 'day');
    const days = records
      .map((r) => r.day)
      .filter((v): v is string => v !== null)
      .sort();
    expect(p.min).toBe(days[0]);
    expect(p.max).toBe(days[days.length - 1]);
    expect(p.median).toBe(days[Math.floor((days.length - 1) / 2)]);
    expect(p.mean).toMatch(/^201\d-\d\d-\d\d$/);
    expect(p.histogram_unit).toBe('year');
    expect(p.histogram.map((b) => b.from)).toEqual(Array.from({ length: 10 }, (_, i) => `20${10 + i}-01-01`));
    expect(p.histogram.map((b) => b.count)).toEqual(
      Array.from({ length: 10 }, (_, i) => days.filter((d) => d.startsWith(`20${10 + i}`)).length),
    );
  });

  it('follows filters and q, like the table', () => {
    const { rows, fields } = profile({ filters: { name: 'Roma', flag: true }, fields: ['flag', 'n'] });
    const matching = records.filter((r) => r.name === 'Roma' && r.flag === true);
    expect(rows).toBe(matching.length);
    expect(fieldOf(fields, 'flag').top).toEqual([{ value: true, count: matching.length }]);
    expect(fieldOf(fields, 'n').count).toBe(matching.filter((r) => r.n !== null).length);
    expect(profile({ q: 'forlì' }).rows).toBe(records.filter((r) => r.name === 'Forlì').length);
    expect(() => profile({ fields: ['nope'] })).toThrow(/invalid value \\"nope\\"/);
  });
});
