import type { BBox, MapBin, MapColorValue, MapPoint, MapPointsResult } from '../../../shared/wire/map-points';
import { invalid } from '../../errors';
import type { Column } from '../column-store/column';
import type { TextSearchLanguage } from '../fts';
import { isNumericStorage } from '../field-types';
import { recordValue } from '../values/encode';
import { coordinateCandidates, geometryByCode, numbersByCode } from './coordinates';
import type { SearchableResource } from './execute-search';
import { selectRows, type RowSelection } from './row-selection';
import type { CodeArray } from '../column-store/column';

/**
 * `deskstore_map_points` (docs/views.md, "A map, offline"): where the rows a search selects
 * lie. Up to `maxPoints` located rows come back as points (each opens its row); more are
 * binned on a grid over their extent (or `bbox`, to zoom), each bin with its count, mean
 * position and colour. One pass over the rows; positions are read per dictionary code.
 */
export interface MapPointsRequest extends RowSelection {
  readonly resourceId: string;
  readonly latField: string | null;
  readonly lonField: string | null;
  readonly geometryField: string | null;
  readonly colorField: string | null;
  readonly bbox: BBox | null;
  readonly maxPoints: number;
  readonly grid: number;
}

const COLOR_CATEGORIES = 10;

function columnOf(resource: SearchableResource, id: string | null, param: string): Column | null {
  if (id === null) return null;
  const column = resource.store.column(id);
  if (!column) throw invalid(param, `invalid value "${id}"`);
  return column;
}

interface Positions {
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly latCodes: CodeArray;
  readonly lonCodes: CodeArray;
}

/** Colour per row: a category number (COLOR_CATEGORIES = other/none) or a number. */
interface Coloring {
  readonly kind: 'category' | 'number';
  readonly field: string;
  readonly values: { value: MapColorValue; count: number }[];
  /** Category: code → category number; number: code → value (NaN for none). */
  readonly byCode: Float64Array;
  readonly codes: CodeArray;
}

function coloring(column: Column, located: Uint32Array): Coloring {
  const storage = column.type.storage;
  if (isNumericStorage(storage)) {
    return { kind: 'number', field: column.id, values: [], byCode: numbersByCode(column), codes: column.codes };
  }
  const canonical = column.canonicalCodes();
  const counts = new Uint32Array(column.values.length);
  for (let i = 0; i < located.length; i++) counts[canonical[column.codes[located[i]!]!]!]!++;
  const present: number[] = [];
  for (let code = 1; code < counts.length; code++) if (counts[code]) present.push(code);
  present.sort((a, b) => counts[b]! - counts[a]! || a - b);
  const top = present.slice(0, COLOR_CATEGORIES);
  const categoryOfCanonical = new Map(top.map((code, i) => [code, i]));
  const byCode = new Float64Array(column.values.length).fill(COLOR_CATEGORIES);
  for (let code = 1; code < byCode.length; code++) byCode[code] = categoryOfCanonical.get(canonical[code]!) ?? COLOR_CATEGORIES;
  return {
    kind: 'category',
    field: column.id,
    byCode,
    codes: column.codes,
    values: top.map((code) => ({ value: recordValue(column.values[code]!, storage) as MapColorValue, count: counts[code]! })),
  };
}

