import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_IDENTIFIER_BYTES, utf8Bytes } from '../../../../shared/identifier-bytes';
import type { RenameFieldsResult } from '../../../../shared/wire/actions';
import { call } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAsync } from '../../hooks/use-async';
import { useToken } from '../../hooks/use-token';

/**
 * "Column names": rename a table's columns here, in the user's own words, rather than take the
 * portal's 63-byte cuts at push time (deskstore_rename_fields, which publishes the same rows
 * under the new names as a new version). Open by default when some name is too long for a portal.
 */
export function RenameColumns({ resourceId, onRenamed }: { readonly resourceId: string; readonly onRenamed?: () => void }) {
  const { t } = useTranslation();
  const token = useToken();
  const id = useId();
  const info = useAsync(`rename-info:${resourceId}`, (signal) => call('datastore_info', { id: resourceId }, { signal }));
  const [names, setNames] = useState<Readonly<Record<string, string>>>({});
  const [done, setDone] = useState<RenameFieldsResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fields = (info.data?.fields ?? []).filter((f) => f.id !== '_id');
  if (fields.length === 0) return null;
  const tooLong = fields.some((f) => utf8Bytes(f.id) > MAX_IDENTIFIER_BYTES);
  const changes = Object.fromEntries(
    Object.entries(names).filter(([from, to]) => to.trim() !== '' && to !== from && fields.some((f) => f.id === from)),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setDone(null);
    setBusy(true);
    call('deskstore_rename_fields', { resource_id: resourceId, fields: changes })
      .then((result) => {
        setDone(result);
        setNames({});
        info.reload();
        onRenamed?.();
      }, setError)
      .finally(() => setBusy(false));
  };
  return (
    <details className="rename-columns" open={tooLong || done !== null || undefined} data-testid="rename-columns">
      <summary>{t('publish.renameColumns.summary')}</summary>
      <p className="muted small">{t('publish.renameColumns.intro')}</p>
      <form onSubmit={submit}>
        <table className="rename-columns-table">
          <thead>
            <tr>
              <th scope="col">{t('publish.renameColumns.current')}</th>
              <th scope="col">{t('publish.renameColumns.newName')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f, i) => {
              const long = utf8Bytes(f.id) > MAX_IDENTIFIER_BYTES;
              return (
                <tr key={f.id}>
                  <td>
                    <span>{f.id}</span>
                    {long && (
                      <span className="field-problem small" id={`${id}-l${i}`}>
                        {' '}
                        {t('publish.renameColumns.tooLong', { bytes: utf8Bytes(f.id) })}
                      </span>
                    )}
                  </td>
                  <td>
                    <input
                      value={names[f.id] ?? f.id}
                      onChange={(e) => setNames((n) => ({ ...n, [f.id]: e.target.value }))}
                      aria-describedby={long ? `${id}-l${i}` : undefined}
                      aria-label={t('publish.renameColumns.inputLabel', { name: f.id })}
                      data-testid="rename-column-input"
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <button
          type="submit"
          className="button"
          disabled={!token || busy || Object.keys(changes).length === 0}
          data-testid="rename-columns-button"
        >
          {t('publish.renameColumns.submit')}
        </button>
      </form>
      {error !== null && <ErrorNotice error={error} />}
      {done && (
        <p className="notice notice-ok" role="status" data-testid="rename-columns-done">
          {done.version === null
            ? t('publish.renameColumns.nothing')
            : t('publish.renameColumns.done', { count: done.renamed.length, version: done.version })}
        </p>
      )}
    </details>
  );
}
