/**
 * The house's layers (docs/architecture.md §2), checked on the real import graph of `src/`
 * (test/helpers/import-graph.ts reads it with TypeScript's parser): every import goes to its
 * own area or one below it, never back up; callers outside the engine reach it through
 * engine-api.ts (types and calls) and importer-api.ts (building blocks) only; and no two files
 * need each other at run time (a circle of type-only imports is harmless: nothing of it exists
 * when the code runs).
 */
import { describe, expect, it } from 'vitest';
import { importGraph, runtimeCircles, type ImportEdge } from '../helpers/import-graph';
import { ROOT } from '../helpers/deskstore-process';

/** Areas of src/main from the top (the composition roots) down; an import may only go down or stay. */
const MAIN_LAYERS: readonly (readonly string[])[] = [
  ['index.ts', 'security.ts', 'windows', 'ipc'],
  ['cli.ts', 'cli'],
  ['app'],
  ['server'],
  ['actions'],
  ['jobs'],
  ['portal'],
  ['params'],
  ['importer'],
  ['engine'],
  ['storage'],
  ['util', 'errors.ts', 'logger.ts'],
];
const SHARED_RANK = MAIN_LAYERS.length;

/** Where a file sits: its area and that area's rank (0 at the top). */
function placeOf(path: string): { area: string; rank: number } {
  if (path.startsWith('src/shared/')) return { area: 'shared', rank: SHARED_RANK };
  if (path.startsWith('src/renderer/')) return { area: 'renderer', rank: -1 };
  if (path.startsWith('src/preload/')) return { area: 'preload', rank: -1 };
  const inMain = path.replace(/^src\/main\//, '');
  const area = inMain.includes('/') ? inMain.slice(0, inMain.indexOf('/')) : inMain;
  const rank = MAIN_LAYERS.findIndex((layer) => layer.includes(area));
  if (rank < 0) throw new Error(`${path}: src/main/${area} is in no layer of this test: place it`);
  return { area, rank };
}

/** The engine modules callers outside it may import (eslint.config.js says the same). */
const ENGINE_DOORS = new Set(['src/main/engine/engine-api.ts', 'src/main/engine/importer-api.ts']);
/** Who must use those doors; the composition roots (app, cli) assemble the engine itself. */
const THROUGH_DOORS = new Set(['actions', 'params', 'jobs', 'portal', 'importer', 'server']);

const edges = importGraph(ROOT, ['src']);
const show = (e: ImportEdge) => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`;

describe('the import layers of src/', () => {
  it('reads the whole graph', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.typeOnly)).toBe(true);
  });

  it('has no import that runs back up', () => {
    const upward = edges.filter((e) => {
      const from = placeOf(e.from);
      const to = placeOf(e.to);
      if (from.area === 'renderer') return to.area !== 'renderer' && to.area !== 'shared';
      if (from.area === 'preload') return to.area !== 'preload' && to.area !== 'shared';
      if (to.rank < 0) return true; // nothing outside the renderer and preload imports them
      return to.rank < from.rank;
    });
    expect(upward.map(show)).toEqual([]);
  });

  it('reaches the engine from outside only through engine-api.ts and importer-api.ts', () => {
    const around = edges.filter(
      (e) => THROUGH_DOORS.has(placeOf(e.from).area) && e.to.startsWith('src/main/engine/') && !ENGINE_DOORS.has(e.to),
    );
    expect(around.map(show)).toEqual([]);
  });

  it('has no import circle outside type-only imports', () => {
    expect(runtimeCircles(edges)).toEqual([]);
  });
});

describe('the circle finder', () => {
  it('finds a run-time circle and ignores one closed by a type-only import', () => {
    const e = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });
    expect(runtimeCircles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(runtimeCircles([e('a', 'b'), e('b', 'a', true)])).toEqual([]);
  });
});
