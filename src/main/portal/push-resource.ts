import { createHash } from 'node:crypto';
import { message } from '../../shared/messages';
import type { PortalJobItem, PushLink, PushOutcome, PushStatus } from '../../shared/portal';
import type { EngineApi } from '../engine/engine-api';
import { ValidationError } from '../errors';
import { searchRequest } from '../params/search-params';
import { arrayItems } from '../util/json-source';
import type { PortalClient } from './portal-client';
import { PortalError, isPortalError } from './portal-errors';
import { portalColumnNames } from './portal-column-names';
import { checkReadBack } from './push-readback';
import { numOrNull, str, type RemoteDict } from './remote-dicts';

/**
 * Publishes a local resource to a CKAN portal's DataStore (docs/portal.md §Push): creates the
 * dataset (or uses one the token may edit) and a DataStore resource with the local fields
 * (types, labels/notes as `info`, the primary key), then the rows in `_id` order, in batches
 * bounded by rows and bytes. The link is remembered on the local resource before the first
 * row is sent, marked complete only once the portal's total equals the local row count; an
 * interrupted push resumes from the portal's total (each batch is one transaction there), so
 * no row is sent twice. Pushing unchanged data again answers `unchanged`.
 */
export interface PushRequest {
  readonly resourceId: string;
  /** The remote dataset's name (default: the local dataset's name). */
  readonly dataset?: string;
  readonly ownerOrg?: string;
  readonly resourceName?: string;
}

export interface PushContext {
  readonly engine: EngineApi;
  readonly siteUrl: string;
  readonly signal?: AbortSignal;
  readonly maxBatchRows?: number;
  readonly maxBatchBytes?: number;
  readonly onItem?: (item: PortalJobItem) => void;
  readonly log?: (line: string) => void;
}

const PAGE = 32_000;

interface LocalTable {
  readonly fields: { id: string; type: string; info?: Record<string, unknown> }[];
  readonly primaryKey: readonly string[];
  /** The portal's name of each field (portal-column-names.ts), in the same order. */
  readonly portalNames: readonly string[];
  readonly renamed: readonly { from: string; to: string }[];
  readonly rows: number;
  readonly fingerprint: string;
  readonly name: string;
  readonly packageName: string;
  readonly packageTitle: string;
  readonly notes: string;
  readonly link: PushLink | null;
}

/**
 * Local rows in `_id` order, a page at a time, each row as the JSON text of a record for a
 * CKAN write: cells as writeCell gives them (numeric as strings of their exact text,
 * timestamps whole, JSON cells as stored), copied without decoding, so no value passes through
 * a JavaScript number on its way to the portal.
 */
async function* localRows(
  engine: EngineApi,
  resourceId: string,
  fieldIds: readonly string[],
  from = 0,
  keyNames: readonly string[] = fieldIds,
): AsyncGenerator<string[]> {
  const keys = keyNames.map((id) => `${JSON.stringify(id)}:`);
  for (let offset = from; ; offset += PAGE) {
    const page = await engine.search({
      ...searchRequest({
        resource_id: resourceId,
        offset,
        limit: PAGE,
        sort: '_id',
        records_format: 'lists',
        include_total: false,
        fields: fieldIds,
      }),
      writeValues: true,
    });
    const text = page.records;
    const rows = arrayItems(text, 0).items.map(([from]) => {
      const cells = arrayItems(text, from).items;
      return `{${cells.map(([a, b], i) => keys[i]! + text.slice(a, b)).join(',')}}`;
    });
    yield rows;
    if (rows.length < PAGE) return;
  }
}

async function readLocal(engine: EngineApi, resourceId: string, siteUrl: string): Promise<LocalTable> {
  const resource = await engine.resourceShow(resourceId, siteUrl);
  const pkg = await engine.packageShow(str(resource.package_id), siteUrl);
  const facts = await engine.tableFacts(resourceId);
  if (!facts) throw new ValidationError({ resource_id: [`Resource ${resourceId} has no DataStore table to push`] });
  const fields = facts.fields.map((f) => ({ id: f.id, type: f.type, ...(f.info ? { info: f.info } : {}) }));
  const hash = createHash('sha256').update(JSON.stringify([fields, facts.primaryKey]));
  let rows = 0;
  for await (const page of localRows(
    engine,
    resourceId,
    fields.map((f) => f.id),
  )) {
    for (const row of page) hash.update(row).update('\n');
    rows += page.length;
  }
  const { names: portalNames, renamed } = portalColumnNames(fields.map((f) => f.id));
  return {
    fields,
    primaryKey: facts.primaryKey,
    portalNames,
    renamed,
    rows,
    fingerprint: hash.digest('hex').slice(0, 40),
    name: str(resource.name) || resourceId,
    packageName: str(pkg.name),
    packageTitle: str(pkg.title),
    notes: str(pkg.notes),
    link: resource.deskstore_push ?? null,
  };
}

