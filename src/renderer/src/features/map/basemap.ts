/**
 * The offline basemap: country outlines from Natural Earth (1:50m) as packaged by the
 * `world-atlas` npm package (ISC; the data is public domain), bundled with the app and
 * loaded on first use. No tiles, no network.
 */
import type { FeatureCollection, MultiLineString } from 'geojson';

export interface Basemap {
  readonly countries: FeatureCollection;
  readonly borders: MultiLineString;
}

let loading: Promise<Basemap> | null = null;

export function loadBasemap(): Promise<Basemap> {
  loading ??= (async () => {
    const [{ feature, mesh }, world] = await Promise.all([import('topojson-client'), import('world-atlas/countries-50m.json')]);
    // world-atlas ships untyped JSON: its shape is TopoJSON with a `countries` object
    const topology = (world as { default?: unknown }).default ?? world;
    const topo = topology as Parameters<typeof feature>[0] & { objects: { countries: Parameters<typeof feature>[1] } };
    return {
      countries: feature(topo, topo.objects.countries) as FeatureCollection,
      borders: mesh(topo, topo.objects.countries as Parameters<typeof mesh>[1], (a, b) => a !== b),
    };
  })();
  return loading;
}
