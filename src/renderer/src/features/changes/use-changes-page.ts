import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { ResourceDict } from '../../../../shared/wire/catalogue';
import type { DatastoreField } from '../../../../shared/wire/search';
import {
  CHANGE_KINDS,
  type ChangeKind,
  type ChangeKeyReason,
  type ChangeCounts,
  type VersionsResult,
} from '../../../../shared/wire/versions';
import { call } from '../../api/client';
import type { ActionParams } from '../../../../shared/wire/actions';
import { useAsync, type AsyncResult } from '../../hooks/use-async';
import { changesPath, navigate } from '../../router';
import { RowPageStore } from '../table/row-pages';

export type ChangesPanel = 'api' | 'export' | null;

/** What the comparison is, as the first page of it told: versions, key, counts, columns. */
export interface ComparisonFacts {
  readonly from: number;
  readonly to: number;
  readonly key: readonly string[] | 'row';
  readonly keyReason: ChangeKeyReason | null;
  readonly counts: ChangeCounts;
  readonly fields: readonly DatastoreField[];
}

/** What the address says: which versions, which kind of change, which panel. */
export interface ChangesView {
  readonly from: number | null;
  readonly to: number | null;
  readonly change: ChangeKind | null;
}

export interface ChangesPageState {
  readonly resource: AsyncResult<ResourceDict>;
  readonly versions: AsyncResult<VersionsResult>;
  readonly view: ChangesView;
  readonly panel: ChangesPanel;
  /** The rows of the comparison, page by page (deskstore_changes). */
  readonly store: RowPageStore;
  readonly facts: ComparisonFacts | null;
  /** The call the grid's first page makes, for the API panel (limit and offset of one page). */
  readonly params: ActionParams<'deskstore_changes'>;
  readonly setVersions: (from: number, to: number) => void;
  readonly setChange: (change: ChangeKind | null) => void;
  readonly togglePanel: (panel: Exclude<ChangesPanel, null>) => void;
  readonly closePanel: () => void;
  readonly retry: () => void;
}

const naturalNumber = (text: string | null): number | null => (text !== null && /^\d+$/.test(text) ? Number(text) : null);

export function viewFromQuery(query: URLSearchParams): ChangesView {
  const change = query.get('change');
  return {
    from: naturalNumber(query.get('from')),
    to: naturalNumber(query.get('to')),
    change: CHANGE_KINDS.find((k) => k === change) ?? null,
  };
}

export function viewToQuery(view: ChangesView, panel: ChangesPanel): URLSearchParams {
  const query = new URLSearchParams();
  if (view.from !== null) query.set('from', String(view.from));
  if (view.to !== null) query.set('to', String(view.to));
  if (view.change) query.set('change', view.change);
  if (panel) query.set('panel', panel);
  return query;
}

/** The comparison's parameters (without paging): what the grid, the API panel and the export ask. */
export function changesParams(resourceId: string, view: ChangesView): ActionParams<'deskstore_changes'> {
  return {
    resource_id: resourceId,
    ...(view.from !== null ? { from: view.from } : {}),
    ...(view.to !== null ? { to: view.to } : {}),
    ...(view.change ? { change: view.change } : {}),
  };
}

/**
 * The Changes view's state, kept in the address (`#/resource/<id>/changes?from=&to=&change=`):
 * the versions compared (defaults: the one before the current, and the current), the kind of
 * change shown, the open panel; the resource, its kept versions, and the compared rows as
 * pages of `deskstore_changes` in the same paged store the table uses.
 */
export function useChangesPage(resourceId: string, query: URLSearchParams): ChangesPageState {
  const queryText = query.toString();
  const view = useMemo(() => viewFromQuery(new URLSearchParams(queryText)), [queryText]);
  const rawPanel = query.get('panel');
  const panel: ChangesPanel = rawPanel === 'api' || rawPanel === 'export' ? rawPanel : null;

  const resource = useAsync(`changes-resource:${resourceId}`, (signal) => call('resource_show', { id: resourceId }, { signal }));
  const versions = useAsync(`changes-versions:${resourceId}`, (signal) =>
    call('deskstore_versions', { resource_id: resourceId }, { signal }),
  );

  const [attempt, setAttempt] = useState(0);
  const [facts, setFacts] = useState<{ key: string; facts: ComparisonFacts } | null>(null);
  const params = useMemo(() => changesParams(resourceId, view), [resourceId, view]);
  const storeKey = `${JSON.stringify(params)}:${attempt}`;
  const store = useMemo(
    () =>
      new RowPageStore(async ({ offset, limit }, signal) => {
        const answer = await call('deskstore_changes', { ...params, offset, limit }, { signal });
        if (offset === 0) {
          setFacts({
            key: storeKey,
            facts: {
              from: answer.from,
              to: answer.to,
              key: answer.key,
              keyReason: answer.key_reason ?? null,
              counts: answer.counts,
              fields: answer.fields,
            },
          });
        }
        return { records: answer.records, total: answer.total };
      }),
    // storeKey stands for params and the retry count
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [storeKey],
  );
  useEffect(() => {
    store.start();
    return () => store.dispose();
  }, [store]);
  useSyncExternalStore(store.subscribe, store.getVersion);

  const go = useCallback(
    (next: ChangesView, nextPanel: ChangesPanel, step: boolean) =>
      navigate(changesPath(resourceId), viewToQuery(next, nextPanel), step ? { step: 'changes' } : { replace: true }),
    [resourceId],
  );
  return {
    resource,
    versions,
    view,
    panel,
    store,
    facts: facts?.key === storeKey ? facts.facts : null,
    params,
    setVersions: (from, to) => go({ ...view, from, to }, panel, true),
    setChange: (change) => go({ ...view, change }, panel, true),
    togglePanel: (next) => go(view, panel === next ? null : next, false),
    closePanel: () => go(view, null, false),
    retry: () => setAttempt((n) => n + 1),
  };
}
