import type { Column } from '../column-store/column';
import { isNumericStorage } from '../field-types';

/**
 * Where a resource keeps positions: latitude/longitude columns (numbers, or text such as
 * `41,9028` from Italian exports) found by name and range, or a GeoJSON geometry column.
 * Values are read once per distinct value, into per-code arrays a row scan indexes.
 */
const LAT_NAMES = /^(lat|latitude|latitudine|y_lat|lat_y|ycoord|geo_lat|wgs84_lat)$/i;
const LON_NAMES = /^(lon|lng|long|longitude|longitudine|x_lon|lon_x|xcoord|geo_lon|geo_long|wgs84_lon)$/i;
const GEOMETRY_NAMES = /(geom|geometry|geojson|geo_shape|geopoint|the_geom|coordinates|location)/i;
const NUMBER_TEXT = /^\s*[+-]?\d+(?:[.,]\d+)?\s*$/;

/** A coordinate per dictionary code (NaN where the value is no number). */
export function numbersByCode(column: Column): Float64Array {
  const out = new Float64Array(column.values.length).fill(NaN);
  for (let code = 1; code < column.values.length; code++) {
    const v = column.values[code]!;
    if (typeof v === 'number' && column.type.storage !== 'bool') out[code] = v;
    else if (typeof v === 'string' && NUMBER_TEXT.test(v)) out[code] = Number(v.replace(',', '.'));
  }
  return out;
}

/** Position of a GeoJSON geometry: a Point's coordinates, else the centre of its bounds. */
export function geometryPosition(value: unknown): [number, number] | null {
  let geometry = value;
  if (typeof geometry === 'string') {
    try {
      geometry = JSON.parse(geometry) as unknown;
    } catch {
      return null;
    }
  }
  if (!geometry || typeof geometry !== 'object') return null;
  const g = geometry as { type?: unknown; coordinates?: unknown; geometry?: unknown };
  if (g.type === 'Feature') return geometryPosition(g.geometry);
  if (g.type === 'Point' && Array.isArray(g.coordinates)) {
    const [lon, lat] = g.coordinates as unknown[];
    return typeof lon === 'number' && typeof lat === 'number' ? [lon, lat] : null;
  }
  let west = Infinity,
    south = Infinity,
    east = -Infinity,
    north = -Infinity;
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      west = Math.min(west, c[0]);
      east = Math.max(east, c[0]);
      south = Math.min(south, c[1]);
      north = Math.max(north, c[1]);
      return;
    }
    for (const inner of c) visit(inner);
  };
  visit(g.coordinates);
  return Number.isFinite(west) ? [(west + east) / 2, (south + north) / 2] : null;
}

/** Longitude and latitude per code of a geometry column. */
export function geometryByCode(column: Column): { lon: Float64Array; lat: Float64Array } {
  const lon = new Float64Array(column.values.length).fill(NaN);
  const lat = new Float64Array(column.values.length).fill(NaN);
  for (let code = 1; code < column.values.length; code++) {
    const p = geometryPosition(column.values[code]);
    if (p) [lon[code], lat[code]] = p;
  }
  return { lon, lat };
}

/** Whether most non-null values of a column lie within ±limit (a sample of the dictionary). */
function inRange(column: Column, limit: number): boolean {
  const numbers = numbersByCode(column);
  const step = Math.max(1, Math.floor(numbers.length / 2000));
  let seen = 0;
  let inside = 0;
  for (let code = 1; code < numbers.length; code += step) {
    const v = column.values[code];
    if (v === null || v === '') continue;
    seen++;
    if (Math.abs(numbers[code]!) <= limit) inside++;
  }
  return seen > 0 && inside / seen >= 0.95;
}

/** Columns that may hold coordinates: numbers of any storage (numeric is exact), or text such as `45,07`. */
const numeric = (c: Column) => isNumericStorage(c.type.storage) || c.type.storage === 'text';

export interface CoordinateCandidates {
  readonly lat: string[];
  readonly lon: string[];
  readonly geometry: string[];
}

export function coordinateCandidates(columns: readonly Column[]): CoordinateCandidates {
  return {
    lat: columns.filter((c) => numeric(c) && LAT_NAMES.test(c.id.trim()) && inRange(c, 90)).map((c) => c.id),
    lon: columns.filter((c) => numeric(c) && LON_NAMES.test(c.id.trim()) && inRange(c, 180)).map((c) => c.id),
    geometry: columns
      .filter(
        (c) =>
          (c.type.storage === 'json' || c.type.storage === 'text') &&
          GEOMETRY_NAMES.test(c.id) &&
          c.values.slice(1, 50).some((v) => geometryPosition(v) !== null),
      )
      .map((c) => c.id),
  };
}
