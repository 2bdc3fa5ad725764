import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/main/engine/engine';
import type { MapPointsRequest } from '../../../src/main/engine/search/map-points';
import { removeDir, tempDir } from '../../helpers/deskstore-process';
import { lcg } from '../../helpers/random';

/** deskstore_map_points: detection, points, bins that add up, bbox zoom, colours, GeoJSON. */
let engine: Engine;
let dataDir: string;
const rid = '00000000-0000-4000-8000-00000000a001';
const geo = '00000000-0000-4000-8000-00000000a002';
type Row = { nome: string; latitudine: string | null; longitudine: string | null; regione: string; prezzo: number };
let records: Row[];

beforeAll(async () => {
  dataDir = tempDir();
  engine = new Engine({ dataDir });
  const random = lcg(99);
  const regions = ['Lazio', 'Lombardia', 'Sicilia', 'Veneto'];
  records = Array.from({ length: 2000 }, (_, i) => ({
    nome: `Stazione ${i}`,
    // Italian exports: decimal commas in text columns; some rows without a position or at 0,0
    latitudine: i % 50 === 0 ? null : i % 61 === 0 ? '0' : (36 + random() * 11).toFixed(5).replace('.', ','),
    longitudine: i % 50 === 0 ? null : i % 61 === 0 ? '0' : (6.5 + random() * 12).toFixed(5).replace('.', ','),
    regione: regions[Math.floor(random() ** 2 * 4)]!,
    prezzo: Math.round(1500 + random() * 500) / 1000,
  }));
  engine.packageCreate({ name: 'carburanti' }, 'http://x');
  engine.resourceCreate({ package_id: 'carburanti', id: rid, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({
    resourceId: rid,
    force: true,
    deleteFields: false,
    records,
    fields: [
      { id: 'nome', type: 'text' },
      { id: 'latitudine', type: 'text' },
      { id: 'longitudine', type: 'text' },
      { id: 'regione', type: 'text' },
      { id: 'prezzo', type: 'numeric' },
    ],
  });
  engine.resourceCreate({ package_id: 'carburanti', id: geo, url_type: 'datastore' }, 'http://x');
  await engine.datastoreCreate({
    resourceId: geo,
    force: true,
    deleteFields: false,
    fields: [
      { id: 'name', type: 'text' },
      { id: 'geometry', type: 'json' },
    ],
    records: [
      { name: 'Roma', geometry: { type: 'Point', coordinates: [12.4964, 41.9028] } },
      {
        name: 'a square',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [10, 40],
              [12, 40],
              [12, 42],
              [10, 42],
              [10, 40],
            ],
          ],
        },
      },
      { name: 'nowhere', geometry: null },
    ],
  });
});

afterAll(async () => {
  await engine.close();
  removeDir(dataDir);
});

const request = (extra: Partial<MapPointsRequest> = {}): MapPointsRequest => ({
  resourceId: rid,
  plain: true,
  latField: null,
  lonField: null,
  geometryField: null,
  colorField: null,
  bbox: null,
  maxPoints: 3000,
  grid: 16,
  ...extra,
});
const located = () => records.filter((r) => r.latitudine !== null && r.latitudine !== '0');
const num = (t: string) => Number(t.replace(',', '.'));

describe('deskstore_map_points', () => {
  it('finds latitude/longitude columns by name and range, even as text with decimal commas', () => {
    const out = engine.mapPoints(request());
    expect([out.lat_field, out.lon_field]).toEqual(['latitudine', 'longitudine']);
    expect(out.candidates).toEqual({ lat: ['latitudine'], lon: ['longitudine'], geometry: [] });
    expect(out.mode).toBe('points');
    expect(out.located).toBe(located().length);
    const first = out.points[0]!;
    const row = records[first.id - 1]!;
    expect([first.lat, first.lon]).toEqual([num(row.latitudine!), num(row.longitudine!)]);
  });

  it('bins many points: counts add up, each bin holds its points, colours are the most frequent value', () => {
    const out = engine.mapPoints(request({ maxPoints: 100, colorField: 'regione' }));
    expect(out.mode).toBe('bins');
    expect(out.bins.reduce((a, b) => a + b.count, 0)).toBe(located().length);
    expect(out.color_kind).toBe('category');
    expect(out.color_values[0]!.value).toBe('Lazio');
    for (const bin of out.bins.slice(0, 20)) {
      const [w, s, e, n] = bin.bbox;
      const inside = located().filter((r) => {
        const y = num(r.latitudine!);
        const x = num(r.longitudine!);
        return y >= s && y < n + 1e-9 && x >= w && x < e + 1e-9;
      });
      expect(inside.length).toBeGreaterThanOrEqual(bin.count);
      expect(bin.lat).toBeGreaterThanOrEqual(s);
      expect(bin.lat).toBeLessThanOrEqual(n);
    }
  });

  it('follows filters and zooms into a bbox', () => {
    const lazio = engine.mapPoints(request({ filters: { regione: 'Lazio' } }));
    expect(lazio.rows).toBe(records.filter((r) => r.regione === 'Lazio').length);
    const box = [10, 40, 12, 42] as const;
    const zoomed = engine.mapPoints(request({ bbox: box }));
    const expected = located().filter(
      (r) => num(r.longitudine!) >= 10 && num(r.longitudine!) <= 12 && num(r.latitudine!) >= 40 && num(r.latitudine!) <= 42,
    );
    expect(zoomed.located).toBe(expected.length);
    expect(zoomed.points.every((p) => p.lon >= 10 && p.lon <= 12 && p.lat >= 40 && p.lat <= 42)).toBe(true);
    const byPrice = engine.mapPoints(request({ colorField: 'prezzo', maxPoints: 10 }));
    expect(byPrice.color_kind).toBe('number');
    expect(byPrice.bins.every((b) => typeof b.color === 'number' && b.color >= 1.5 && b.color <= 2)).toBe(true);
  });

  it('finds coordinates typed numeric (exact values, as a CKAN portal types them)', async () => {
    const exact = '00000000-0000-4000-8000-00000000a003';
    engine.resourceCreate({ package_id: 'carburanti', id: exact, url_type: 'datastore' }, 'http://x');
    await engine.datastoreCreate({
      resourceId: exact,
      force: true,
      deleteFields: false,
      fields: [
        { id: 'lat', type: 'numeric' },
        { id: 'lon', type: 'numeric' },
      ],
      records: [
        { lat: '41.90280', lon: '12.49640' },
        { lat: '45.4642', lon: '9.19' },
      ],
    });
    const out = engine.mapPoints(request({ resourceId: exact }));
    expect([out.lat_field, out.lon_field]).toEqual(['lat', 'lon']);
    expect(out.points.map((p) => [p.lat, p.lon])).toEqual([
      [41.9028, 12.4964],
      [45.4642, 9.19],
    ]);
  });

  it('reads GeoJSON geometry columns (points, and the centre of other shapes)', () => {
    const out = engine.mapPoints(request({ resourceId: geo }));
    expect(out.geometry_field).toBe('geometry');
    expect(out.points.map((p) => [p.id, p.lon, p.lat])).toEqual([
      [1, 12.4964, 41.9028],
      [2, 11, 41],
    ]);
    expect(() => engine.mapPoints(request({ latField: 'nope' }))).toThrow(/lat_field/);
  });
});
