import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { PackageDict, ResourceDict } from '../../../../shared/wire/catalogue';
import type { DatastoreField } from '../../../../shared/wire/search';
import { call } from '../../api/client';
import { useAsync, type AsyncResult } from '../../hooks/use-async';
import { navigate, resourcePath } from '../../router';
import { loadLayout, saveLayout, type ColumnLayout } from './column-layout';
import { RowPageStore } from './row-pages';
import { modeFromQuery, type TableMode } from './ViewSwitch';
import { viewFromQuery, viewToQuery, type SearchShape, type ViewState } from './view-state';

export type Panel = 'api' | 'columns' | 'export' | 'filter' | 'conditions' | 'profile' | null;
const PANELS: readonly Panel[] = ['api', 'columns', 'export', 'filter', 'conditions', 'profile'];
/** Panels about one column keep it in the URL (`field=`). */
const withField = (panel: Panel) => panel === 'filter' || panel === 'profile';

function shapeKeyOf(resourceId: string, view: ViewState, fields: readonly DatastoreField[], attempt: number): string {
  return JSON.stringify({ resourceId, view, allFields: fields.map((f) => f.id), attempt });
}

function parseShapeKey(key: string): SearchShape | null {
  return key ? (JSON.parse(key) as SearchShape) : null;
}

export interface TableMeta {
  readonly resource: ResourceDict;
  readonly fields: readonly DatastoreField[];
  /** Rows in the table, before any search. */
  readonly total: number;
}

export interface TablePageState {
  readonly meta: AsyncResult<TableMeta>;
  readonly dataset: AsyncResult<PackageDict | null>;
  /** What the address says the table shows. */
  readonly view: ViewState;
  readonly panel: Panel;
  /** The column of the filter or profile panel. */
  readonly panelField: string | null;
  readonly mode: TableMode;
  /** The query of the current view and its row pages (null until the columns are known). */
  readonly shape: SearchShape | null;
  readonly store: RowPageStore | null;
  /** Ask the same query again (after an error). */
  readonly retry: () => void;
  /** The first row in view, for the API panel's offset. */
  readonly topRow: number;
  readonly setTopRow: (row: number) => void;
  readonly layout: ColumnLayout;
  /** A new layout; `persist: false` while a column is being dragged. */
  readonly setLayout: (next: ColumnLayout, persist?: boolean) => void;
  /** A change of what the table shows: one history step. */
  readonly setView: (patch: Partial<ViewState>) => void;
  /** Like setView, with the panel closed or changed at the same time. */
  readonly goView: (next: ViewState, panel: Panel) => void;
  readonly setMode: (mode: TableMode) => void;
  /** Opens a panel (for `field`), or closes it when it is already open. */
  readonly togglePanel: (panel: Panel, field?: string) => void;
  readonly showPanel: (panel: Panel, field?: string | null) => void;
  readonly closePanel: () => void;
  readonly commitSearch: (q: string) => void;
}

/**
 * The table page's state, kept in the address: the view (search, filters, conditions, sort,
 * hidden columns), the open panel and its column, table/chart/map; the resource's metadata,
 * the row pages of the current query and the column layout kept per resource.
 */
export function useTablePage(resourceId: string, query: URLSearchParams): TablePageState {
  const queryText = query.toString();
  const view = useMemo(() => viewFromQuery(new URLSearchParams(queryText)), [queryText]);
  const rawPanel = query.get('panel');
  const panel: Panel = PANELS.find((p) => p === rawPanel) ?? null;
  const panelField = withField(panel) ? query.get('field') : null;
  const mode = modeFromQuery(query);

  const meta = useAsync(`meta:${resourceId}`, async (signal) => {
    const [resource, schema] = await Promise.all([
      call('resource_show', { id: resourceId }, { signal }),
      call('datastore_search', { resource_id: resourceId, limit: 0 }, { signal }),
    ]);
    return { resource, fields: schema.fields, total: schema.total ?? 0 };
  });
  const dataset = useAsync(`pkg:${meta.data?.resource.package_id ?? ''}`, (signal) =>
    meta.data ? call('package_show', { id: meta.data.resource.package_id }, { signal }) : Promise.resolve(null),
  );

  // One store per query (and per retry): memoized on a string key, so equal queries share it.
  const [attempt, setAttempt] = useState(0);
  const shapeKey = meta.data ? shapeKeyOf(resourceId, view, meta.data.fields, attempt) : '';
  const shape = useMemo(() => parseShapeKey(shapeKey), [shapeKey]);
  const store = useMemo(() => (shape ? new RowPageStore(shape) : null), [shape]);
  useEffect(() => {
    if (!store) return undefined;
    store.start();
    return () => store.dispose();
  }, [store]);
  const emptyStore = useMemo(() => ({ subscribe: () => () => undefined, getVersion: () => 0 }), []);
  useSyncExternalStore(store?.subscribe ?? emptyStore.subscribe, store?.getVersion ?? emptyStore.getVersion);
  const [topRow, setTopRow] = useState(0);
  // Widths, order and frozen columns the user chose for this resource (column-layout.ts).
  const [layout, setLayoutState] = useState<ColumnLayout>(() => loadLayout(resourceId));
  const setLayout = useCallback(
    (next: ColumnLayout, persist = true) => {
      setLayoutState(next);
      if (persist) saveLayout(resourceId, next);
    },
    [resourceId],
  );

  // A change of what the table shows is a history step (Back undoes it; the search box's
  // refinements are one step); opening or closing a panel only rewrites the address.
  const go = useCallback(
    (
      next: ViewState,
      nextPanel: Panel,
      field?: string | null,
      options: { readonly step?: 'search' | 'view'; readonly mode?: TableMode } = {},
    ) => {
      const nextMode = options.mode ?? mode;
      const extra: Record<string, string> = {};
      if (nextMode !== 'table') extra.view = nextMode;
      if (nextPanel) extra.panel = nextPanel;
      if (withField(nextPanel) && field) extra.field = field;
      const step = options.step;
      navigate(resourcePath(resourceId), viewToQuery(next, extra), step ? { step, merge: step === 'search' } : { replace: true });
    },
    [resourceId, mode],
  );
  const commitSearch = useCallback((q: string) => go({ ...view, q }, panel, panelField, { step: 'search' }), [go, view, panel, panelField]);

  return {
    meta,
    dataset,
    view,
    panel,
    panelField,
    mode,
    shape,
    store,
    retry: () => setAttempt((n) => n + 1),
    topRow,
    setTopRow,
    layout,
    setLayout,
    setView: (patch) => go({ ...view, ...patch }, panel, panelField, { step: 'view' }),
    goView: (next, nextPanel) => go(next, nextPanel, null, { step: 'view' }),
    setMode: (m) => go(view, panel, panelField, { mode: m, step: 'view' }),
    togglePanel: (next, field) => {
      const same = next === panel && (!withField(next) || field === undefined || field === panelField);
      go(view, same ? null : next, field);
    },
    showPanel: (next, field) => go(view, next, field),
    closePanel: () => go(view, null),
    commitSearch,
  };
}
