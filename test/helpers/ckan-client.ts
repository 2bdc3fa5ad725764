/**
 * A minimal CKAN action client over fetch, as a script would use Deskstore. `post`, `get` and
 * `upload` send anything (tests of what the server refuses); `ok` calls through the action
 * contract (src/shared/wire/actions.ts): known parameters in, the typed result out.
 */
import type { ActionName, ActionParams, ActionResult } from '../../src/shared/wire/actions';

export interface ActionResponse<T = unknown> {
  readonly status: number;
  readonly body: { success: boolean; result?: T; error?: Record<string, unknown>; help?: string } | string;
  readonly text: string;
}

/** Rows as each test knows its own table's columns (the contract types everything else). */
export type TestRecords = any[];

/** The parameters argument, optional when an action needs none. */
export type OptionalIfEmpty<P> = Record<never, never> extends P ? [params?: P] : [params: P];

export function ckan(base: string, token?: string) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(token ? { Authorization: token } : {}), ...extra });
  const parse = async <T>(res: Response): Promise<ActionResponse<T>> => {
    const text = await res.text();
    let body: ActionResponse<T>['body'];
    try {
      body = JSON.parse(text) as ActionResponse<T>['body'];
    } catch {
      body = text;
    }
    return { status: res.status, body, text };
  };
  return {
    async post<T = any>(action: string, params: unknown = {}): Promise<ActionResponse<T>> {
      const res = await fetch(`${base}/api/3/action/${action}`, {
        method: 'POST',
        body: JSON.stringify(params),
        headers: headers({ 'Content-Type': 'application/json' }),
      });
      return parse<T>(res);
    },
    async get<T = any>(action: string, query: Record<string, string> = {}, prefix = ''): Promise<ActionResponse<T>> {
      const qs = new URLSearchParams(query).toString();
      return parse<T>(await fetch(`${base}${prefix}/api/3/action/${action}${qs ? `?${qs}` : ''}`));
    },
    /** The result of a successful call; throws with the body otherwise. */
    async ok<K extends ActionName>(action: K, ...params: OptionalIfEmpty<ActionParams<K>>): Promise<ActionResult<K, TestRecords>> {
      const r = await this.post<ActionResult<K, TestRecords>>(action, params[0] ?? {});
      if (typeof r.body === 'string' || !r.body.success) throw new Error(`${action} → ${r.status} ${r.text.slice(0, 500)}`);
      return r.body.result as ActionResult<K, TestRecords>;
    },
    async upload<T = any>(
      action: string,
      fields: Record<string, string>,
      file: { name: string; data: Uint8Array },
    ): Promise<ActionResponse<T>> {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('upload', new Blob([file.data]), file.name);
      return parse<T>(await fetch(`${base}/api/3/action/${action}`, { method: 'POST', body: form, headers: headers() }));
    },
  };
}
