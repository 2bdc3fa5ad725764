import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionName, ActionParams, ActionResult } from '../../shared/wire/actions';
import type { Message } from '../../shared/messages';
import type { LockInfo } from '../app/data-dir-lock';

/**
 * The CLI as a client of the Deskstore server that holds a data directory: when `deskstore
 * import`, `mirror`, `sync` or `push` finds the directory in use by a running server, they do
 * their work through its action API (the same calls the UI and scripts make, typed by the
 * contract in src/shared/wire/actions.ts) instead of refusing. The server's address comes
 * from the directory's lock (`deskstore.lock.info`), the token from `$DESKSTORE_TOKEN` or the
 * directory's own `api-token`.
 */

/** An action the server refused, in the words it used (`deskstore_message` when it gave one). */
export class ServerActionError extends Error {
  constructor(
    readonly action: string,
    readonly status: number,
    text: string,
    readonly worded?: Message,
  ) {
    super(worded?.text ?? text);
  }
}

interface Envelope {
  readonly success?: boolean;
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown; readonly __type?: unknown; readonly [member: string]: unknown };
  readonly deskstore_message?: Message;
}

/** How long one call may take before the CLI gives up on it (an upload of a big file included). */
const CALL_TIMEOUT_MS = 30 * 60_000;

/** A value of a multipart form: text as it is, lists and objects as JSON (how the server reads them). */
function formValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export class ServerClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  /**
   * Calls `name` with its parameters as JSON, or as a multipart form when one of them is a
   * file (`upload`), and answers its result.
   */
  async call<K extends ActionName>(
    name: K,
    params: ActionParams<K>,
    file?: { readonly field: string; readonly blob: Blob; readonly name: string },
  ): Promise<ActionResult<K>> {
    let body: string | FormData;
    const headers: Record<string, string> = { Authorization: this.token };
    if (file) {
      const form = new FormData();
      for (const [key, value] of Object.entries(params)) if (value !== undefined) form.append(key, formValue(value));
      form.append(file.field, file.blob, file.name);
      body = form;
    } else {
      body = JSON.stringify(params);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(`${this.url}/api/3/action/${name}`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      throw new ServerActionError(name, response.status, `${name}: ${response.status} ${text.slice(0, 300)}`);
    }
    if (response.ok && envelope.success === true) return envelope.result as ActionResult<K>;
    const error = envelope.error ?? {};
    const members = Object.entries(error).filter(([key]) => key !== '__type' && key !== 'message');
    const detail =
      typeof error.message === 'string' ? error.message : members.map(([key, value]) => `${key}: ${formValue(value)}`).join('; ');
    throw new ServerActionError(name, response.status, `${name}: ${detail || response.status}`, envelope.deskstore_message);
  }
}

/**
 * A client of the server holding the data directory, or null when the lock's holder is not a
 * server (another import or mirror: nothing to talk to). Checks that the token is the
 * server's before anything is sent.
 */
export async function clientOfRunningServer(dataDir: string, holder: LockInfo | null): Promise<ServerClient | null> {
  if (!holder?.url) return null;
  const fromEnvironment = process.env.DESKSTORE_TOKEN?.trim();
  let token = fromEnvironment ?? '';
  if (!token) {
    try {
      token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    } catch {
      token = '';
    }
  }
  const client = new ServerClient(holder.url, token);
  const { authorized } = await client.call('deskstore_token_check', {});
  if (!authorized) {
    throw new ServerActionError(
      'deskstore_token_check',
      403,
      `The Deskstore server at ${holder.url} holds ${dataDir} but does not accept ` +
        `${fromEnvironment ? '$DESKSTORE_TOKEN' : `the token in ${join(dataDir, 'api-token')}`}: ` +
        'it was started with a token of its own; give that one as $DESKSTORE_TOKEN.',
    );
  }
  return client;
}
