import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { navigate, resourcePath } from '../../router';
import { ApiPanel } from '../api-panel/ApiPanel';
import { resourceTitle } from '../catalogue/catalogue-filter';
import { ExportPanel } from '../export/ExportPanel';
import { ChartView } from '../chart/ChartView';
import { MapView } from '../map/MapView';
import { ProfilePanel } from '../profile/ProfilePanel';
import { ColumnsPanel } from './ColumnsPanel';
import { ConditionChips } from './ConditionChips';
import { ConditionsPanel } from './ConditionsPanel';
import { DataGrid } from './DataGrid';
import { FilterChips } from './FilterChips';
import { FilterPanel } from './FilterPanel';
import { RowPageStore } from './row-pages';
import { SearchBox } from './SearchBox';
import { CopyButton } from '../../components/CopyButton';
import { SearchLanguageNote } from './SearchLanguageNote';
import { modeFromQuery, ViewSwitch, type TableMode } from './ViewSwitch';
import { loadLayout, moveColumn, orderFields, saveLayout, type ColumnLayout } from './column-layout';
import { sqlPath, rowPath } from '../../router';
import { nextSort, viewFromQuery, viewToQuery, visibleFieldIds, type FilterChoice, type SearchShape, type ViewState } from './view-state';

const API_PAGE = 100;

function shapeKeyOf(resourceId: string, view: ViewState, fields: readonly DatastoreField[], attempt: number): string {
  return JSON.stringify({ resourceId, view, allFields: fields.map((f) => f.id), attempt });
}

function parseShapeKey(key: string): SearchShape | null {
  return key ? (JSON.parse(key) as SearchShape) : null;
}

type Panel = 'api' | 'columns' | 'export' | 'filter' | 'conditions' | 'profile' | null;
const PANELS: readonly Panel[] = ['api', 'columns', 'export', 'filter', 'conditions', 'profile'];
/** Panels about one column keep it in the URL (`field=`). */
const withField = (panel: Panel) => panel === 'filter' || panel === 'profile';

