import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../../format/number';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { navigate, rowPath } from '../../router';
import { ApiPanel } from '../api-panel/ApiPanel';
import { resourceTitle } from '../catalogue/catalogue-filter';
import { ChangesSummary } from '../changes/ChangesSummary';
import { ChartView } from '../chart/ChartView';
import { ExportPanel } from '../export/ExportPanel';
import { ImportReportDetails } from '../import/ImportReport';
import { MapView } from '../map/MapView';
import { ProfilePanel } from '../profile/ProfilePanel';
import { ColumnsPanel } from './ColumnsPanel';
import { ConditionChips } from './ConditionChips';
import { ConditionsPanel } from './ConditionsPanel';
import { isComplete } from './conditions';
import { DataGrid } from './DataGrid';
import { FilterChips } from './FilterChips';
import { FilterPanel } from './FilterPanel';
import { SearchLanguageNote } from './SearchLanguageNote';
import { TableToolbar } from './TableToolbar';
import { moveColumn, orderFields } from './column-layout';
import { useTablePage } from './use-table-page';
import { nextSort, viewToQuery, visibleFieldIds, type FilterChoice } from './view-state';

const API_PAGE = 100;

/** A resource's rows as a table, chart or map, with its search, filters, conditions and panels (state in use-table-page.ts). */
export function TablePage({ resourceId, query }: { readonly resourceId: string; readonly query: URLSearchParams }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const page = useTablePage(resourceId, query);
  const searchHelpId = useId();
  const { meta, dataset, view, panel, panelField, mode, shape, store, layout, setLayout, setView } = page;
  const title = meta.data ? resourceTitle(meta.data.resource) : '';
  useDocumentTitle(title || t('table.title'));

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

  const allFields = meta.data.fields;
  const allIds = allFields.map((f) => f.id);
  const visibleIds = new Set(visibleFieldIds(allIds, view.hidden));
  const gridFields: readonly DatastoreField[] = orderFields(
    allFields.filter((f) => visibleIds.has(f.id)),
    layout.order,
  );
  const filterTarget = panelField ? (allFields.find((f) => f.id === panelField) ?? null) : null;
  const matching = store.total;
  const conditions = view.conditions ?? [];
  // a condition still being typed (or refused) narrows nothing: the counts say so
  const filtered = Object.keys(view.filters).length > 0 || view.q.trim() !== '' || conditions.some(isComplete);
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
        <SearchLanguageNote resource={meta.data.resource} helpId={searchHelpId} />
        <ImportReportDetails source={meta.data.resource.deskstore?.source} />
        <ChangesSummary resource={meta.data.resource} />
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
      <TableToolbar resourceId={resourceId} page={page} hiddenCount={hiddenCount} searchHelpId={searchHelpId} />
      <FilterChips
        view={view}
        fields={allFields}
        onRemove={(field) => {
          const filters = { ...view.filters };
          delete filters[field];
          setView({ filters });
        }}
        onEdit={(field) => page.togglePanel('filter', field)}
        onClearAll={() => page.goView({ ...view, q: '', filters: {}, conditions: [] }, panel === 'filter' ? null : panel)}
      />
      <ConditionChips
        conditions={conditions}
        fields={allFields}
        onRemove={(index) => setView({ conditions: conditions.filter((_, i) => i !== index) })}
        onEdit={() => {
          if (panel !== 'conditions') page.togglePanel('conditions');
        }}
      />
      {store.error !== null && <ErrorNotice error={store.error} onRetry={page.retry} />}
      <div className={panel ? 'table-main with-panel' : 'table-main'}>
        {mode === 'chart' && <ChartView shape={shape} fields={allFields} title={title} />}
        {mode === 'map' && <MapView shape={shape} fields={allFields} onOpenRow={(rowId) => navigate(rowPath(resourceId, rowId))} />}
        {mode === 'table' && (
          <DataGrid
            store={store}
            fields={gridFields}
            sort={view.sort}
            filters={view.filters}
            openFilter={panelField}
            label={t('table.gridLabel', { name: title })}
            onSort={(field, add) => setView({ sort: nextSort(view.sort, field, add) })}
            onFilter={(field) => page.togglePanel('filter', field)}
            onTopRow={page.setTopRow}
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
            onClose={page.closePanel}
          />
        )}
        {panel === 'profile' && (
          <ProfilePanel
            shape={shape}
            fields={allFields}
            field={panelField}
            onField={(field) => page.showPanel('profile', field)}
            onClose={page.closePanel}
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
            onClose={page.closePanel}
          />
        )}
        {panel === 'columns' && (
          <ColumnsPanel
            fields={allFields}
            hidden={view.hidden}
            onChange={(hidden) => setView({ hidden })}
            onClose={page.closePanel}
            frozen={layout.frozen}
            onFrozen={(frozen) => setLayout({ ...layout, frozen })}
            onResetLayout={() => setLayout({ widths: {}, order: [], frozen: 0 })}
          />
        )}
        {panel === 'export' && <ExportPanel shape={shape} rows={matching} fileBase={title} onClose={page.closePanel} />}
        {panel === 'api' && (
          <ApiPanel shape={shape} resource={meta.data.resource} limit={API_PAGE} offset={page.topRow} onClose={page.closePanel} />
        )}
      </div>
    </div>
  );
}
