/**
 * `deskstore_map_points` (docs/views.md, "A map, offline"): the located rows of a search as
 * points when there are few, else as a grid of bins, with an optional colour column.
 */
export type MapColorValue = string | number | boolean | null;

/** [west, south, east, north] in degrees. */
export type BBox = readonly [number, number, number, number];

export interface MapPoint {
  readonly id: number;
  readonly lat: number;
  readonly lon: number;
  readonly color: MapColorValue;
}

export interface MapBin {
  /** Mean position of the bin's points (where its circle is drawn). */
  readonly lat: number;
  readonly lon: number;
  readonly count: number;
  /** The cell's bounds, to zoom into it. */
  readonly bbox: BBox;
  /** Category columns: the most frequent value; number columns: the mean. */
  readonly color: MapColorValue;
  /** The `_id` of one row in the bin (a bin of one row opens it). */
  readonly first_id: number;
}

export interface MapPointsResult {
  readonly resource_id: string;
  /** The columns used, detected by name and range unless given; null when none fit. */
  readonly lat_field: string | null;
  readonly lon_field: string | null;
  readonly geometry_field: string | null;
  /** Columns that could hold coordinates, for the user to choose. */
  readonly candidates: { readonly lat: readonly string[]; readonly lon: readonly string[]; readonly geometry: readonly string[] };
  /** Rows the search selects, and of those the ones with a usable position (inside `bbox` if given). */
  readonly rows: number;
  readonly located: number;
  /** Bounds of the located rows; null when there are none. */
  readonly extent: BBox | null;
  readonly mode: 'points' | 'bins';
  readonly points: readonly MapPoint[];
  readonly bins: readonly MapBin[];
  readonly color_field: string | null;
  readonly color_kind: 'category' | 'number' | null;
  /** Category colours: the most frequent values first (the others are grouped as null). */
  readonly color_values: readonly { readonly value: MapColorValue; readonly count: number }[];
}