async function remoteTotal(client: PortalClient, resourceId: string, signal?: AbortSignal): Promise<number> {
  const r = await client.action<RemoteDict>('datastore_search', { resource_id: resourceId, limit: 0, include_total: true }, 'GET', signal);
  const total = numOrNull(r.total);
  if (total === null) throw new PortalError(message('push.no_total', 'The portal did not report how many rows the resource has.'));
  return total;
}

async function remoteExists(client: PortalClient, resourceId: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.action('datastore_search', { resource_id: resourceId, limit: 0 }, 'GET', signal);
    return true;
  } catch (err) {
    if (isPortalError(err) && (err.status === 404 || err.ckanType === 'Not Found Error')) return false;
    throw err;
  }
}

/** The remote dataset to put the resource in: an existing one (by name) or a new one. */
async function remotePackage(client: PortalClient, local: LocalTable, req: PushRequest, signal?: AbortSignal): Promise<RemoteDict> {
  const name = req.dataset ?? local.packageName;
  try {
    return await client.action<RemoteDict>('package_show', { id: name }, 'GET', signal);
  } catch (err) {
    if (!isPortalError(err) || (err.status !== 404 && err.ckanType !== 'Not Found Error')) throw err;
  }
  return client.action<RemoteDict>(
    'package_create',
    {
      name,
      title: local.packageTitle || name,
      notes: local.notes,
      ...(req.ownerOrg ? { owner_org: req.ownerOrg } : {}),
    },
    'POST',
    signal,
  );
}

/**
 * The fields and key as the portal gets them: a renamed column keeps its full name as its
 * label (unless it has one), where CKAN's Data Dictionary shows it.
 */
function portalFields(local: LocalTable): { fields: LocalTable['fields']; primary_key?: string[] } {
  const nameOf = new Map(local.fields.map((f, i) => [f.id, local.portalNames[i]!]));
  const fields = local.fields.map((f, i) => {
    const to = local.portalNames[i]!;
    if (to === f.id) return f;
    const label = typeof f.info?.label === 'string' && f.info.label !== '' ? f.info.label : f.id;
    return { ...f, id: to, info: { ...f.info, label } };
  });
  return { fields, ...(local.primaryKey.length ? { primary_key: local.primaryKey.map((k) => nameOf.get(k) ?? k) } : {}) };
}

export async function pushResource(ctx: PushContext, client: PortalClient, req: PushRequest): Promise<PushOutcome> {
  const local = await readLocal(ctx.engine, req.resourceId, ctx.siteUrl);
  for (const { from, to } of local.renamed) ctx.log?.(`column "${from}" is "${to}" on the portal (63 bytes at most there)`);
  const portal = client.base;
  const item = (phase: PortalJobItem['phase'], done: number) =>
    ctx.onItem?.({ resource_id: req.resourceId, name: local.name, phase, rows_done: done, rows_total: local.rows, bytes_done: 0 });
  const link = local.link?.portal === portal && (await remoteExists(client, local.link.resource_id, ctx.signal)) ? local.link : null;
  const outcome = (status: PushStatus, l: PushLink): PushOutcome => ({
    portal,
    package_id: l.package_id,
    resource_id: l.resource_id,
    rows: local.rows,
    status,
    url: l.page,
    ...(local.renamed.length ? { renamed: local.renamed } : {}),
  });

  if (link?.complete && link.fingerprint === local.fingerprint) {
    const total = await remoteTotal(client, link.resource_id, ctx.signal);
    if (total === local.rows) return outcome('unchanged', link);
    ctx.log?.(`the portal holds ${total} rows, not ${local.rows}: sending them again`);
  }
  let status: PushStatus;
  let target: PushLink;
  const remember = async (l: PushLink) => {
    await ctx.engine.recordPush(req.resourceId, l);
    target = l;
  };
  const createFields = { ...portalFields(local), force: true };
  if (link) {
    status = 'updated';
    if (link.fingerprint !== local.fingerprint || link.complete) {
      // Replace the remote rows: the table is recreated with the local fields, then filled.
      await remember({ ...link, fingerprint: local.fingerprint, complete: false, pushedAt: new Date().toISOString() });
      await client.action('datastore_delete', { resource_id: link.resource_id, force: true }, 'POST', ctx.signal);
      await client.action('datastore_create', { resource_id: link.resource_id, ...createFields }, 'POST', ctx.signal);
    } else {
      target = link; // an interrupted push of the same data: resume
    }
  } else {
    status = 'created';
    const pkg = await remotePackage(client, local, req, ctx.signal);
    const created = await client.action<RemoteDict>(
      'datastore_create',
      {
        resource: { package_id: str(pkg.id), name: req.resourceName ?? local.name, format: 'CSV' },
        ...createFields,
      },
      'POST',
      ctx.signal,
    );
    const remoteId = str(created.resource_id);
    await remember({
      portal,
      package_id: str(pkg.id),
      resource_id: remoteId,
      fingerprint: local.fingerprint,
      complete: false,
      pushedAt: new Date().toISOString(),
      rows: local.rows,
      page: `${portal}/dataset/${encodeURIComponent(str(pkg.name) || str(pkg.id))}/resource/${encodeURIComponent(remoteId)}`,
    });
  }
  const t = target!;
  const sent = await sendRows(ctx, client, req.resourceId, t.resource_id, local, item);
  const total = await remoteTotal(client, t.resource_id, ctx.signal);
  if (total !== local.rows) {
    throw new PortalError(
      message('push.count_mismatch', `The portal holds ${total} rows after the push, not the ${local.rows} rows here.`, {
        remote: total,
        local: local.rows,
      }),
    );
  }
  // The total alone is the portal's word: a sample of rows read back must be what was sent.
  const checked = await checkReadBack(
    ctx.engine,
    client,
    req.resourceId,
    t.resource_id,
    local.fields.map((f) => f.id),
    local.rows,
    ctx.signal,
    local.portalNames,
  );
  await ctx.engine.recordPush(req.resourceId, { ...t, complete: true, rows: local.rows, pushedAt: new Date().toISOString() });
  ctx.log?.(`sent ${sent} rows; the portal's total is ${total}; ${checked} rows read back match`);
  item('done', local.rows);
  return outcome(status, t);
}

