/** The portal actions the UI calls (docs/portal.md §API), over the one client. */
import type { Message } from '../../../../shared/messages';
import type { ActionParams } from '../../../../shared/wire/actions';
import type { PortalJobStatus } from '../../../../shared/portal';
import { call as callAction } from '../../api/client';

export interface RemoteResource {
  readonly id: string;
  readonly name?: string | null;
  readonly format?: string | null;
  readonly size?: number | null;
  readonly datastore_active?: boolean;
  readonly description?: string | null;
}

export interface RemotePackage {
  readonly id: string;
  readonly name: string;
  readonly title?: string | null;
  readonly notes?: string | null;
  readonly organization?: { readonly name: string; readonly title: string } | null;
  readonly resources?: readonly RemoteResource[];
  readonly num_resources?: number;
}

export interface RemoteSearch {
  readonly count: number;
  readonly results: readonly RemotePackage[];
}

/** Throws the portal's worded failure as a PortalFailure, so screens show it in the user's language. */
export class PortalFailure extends Error {
  constructor(readonly worded: Message) {
    super(worded.text);
  }
}

async function call<T>(
  url: string,
  action: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ portal: string; result: T }> {
  const answer = await callAction('deskstore_portal_call', { url, action, params }, signal ? { signal } : {});
  if (!answer.ok) throw new PortalFailure(answer.error);
  // The portal's answer, as its action's result (the portal is the contract there, not Deskstore).
  return { portal: answer.portal, result: answer.result as T };
}

function isJobList(answer: PortalJobStatus | readonly PortalJobStatus[]): answer is readonly PortalJobStatus[] {
  return Array.isArray(answer);
}

export const portalApi = {
  portals: () => callAction('deskstore_portals', {}),
  search: (url: string, q: string, organization: string, start: number, rows: number, signal?: AbortSignal) =>
    call<RemoteSearch>(
      url,
      'package_search',
      {
        q: q || '*:*',
        rows,
        start,
        ...(organization ? { fq: `organization:${organization}` } : {}),
      },
      signal,
    ),
  organizations: (url: string, signal?: AbortSignal) => call<string[]>(url, 'organization_list', {}, signal),
  dataset: (url: string, id: string, signal?: AbortSignal) => call<RemotePackage>(url, 'package_show', { id }, signal),
  status: (url: string, signal?: AbortSignal) => call<{ site_title?: string }>(url, 'status_show', {}, signal),
  mirror: (url: string, dataset: string, resources: readonly string[], token: string) =>
    callAction('deskstore_mirror', { url, dataset, resources, ...(token ? { token } : {}) }),
  sync: (datasets: readonly string[]) => callAction('deskstore_sync', { datasets }),
  push: (params: ActionParams<'deskstore_push'>) => callAction('deskstore_push', params),
  async job(jobId: string, signal?: AbortSignal): Promise<PortalJobStatus> {
    const answer = await callAction('deskstore_portal_job_status', { job_id: jobId }, signal ? { signal } : {});
    // With a `job_id` the action answers that one job (a list only without one).
    if (isJobList(answer)) throw new Error(`deskstore_portal_job_status answered a list for job ${jobId}`);
    return answer;
  },
  cancel: (jobId: string) => callAction('deskstore_portal_job_cancel', { job_id: jobId }),
  detach: (id: string) => callAction('deskstore_detach', { id }),
};