export function TablePage({ resourceId, query }: { readonly resourceId: string; readonly query: URLSearchParams }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryText = query.toString();
  const view = useMemo(() => viewFromQuery(new URLSearchParams(queryText)), [queryText]);
  const rawPanel = query.get('panel');
  const panel: Panel = PANELS.find((p) => p === rawPanel) ?? null;
  const filterField = withField(panel) ? query.get('field') : null;
  const mode = modeFromQuery(query);

  const meta = useAsync(`meta:${resourceId}`, async (signal) => {
    const [resource, schema] = await Promise.all([
      api.resourceShow(resourceId, { signal }),
      api.datastoreSearch(
        [
          ['resource_id', resourceId],
          ['limit', '0'],
        ],
        { signal },
      ),
    ]);
    return { resource, fields: schema.fields, total: schema.total ?? 0 };
  });
  const dataset = useAsync(`pkg:${meta.data?.resource.package_id ?? ''}`, (signal) =>
    meta.data ? api.packageShow(meta.data.resource.package_id, { signal }) : Promise.resolve(null),
  );

  const allFields = meta.data?.fields ?? [];
  const allIds = allFields.map((f) => f.id);
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

  const title = meta.data ? resourceTitle(meta.data.resource) : '';
  useDocumentTitle(title || t('table.title'));

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
  const setView = (patch: Partial<ViewState>) => go({ ...view, ...patch }, panel, filterField, { step: 'view' });
  const openPanel = (next: Panel, field?: string) => {
    const same = next === panel && (!withField(next) || field === undefined || field === filterField);
    go(view, same ? null : next, field);
  };
  const commitSearch = useCallback(
    (q: string) => go({ ...view, q }, panel, filterField, { step: 'search' }),
    [go, view, panel, filterField],
  );

  if (meta.error !== undefined) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>{t('table.title')}</h1>
        <ErrorNotice error={meta.error} onRetry={meta.reload} />
        <a href="#/">{t('nav.backToCatalogue')}</a>
      </div>
    );
  }
  if (!meta.data || !shape || !store)
    return (
      <div className="page" role="status">
        {t('common.loading')}
      </div>
    );

  const visibleIds = new Set(visibleFieldIds(allIds, view.hidden));
  const gridFields: readonly DatastoreField[] = orderFields(
    allFields.filter((f) => visibleIds.has(f.id)),
    layout.order,
  );
  const filterTarget = filterField ? (allFields.find((f) => f.id === filterField) ?? null) : null;
  const matching = store.total;
  const conditions = view.conditions ?? [];
  const filtered = Object.keys(view.filters).length > 0 || view.q.trim() !== '' || conditions.length > 0;
  const hiddenCount = view.hidden.filter((h) => allIds.includes(h)).length;

  return (
    <div className="page table-page">
      <div className="table-head">
        <nav aria-label={t('table.breadcrumb')} className="breadcrumb">
          <a href="#/">{t('nav.catalogue')}</a>
          <span aria-hidden="true"> › </span>
          <span>{dataset.data?.title || dataset.data?.name || ''}</span>
        </nav>
        <h1 tabIndex={-1}>{title}</h1>
        <SearchLanguageNote resource={meta.data.resource} />
        <p className="counts" role="status" aria-live="polite" data-testid="row-counts">
          {matching === null
            ? t('common.loading')
            : filtered
              ? t('table.countFiltered', {
                  count: matching,
                  matching: formatCount(matching, locale),
                  total: formatCount(meta.data.total, locale),
                })
              : t('table.count', { count: meta.data.total, total: formatCount(meta.data.total, locale) })}
          {' · '}
          {t('table.columnCount', {
            count: gridFields.length - 1,
            n: formatCount(gridFields.length - 1, locale),
            total: allFields.length - 1,
          })}
        </p>
      </div>
      <div className="toolbar">
        <SearchBox key={resourceId} value={view.q} onCommit={commitSearch} />
        <div className="toolbar-buttons">
          <ViewSwitch mode={mode} onMode={(m) => go(view, panel, filterField, { mode: m, step: 'view' })} />
          <button
            type="button"
            className="button"
            aria-pressed={panel === 'conditions'}
            onClick={() => openPanel('conditions')}
            data-testid="open-conditions"
          >
            {conditions.length ? t('conditions.buttonActive', { count: conditions.length }) : t('conditions.button')}
          </button>
          <button
            type="button"
            className="button"
            aria-pressed={panel === 'profile'}
            onClick={() => openPanel('profile')}
            data-testid="open-profile"
          >
            {t('profile.button')}
          </button>
          <a className="button" href={`#${sqlPath(resourceId)}`} data-testid="open-sql">
            {t('sql.button')}
          </a>
          <button
            type="button"
            className="button"
            aria-pressed={panel === 'columns'}
            onClick={() => openPanel('columns')}
            data-testid="open-columns"
          >
            {hiddenCount > 0 ? t('columns.buttonHidden', { count: hiddenCount }) : t('columns.button')}
          </button>
          <button
            type="button"
            className="button"
            aria-pressed={panel === 'export'}
            onClick={() => openPanel('export')}
            data-testid="open-export"
          >
            {t('export.button')}
          </button>
          <button type="button" className="button" aria-pressed={panel === 'api'} onClick={() => openPanel('api')} data-testid="open-api">
            {t('apiPanel.button')}
          </button>
          <CopyButton
            text={window.location.href}
            label={t('table.copyLinkLabel')}
            caption={t('table.copyLink')}
            className="button"
            testId="copy-link"
          />
        </div>
      </div>
      <FilterChips
        view={view}
        fields={allFields}
        onRemove={(field) => {
          const filters = { ...view.filters };
          delete filters[field];
          setView({ filters });
        }}
        onEdit={(field) => openPanel('filter', field)}
        onClearAll={() => go({ ...view, q: '', filters: {}, conditions: [] }, panel === 'filter' ? null : panel, null, { step: 'view' })}
      />
      <ConditionChips
        conditions={conditions}
        fields={allFields}
        onRemove={(index) => setView({ conditions: conditions.filter((_, i) => i !== index) })}
        onEdit={() => {
          if (panel !== 'conditions') openPanel('conditions');
        }}
      />
      {store.error !== null && <ErrorNotice error={store.error} onRetry={() => setAttempt((n) => n + 1)} />}
      <div className={panel ? 'table-main with-panel' : 'table-main'}>
        {mode === 'chart' && <ChartView shape={shape} fields={allFields} title={title} />}
        {mode === 'map' && <MapView shape={shape} fields={allFields} onOpenRow={(rowId) => navigate(rowPath(resourceId, rowId))} />}
        {mode === 'table' && (
          <DataGrid
            store={store}
            fields={gridFields}
            sort={view.sort}
            filters={view.filters}
            openFilter={filterField}
            label={t('table.gridLabel', { name: title })}
            onSort={(field, add) => setView({ sort: nextSort(view.sort, field, add) })}
            onFilter={(field) => openPanel('filter', field)}
            onTopRow={setTopRow}
            layout={layout}
            onResize={(field, width, done) => setLayout({ ...layout, widths: { ...layout.widths, [field]: width } }, done)}
            onMove={(field, target) =>
              setLayout({
                ...layout,
                order: moveColumn(
                  orderFields(allFields, layout.order).map((f) => f.id),
                  field,
                  target,
                ),
              })
            }
            onOpenRow={(record) => {
              if (typeof record._id === 'number') navigate(rowPath(resourceId, record._id), viewToQuery(view));
            }}
          />
        )}
        {panel === 'conditions' && (
          <ConditionsPanel
            fields={allFields}
            conditions={conditions}
            onChange={(next) => setView({ conditions: next })}
            onClose={() => go(view, null)}
          />
        )}
        {panel === 'profile' && (
          <ProfilePanel
            shape={shape}
            fields={allFields}
            field={filterField}
            onField={(field) => go(view, 'profile', field)}
            onClose={() => go(view, null)}
          />
        )}
        {panel === 'filter' && filterTarget && (
          <FilterPanel
            key={filterTarget.id}
            shape={shape}
            field={filterTarget}
            selected={view.filters[filterTarget.id] ?? []}
            onChange={(values: FilterChoice[]) => {
              const filters = { ...view.filters, [filterTarget.id]: values };
              if (values.length === 0) delete filters[filterTarget.id];
              setView({ filters });
            }}
            onClose={() => go(view, null)}
          />
        )}
        {panel === 'columns' && (
          <ColumnsPanel
            fields={allFields}
            hidden={view.hidden}
            onChange={(hidden) => setView({ hidden })}
            onClose={() => go(view, null)}
            frozen={layout.frozen}
            onFrozen={(frozen) => setLayout({ ...layout, frozen })}
            onResetLayout={() => setLayout({ widths: {}, order: [], frozen: 0 })}
          />
        )}
        {panel === 'export' && <ExportPanel shape={shape} rows={matching} fileBase={title} onClose={() => go(view, null)} />}
        {panel === 'api' && (
          <ApiPanel shape={shape} resource={meta.data.resource} limit={API_PAGE} offset={topRow} onClose={() => go(view, null)} />
        )}
      </div>
    </div>
  );
}
