import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { toApiError } from '../../api/errors';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { hrefFor, navigate, resourcePath, sqlPath } from '../../router';
import { resourceTitle } from '../catalogue/catalogue-filter';
import { download } from '../chart/render-plot';
import { columnLabel } from '../table/columns';
import { DataGrid } from '../table/DataGrid';
import { StaticRowSource } from '../table/row-source';
import { rowsAsTsv } from '../table/tsv';
import { CKAN_ALLOWED_FUNCTIONS } from '../../../../shared/ckan-sql-functions';
import { sqlErrorText } from './sql-errors';
import { quoteSqlName, sqlExamples } from './sql-examples';

interface Props {
  readonly resourceId: string;
  readonly query: URLSearchParams;
}

/** `_full_text` (CKAN's internal search column, which `SELECT *` includes) after every other column. */
function fullTextLast<F extends { readonly id: string }>(fields: readonly F[]): F[] {
  return [...fields.filter((f) => f.id !== '_full_text'), ...fields.filter((f) => f.id === '_full_text')];
}

function csvOf(columns: readonly string[], rows: readonly Readonly<Record<string, unknown>>[]): string {
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return '';
    const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${[columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n')}\r\n`;
}

/**
 * datastore_search_sql on a screen: an editor with the resource's columns at hand and example
 * queries, results in the table's virtual grid, errors in the user's language, the query in
 * the URL (`?sql=`), the result as CSV or copied as TSV.
 */
export function SqlPage({ resourceId, query }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const sql = query.get('sql') ?? '';
  const [draft, setDraft] = useState(sql);
  const editor = useRef<HTMLTextAreaElement>(null);
  const meta = useAsync(`sqlmeta:${resourceId}`, async (signal) => {
    const [resource, schema, status] = await Promise.all([
      call('resource_show', { id: resourceId }, { signal }),
      call('datastore_search', { resource_id: resourceId, limit: 0, include_total: false }, { signal }),
      call('status_show', {}, { signal }),
    ]);
    return { resource, fields: schema.fields, functions: status.deskstore_sql_functions ?? 'ckan' };
  });
  const result = useAsync(`sql:${sql}`, (signal) =>
    sql.trim() ? call('datastore_search_sql', { sql }, { signal }) : Promise.resolve(null),
  );
  const title = meta.data ? resourceTitle(meta.data.resource) : '';
  useDocumentTitle(t('sql.documentTitle', { name: title || t('table.title') }));
  const fields = meta.data?.fields ?? [];
  const examples = sqlExamples(resourceId, fields);
  const run = (text = draft) => navigate(sqlPath(resourceId), new URLSearchParams([['sql', text]]), { replace: false });
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  };
  const insert = (text: string) => {
    const el = editor.current;
    if (!el) return;
    const start = el.selectionStart;
    const next = `${draft.slice(0, start)}${text}${draft.slice(el.selectionEnd)}`;
    setDraft(next);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(start + text.length, start + text.length);
    });
  };
  // a new query's error replaces the previous result: no old rows under a new error
  const data = result.loading || result.error !== undefined ? null : (result.data ?? null);
  const source = useMemo(() => (data ? new StaticRowSource(data.records) : null), [data]);
  const friendly = result.error !== undefined ? sqlErrorText(toApiError(result.error), sql) : null;
  // `SELECT *` returns CKAN's internal search column too: last, after the data
  const resultFields = useMemo(() => (data ? fullTextLast(data.fields) : []), [data]);
  const names = resultFields.map((f) => f.id);

  return (
    <div className="page sql-page" data-testid="sql-page">
      <nav aria-label={t('table.breadcrumb')} className="breadcrumb">
        <a href="#/">{t('nav.catalogue')}</a>
        <span aria-hidden="true"> › </span>
        <a href={hrefFor(resourcePath(resourceId))}>{title}</a>
      </nav>
      <h1 tabIndex={-1}>{t('sql.title')}</h1>
      <div className="sql-layout">
        <div className="sql-editor">
          <label htmlFor={`${id}-sql`}>{t('sql.label')}</label>
          <textarea
            ref={editor}
            id={`${id}-sql`}
            className="sql-text"
            value={draft}
            spellCheck={false}
            rows={8}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            aria-describedby={`${id}-help`}
            data-testid="sql-editor"
          />
          <p id={`${id}-help`} className="muted small">
            {t('sql.help', { table: quoteSqlName(resourceId) })}
          </p>
          <div className="button-row">
            <button type="button" className="button button-primary" onClick={() => run()} disabled={!draft.trim()} data-testid="sql-run">
              {t('sql.run')}
            </button>
            {data && (
              <>
                <button
                  type="button"
                  className="button"
                  data-testid="sql-csv"
                  onClick={() =>
                    download(
                      new Blob([csvOf(names, data.records)], { type: 'text/csv' }),
                      `${title || 'sql'}.csv`.replace(/[\\/:*?"<>|]+/g, '_'),
                    )
                  }
                >
                  {t('sql.csv')}
                </button>
                <CopyButton text={rowsAsTsv(names, data.records, true)} label={t('sql.copyTsv')} caption={t('sql.copyTsv')} />
              </>
            )}
          </div>
        </div>
        <aside className="sql-help" aria-label={t('sql.helpers')}>
          <h2>{t('sql.examples')}</h2>
          <ul className="plain-list">
            {examples.map((ex) => (
              <li key={ex.key}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setDraft(ex.sql);
                    run(ex.sql);
                  }}
                  data-testid={`sql-example-${ex.key}`}
                >
                  {t(`sql.example.${ex.key}`)}
                </button>
              </li>
            ))}
          </ul>
          <details className="sql-functions" data-testid="sql-functions">
            <summary>{t('sql.functions.title')}</summary>
            {meta.data?.functions === 'all' ? (
              <p className="small">{t('sql.functions.all')}</p>
            ) : (
              <>
                <p className="small">{t('sql.functions.ckan', { n: CKAN_ALLOWED_FUNCTIONS.size })}</p>
                <p className="small muted">
                  {t('sql.functions.list')}: <code>{[...CKAN_ALLOWED_FUNCTIONS].join(', ')}</code>
                </p>
              </>
            )}
          </details>
          <h2>{t('sql.columns')}</h2>
          <ul className="plain-list sql-columns">
            <li>
              <button type="button" className="link-button" onClick={() => insert(quoteSqlName(resourceId))}>
                {t('sql.table')}
              </button>
            </li>
            {fields.map((f) => (
              <li key={f.id}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => insert(quoteSqlName(f.id))}
                  title={t('sql.insert', { name: f.id })}
                >
                  {f.id === '_id' ? '_id' : columnLabel(f)}
                </button>{' '}
                <span className="type-badge">{f.type}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
      {result.error !== undefined && (
        <ErrorNotice error={result.error} {...(friendly ? { title: t('sql.error.title'), hint: t(friendly.key, friendly.params) } : {})} />
      )}
      <p className="muted small" role="status" aria-live="polite" data-testid="sql-status">
        {result.loading && sql
          ? t('sql.running')
          : data
            ? t(data.records_truncated ? 'sql.truncated' : 'sql.rows', {
                count: data.records.length,
                n: formatCount(data.records.length, locale),
              })
            : ''}
      </p>
      {source && data && (
        <div className="sql-result">
          <DataGrid
            store={source}
            fields={resultFields}
            sort={[]}
            filters={{}}
            openFilter={null}
            onSort={() => undefined}
            label={t('sql.resultLabel')}
          />
        </div>
      )}
    </div>
  );
}
