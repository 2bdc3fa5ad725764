import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField, DatastoreRecord } from '../../../../shared/wire/search';
import { CHANGE_KINDS, type ChangeKind } from '../../../../shared/wire/versions';
import { paramPairs, queryString } from '../../api/urls';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell } from '../../format/cell';
import { formatCount } from '../../format/number';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { hrefFor, resourcePath } from '../../router';
import { resourceTitle } from '../catalogue/catalogue-filter';
import { ExportPanel } from '../export/ExportPanel';
import { DataGrid, type DecorateCell } from '../table/DataGrid';
import { fileOptionPairs } from '../table/view-state';
import { ChangesApiPanel } from './ChangesApiPanel';
import { sinceText } from './change-words';
import { useChangesPage, type ChangesPageState } from './use-changes-page';
import { VersionPicker } from './VersionPicker';

/**
 * What changed between two kept versions of a resource (`#/resource/<id>/changes`), in the
 * table's grid: a row per added, removed or changed row, its kind in a column of its own,
 * changed cells marked, their old value shown on hover or when the cell is active (and read
 * out with it); filtered by kind, two versions picked, exported and shown as an API call like
 * any view (state in use-changes-page.ts).
 */
export function ChangesPage({ resourceId, query }: { readonly resourceId: string; readonly query: URLSearchParams }) {
  const { t } = useTranslation();
  const page = useChangesPage(resourceId, query);
  const { resource, versions, facts } = page;
  const title = resource.data ? resourceTitle(resource.data) : '';
  useDocumentTitle(t('changes.documentTitle', { name: title || t('table.title') }));

  if (resource.error !== undefined) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>{t('changes.heading')}</h1>
        <ErrorNotice error={resource.error} onRetry={resource.reload} />
        <a href="#/">{t('nav.backToCatalogue')}</a>
      </div>
    );
  }
  const since = facts ? versions.data?.versions.find((v) => v.version === facts.from)?.created : undefined;
  const fields: DatastoreField[] = facts
    ? [facts.fields[0]!, { id: '_change', type: 'text', info: { label: t('changes.kindColumn') } }, ...facts.fields.slice(1)]
    : [];
  return <ChangesView page={page} title={title} since={since} fields={fields} resourceId={resourceId} />;
}

interface ViewProps {
  readonly page: ChangesPageState;
  readonly title: string;
  readonly since: string | undefined;
  readonly fields: readonly DatastoreField[];
  readonly resourceId: string;
}

function ChangesView({ page, title, since, fields, resourceId }: ViewProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { versions, facts, store, view, panel } = page;
  const decorate = useDecoration(fields);
  const tableHref = hrefFor(resourcePath(resourceId));
  return (
    <div className="page table-page changes-page">
      <div className="table-head">
        <nav aria-label={t('table.breadcrumb')} className="breadcrumb">
          <a href="#/">{t('nav.catalogue')}</a>
          <span aria-hidden="true"> › </span>
          <a href={tableHref}>{title}</a>
        </nav>
        <h1 tabIndex={-1}>{t('changes.title', { name: title })}</h1>
        <p className="counts" role="status" aria-live="polite" data-testid="changes-counts">
          {facts && since !== undefined ? sinceText(t, facts.counts, since, locale) : store.error === null ? t('changes.comparing') : ''}
        </p>
        {facts && (
          <p className="muted small" data-testid="changes-key">
            {facts.key === 'row'
              ? t('changes.matchedWhole')
              : t(`changes.matchedBy.${facts.keyReason ?? 'given'}`, { columns: facts.key.join(', ') })}
          </p>
        )}
      </div>
      <ChangesToolbar page={page} tableHref={tableHref} />
      {store.error !== null && <ErrorNotice error={store.error} onRetry={page.retry} />}
      <div className={panel ? 'table-main with-panel' : 'table-main'}>
        {facts && (
          <DataGrid
            store={store}
            fields={fields}
            sort={[]}
            filters={{}}
            openFilter={null}
            onSort={() => undefined}
            decorate={decorate}
            label={t('changes.gridLabel', { name: title })}
          />
        )}
        {panel === 'export' && facts && (
          <ExportPanel
            rows={store.total}
            onClose={page.closePanel}
            target={{
              suggestedName: t('changes.fileName', { name: title, from: facts.from, to: facts.to }),
              href: (format, options) => {
                const { resource_id: _resource, ...selection } = page.params;
                const pairs = [...fileOptionPairs(format, options), ...paramPairs(selection)];
                return `/datastore/changes/${encodeURIComponent(resourceId)}?${queryString(pairs)}`;
              },
            }}
          />
        )}
        {panel === 'api' && <ChangesApiPanel params={{ ...page.params, limit: 100, offset: 0 }} onClose={page.closePanel} />}
      </div>
      {versions.data && facts && view.change === null && store.total === 0 && (
        <p className="muted" data-testid="no-changes">
          {t('changes.none')}
        </p>
      )}
    </div>
  );
}