export function computeMapPoints(
  req: MapPointsRequest,
  resource: SearchableResource,
  defaultLanguage: TextSearchLanguage,
): MapPointsResult {
  const columns = resource.store.columns;
  const candidates = coordinateCandidates(columns);
  let latColumn = columnOf(resource, req.latField, 'lat_field');
  let lonColumn = columnOf(resource, req.lonField, 'lon_field');
  let geometryColumn = columnOf(resource, req.geometryField, 'geometry_field');
  const colorColumn = columnOf(resource, req.colorField, 'color_field');
  if (!geometryColumn && (!latColumn || !lonColumn)) {
    if (req.latField === null && req.lonField === null && candidates.lat[0] && candidates.lon[0]) {
      latColumn = resource.store.column(candidates.lat[0])!;
      lonColumn = resource.store.column(candidates.lon[0])!;
    } else if (req.latField === null && req.lonField === null && candidates.geometry[0]) {
      geometryColumn = resource.store.column(candidates.geometry[0])!;
    } else if (req.latField !== null || req.lonField !== null) {
      throw invalid(req.latField === null ? 'lat_field' : 'lon_field', 'Missing value');
    }
  }
  const rows = selectRows(req, resource, defaultLanguage);
  const base = {
    resource_id: resource.id,
    lat_field: geometryColumn ? null : (latColumn?.id ?? null),
    lon_field: geometryColumn ? null : (lonColumn?.id ?? null),
    geometry_field: geometryColumn?.id ?? null,
    candidates,
    rows: rows.length,
  };
  let positions: Positions | null = null;
  if (geometryColumn) {
    const { lat, lon } = geometryByCode(geometryColumn);
    positions = { lat, lon, latCodes: geometryColumn.codes, lonCodes: geometryColumn.codes };
  } else if (latColumn && lonColumn) {
    positions = { lat: numbersByCode(latColumn), lon: numbersByCode(lonColumn), latCodes: latColumn.codes, lonCodes: lonColumn.codes };
  }
  if (!positions) {
    return {
      ...base,
      located: 0,
      extent: null,
      mode: 'points',
      points: [],
      bins: [],
      color_field: null,
      color_kind: null,
      color_values: [],
    };
  }

  // Located rows: a real position (not the 0,0 many exports write for "unknown"), inside bbox.
  const [west, south, east, north] = req.bbox ?? [-180, -90, 180, 90];
  const { lat, lon, latCodes, lonCodes } = positions;
  const kept = new Uint32Array(rows.length);
  let n = 0;
  let minLat = Infinity,
    maxLat = -Infinity,
    minLon = Infinity,
    maxLon = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const y = lat[latCodes[r]!]!;
    const x = lon[lonCodes[r]!]!;
    if (!(y >= south && y <= north && x >= west && x <= east) || (x === 0 && y === 0)) continue;
    kept[n++] = r;
    if (y < minLat) minLat = y;
    if (y > maxLat) maxLat = y;
    if (x < minLon) minLon = x;
    if (x > maxLon) maxLon = x;
  }
  const located = kept.subarray(0, n);
  const color = colorColumn ? coloring(colorColumn, located) : null;
  const colorValue = (r: number): MapColorValue => {
    if (!color) return null;
    const v = color.byCode[color.codes[r]!]!;
    if (color.kind === 'number') return Number.isNaN(v) ? null : v;
    return v < COLOR_CATEGORIES ? color.values[v]!.value : null;
  };
  const colorInfo = { color_field: color?.field ?? null, color_kind: color?.kind ?? null, color_values: color?.values ?? [] };
  const extent: BBox | null = n ? [minLon, minLat, maxLon, maxLat] : null;

  if (n <= req.maxPoints) {
    const points: MapPoint[] = Array.from(located, (r) => ({
      id: r,
      lat: lat[latCodes[r]!]!,
      lon: lon[lonCodes[r]!]!,
      color: colorValue(r),
    }));
    return { ...base, located: n, extent, mode: 'points', points, bins: [], ...colorInfo };
  }

  // Cells about square in degrees: `grid` across the longer side of the extent.
  const spanLon = Math.max(maxLon - minLon, 1e-9);
  const spanLat = Math.max(maxLat - minLat, 1e-9);
  const cellSize = Math.max(spanLon, spanLat) / req.grid;
  const nx = Math.max(1, Math.ceil(spanLon / cellSize));
  const ny = Math.max(1, Math.ceil(spanLat / cellSize));
  const cells = nx * ny;
  const count = new Uint32Array(cells);
  const sumLat = new Float64Array(cells);
  const sumLon = new Float64Array(cells);
  const firstId = new Uint32Array(cells);
  const colorSum = new Float64Array(cells);
  const colorCount = new Uint32Array(cells);
  const categoryCounts = color?.kind === 'category' ? new Uint32Array(cells * (COLOR_CATEGORIES + 1)) : null;
  for (let i = 0; i < n; i++) {
    const r = located[i]!;
    const y = lat[latCodes[r]!]!;
    const x = lon[lonCodes[r]!]!;
    const cx = Math.min(nx - 1, Math.floor((x - minLon) / cellSize));
    const cy = Math.min(ny - 1, Math.floor((y - minLat) / cellSize));
    const cell = cy * nx + cx;
    if (!count[cell]) firstId[cell] = r;
    count[cell]!++;
    sumLat[cell]! += y;
    sumLon[cell]! += x;
    if (color) {
      const v = color.byCode[color.codes[r]!]!;
      if (categoryCounts) categoryCounts[cell * (COLOR_CATEGORIES + 1) + v]!++;
      else if (!Number.isNaN(v)) {
        colorSum[cell]! += v;
        colorCount[cell]!++;
      }
    }
  }
  const bins: MapBin[] = [];
  for (let cell = 0; cell < cells; cell++) {
    const c = count[cell]!;
    if (!c) continue;
    const cx = cell % nx;
    const cy = Math.floor(cell / nx);
    let binColor: MapColorValue = null;
    if (categoryCounts) {
      let best = COLOR_CATEGORIES;
      for (let k = 0; k < COLOR_CATEGORIES; k++) {
        if (
          categoryCounts[cell * (COLOR_CATEGORIES + 1) + k]! >
          (best === COLOR_CATEGORIES ? 0 : categoryCounts[cell * (COLOR_CATEGORIES + 1) + best]!)
        )
          best = k;
      }
      binColor = best < COLOR_CATEGORIES ? color!.values[best]!.value : null;
    } else if (color && colorCount[cell]) {
      binColor = colorSum[cell]! / colorCount[cell]!;
    }
    bins.push({
      lat: sumLat[cell]! / c,
      lon: sumLon[cell]! / c,
      count: c,
      first_id: firstId[cell]!,
      color: binColor,
      bbox: [minLon + cx * cellSize, minLat + cy * cellSize, minLon + (cx + 1) * cellSize, minLat + (cy + 1) * cellSize],
    });
  }
  return { ...base, located: n, extent, mode: 'bins', points: [], bins, ...colorInfo };
}