/**
 * Sends the rows the portal does not have yet, from its total on, in batches. A batch that
 * fails is never blindly re-sent: the portal's total says whether it was committed (the
 * answer may have been lost after the commit), and sending resumes from there. A portal whose
 * total stays below what it acknowledged is not sent anything again: a portal that answered
 * every `datastore_upsert` with success and kept nothing got the same rows 4,000 times in
 * 100 s, holding the portal job queue (issue 21).
 */
async function sendRows(
  ctx: PushContext,
  client: PortalClient,
  localId: string,
  remoteId: string,
  local: LocalTable,
  item: (phase: PortalJobItem['phase'], done: number) => void,
): Promise<number> {
  const maxRows = ctx.maxBatchRows ?? 10_000;
  const maxBytes = ctx.maxBatchBytes ?? 2 * 1024 * 1024;
  const method = local.primaryKey.length ? 'upsert' : 'insert';
  let failures = 0;
  let sent = 0;
  /** The total the portal must hold by the batches it acknowledged (none yet: -1). */
  let acknowledged = -1;
  for (;;) {
    let done = await remoteTotal(client, remoteId, ctx.signal);
    if (done < acknowledged) {
      throw new PortalError(
        message(
          'push.no_progress',
          `The portal acknowledged ${acknowledged} rows but its total is ${done}: it does not keep what it accepts, so nothing is sent again.`,
          { acknowledged, total: done },
        ),
      );
    }
    if (done > local.rows) {
      throw new PortalError(
        message(
          'push.remote_has_more',
          `The portal's table holds ${done} rows, more than the ${local.rows} here; push again to replace them.`,
          { remote: done, local: local.rows },
        ),
      );
    }
    if (done === local.rows) return sent;
    item('uploading', done);
    try {
      let batch: string[] = [];
      let bytes = 0;
      const flush = async () => {
        if (!batch.length) return;
        await client.actionBody(
          'datastore_upsert',
          `{"resource_id":${JSON.stringify(remoteId)},"method":"${method}","force":true,"records":[${batch.join(',')}]}`,
          ctx.signal,
        );
        done += batch.length;
        sent += batch.length;
        acknowledged = done;
        batch = [];
        bytes = 0;
        failures = 0;
        item('uploading', done);
      };
      for await (const page of localRows(
        ctx.engine,
        localId,
        local.fields.map((f) => f.id),
        done,
        local.portalNames,
      )) {
        for (const json of page) {
          if (batch.length && (batch.length >= maxRows || bytes + json.length > maxBytes)) await flush();
          batch.push(json);
          bytes += json.length + 1;
        }
      }
      await flush();
    } catch (err) {
      const failure = isPortalError(err) ? err : null;
      if (ctx.signal?.aborted || !failure?.retryable || failures >= 5) throw err;
      ctx.log?.(`a batch failed (${failure.message}); checking what the portal holds before going on`);
      await client.pause('datastore_upsert', err, failures++, ctx.signal);
    }
  }
}