/** The versions compared, the kind of change shown, and the view's buttons. */
function ChangesToolbar({ page, tableHref }: { readonly page: ChangesPageState; readonly tableHref: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { facts, versions, view, panel } = page;
  const kinds: (ChangeKind | null)[] = [null, ...CHANGE_KINDS];
  const countOf = (kind: ChangeKind | null) =>
    facts ? (kind ? facts.counts[kind] : facts.counts.added + facts.counts.removed + facts.counts.changed) : null;
  return (
    <div className="toolbar changes-toolbar">
      {versions.data && facts && (
        <VersionPicker versions={versions.data.versions} from={facts.from} to={facts.to} onChange={page.setVersions} />
      )}
      <div className="toolbar-buttons">
        <div role="group" aria-label={t('changes.kindFilter')} className="segmented" data-testid="change-kinds">
          {kinds.map((kind) => {
            const count = countOf(kind);
            return (
              <button
                key={kind ?? 'all'}
                type="button"
                className="button"
                aria-pressed={view.change === kind}
                onClick={() => page.setChange(kind)}
                data-testid={`kind-${kind ?? 'all'}`}
              >
                {t(`changes.filter.${kind ?? 'all'}`)}
                {count !== null && <span className="badge">{formatCount(count, locale)}</span>}
              </button>
            );
          })}
        </div>
        <button
          type="button"
          className="button"
          aria-pressed={panel === 'export'}
          onClick={() => page.togglePanel('export')}
          data-testid="open-export"
        >
          {t('export.button')}
        </button>
        <button
          type="button"
          className="button"
          aria-pressed={panel === 'api'}
          onClick={() => page.togglePanel('api')}
          data-testid="open-api"
        >
          {t('apiPanel.button')}
        </button>
        <CopyButton
          text={window.location.href}
          label={t('table.copyLinkLabel')}
          caption={t('table.copyLink')}
          className="button"
          testId="copy-link"
        />
        <a className="button" href={tableHref} data-testid="back-to-table">
          {t('changes.backToTable')}
        </a>
      </div>
    </div>
  );
}

/** Each cell's look: the kind in words, added and removed rows tinted, a changed cell with its old value. */
function useDecoration(fields: readonly DatastoreField[]): DecorateCell {
  const { t } = useTranslation();
  const locale = useLocale();
  const types = new Map(fields.map((f) => [f.id, f.type]));
  return useCallback<DecorateCell>(
    (record: DatastoreRecord, fieldId: string) => {
      const kind = record._change as ChangeKind | undefined;
      if (!kind) return undefined;
      if (fieldId === '_change') return { text: t(`changes.kind.${kind}`), className: `change-kind change-${kind}` };
      if (kind !== 'changed') return { className: `cell-${kind}` };
      const before = record._before as Record<string, unknown> | undefined;
      if (!before || !Object.hasOwn(before, fieldId)) return undefined;
      const old = before[fieldId];
      const text =
        old === null || old === undefined || old === ''
          ? t('changes.emptyValue')
          : formatCell(old, types.get(fieldId) ?? 'text', locale, { yes: t('common.yes'), no: t('common.no') });
      return { className: 'cell-changed', before: t('changes.before', { value: text }) };
    },
    // the types change with the columns compared
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, locale, fields],
  );
}
