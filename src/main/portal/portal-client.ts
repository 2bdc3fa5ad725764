import { createWriteStream, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { PortalError, portalRefusal, portalTimeout, portalTooManyRedirects, portalUnreachable } from './portal-errors';

/**
 * The one HTTP client for portals (mirror, sync, push, the UI's portal browser): timeouts,
 * retries with backoff on network failures, 5xx and 429 (honouring Retry-After), bounded
 * redirects, gzip, HTTP(S)_PROXY/NO_PROXY (undici's EnvHttpProxyAgent), a User-Agent naming
 * Deskstore, conditional requests, Range resume, an optional token (never logged), and at most
 * one download per portal at a time. docs/portal.md §Network.
 */
export interface PortalClientOptions {
  readonly userAgent: string;
  /** The portal's API token (CKAN: `Authorization: <token>`), sent to the portal's own origin only. */
  readonly token?: string;
  /** Time to wait for response headers, and for the body to go on, in ms. */
  readonly timeoutMs?: number;
  /** Attempts after the first one, for failures worth another try. */
  readonly retries?: number;
  /** First backoff delay; doubled on each attempt (with jitter), capped at `maxDelayMs`. */
  readonly backoffMs?: number;
  readonly maxDelayMs?: number;
  readonly maxRedirects?: number;
  readonly dispatcher?: Dispatcher;
  /** Told of each retry (progress on stderr, job logs). */
  readonly onRetry?: (what: string, attempt: number, delayMs: number, reason: string) => void;
}

export interface DownloadResult {
  readonly notModified: boolean;
  readonly bytes: number;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** The final URL after redirects. */
  readonly url: string;
  /** Times the download resumed with Range after a dropped connection. */
  readonly resumed: number;
}

export interface DownloadOptions {
  readonly etag?: string | null;
  readonly lastModified?: string | null;
  readonly signal?: AbortSignal;
  readonly maxBytes?: number;
  readonly onProgress?: (bytes: number, total: number | null) => void;
}

type Headers = Record<string, string>;

interface CkanEnvelope {
  success?: boolean;
  result?: unknown;
  error?: Record<string, unknown>;
}

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable & { dump(): Promise<void>; text(): Promise<string> };
  readonly url: string;
}

let sharedDispatcher: Dispatcher | null = null;
function defaultDispatcher(): Dispatcher {
  // Reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) once, when first needed.
  sharedDispatcher ??= new EnvHttpProxyAgent();
  return sharedDispatcher;
}

/** Closes idle keep-alive connections, so a command-line run can end at once. */
export async function closePortalConnections(): Promise<void> {
  const dispatcher = sharedDispatcher;
  sharedDispatcher = null;
  await dispatcher?.close();
}

/** One download per portal origin at a time, across every client in this process. */
const downloadSlots = new Map<string, Promise<unknown>>();
async function inDownloadSlot<T>(origin: string, run: () => Promise<T>): Promise<T> {
  const before = downloadSlots.get(origin) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(run);
  downloadSlots.set(origin, mine);
  try {
    return await mine;
  } finally {
    if (downloadSlots.get(origin) === mine) downloadSlots.delete(origin);
  }
}

const header = (headers: RawResponse['headers'], name: string): string | null => {
  const v = headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

/** Retry-After in ms: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
  'Z_BUF_ERROR',
  'Z_DATA_ERROR',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code ?? '';
}

export class PortalClient {
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRedirects: number;
  /** Requests made, by kind: tests check that a sync downloads nothing. */
  readonly counts = { actions: 0, downloads: 0, notModified: 0, retries: 0 };

  constructor(
    readonly base: string,
    private readonly opts: PortalClientOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retries = opts.retries ?? 4;
    this.backoffMs = opts.backoffMs ?? 1000;
    this.maxDelayMs = opts.maxDelayMs ?? 60_000;
    this.maxRedirects = opts.maxRedirects ?? 5;
  }

  get origin(): string {
    return new URL(this.base).origin;
  }

  /** A URL under the API base (`/api/3/action/...`, `/dataset/x`). */
  url(path: string): string {
    return `${this.base.replace(/\/$/, '')}${path}`;
  }

  /**
   * A CKAN action: GET with the parameters in the query (objects JSON-encoded, as CKAN reads
   * them) for reads, POST with a JSON body for writes. Returns `result`; a CKAN error envelope
   * becomes a PortalError carrying the portal's own message.
   */
  async action<T>(name: string, params: Record<string, unknown> = {}, method: 'GET' | 'POST' = 'GET', signal?: AbortSignal): Promise<T> {
    if (method === 'POST') return this.call<T>(name, JSON.stringify(params), signal, this.retries);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return this.call<T>(query.size ? `${name}?${query.toString()}` : name, undefined, signal, this.retries);
  }

  /**
   * A POST whose JSON body is already written (a push batch), tried once: whether a failed
   * write was committed is for the caller to find out before sending it again.
   */
  async actionBody<T>(name: string, body: string, signal?: AbortSignal): Promise<T> {
    return this.call<T>(name, body, signal, 0);
  }

  private async call<T>(nameAndQuery: string, body: string | undefined, signal: AbortSignal | undefined, retries: number): Promise<T> {
    this.counts.actions++;
    const url = this.url(`/api/3/action/${nameAndQuery}`);
    const headers: Headers = { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
    return this.withRetries(nameAndQuery.split('?')[0]!, signal, retries, async () => {
      const res = await this.send(url, body === undefined ? 'GET' : 'POST', headers, body, signal);
      const text = await this.readText(res);
      let envelope: CkanEnvelope | null;
      try {
        envelope = JSON.parse(text) as CkanEnvelope | null;
      } catch {
        envelope = null;
      }
      if (res.status === 200 && envelope?.success === true) return envelope.result as T;
      const error = envelope && typeof envelope === 'object' ? envelope.error : undefined;
      throw portalRefusal(this.base, res.status, typeof error?.__type === 'string' ? error.__type : null, errorText(error, text));
    });
  }

  /**
   * Streams `url` to `path`. With `etag`/`lastModified` it asks conditionally and reports
   * `notModified` without writing anything. A connection dropped mid-body resumes with Range
   * from the bytes already written when the server allows it (206 with a matching
   * Content-Range and the same validator); otherwise it starts over. gzip bodies are
   * decoded. The file is removed if the download fails.
   */
  async download(url: string, path: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
    return inDownloadSlot(new URL(url).origin, () => this.downloadNow(url, path, opts));
  }

  private async downloadNow(url: string, path: string, opts: DownloadOptions): Promise<DownloadResult> {
    this.counts.downloads++;
    let written = 0;
    let validator: string | null = null;
    let resumable = false;
    let resumed = 0;
    try {
      return await this.withRetries('download', opts.signal, this.retries, async () => {
        const headers: Headers = { 'accept-encoding': 'gzip' };
        const resuming = written > 0 && resumable;
        if (resuming) {
          headers.range = `bytes=${written}-`;
          headers['if-range'] = validator!;
          headers['accept-encoding'] = 'identity';
        } else {
          written = 0;
          if (opts.etag) headers['if-none-match'] = opts.etag;
          if (opts.lastModified) headers['if-modified-since'] = opts.lastModified;
        }
        const res = await this.send(url, 'GET', headers, undefined, opts.signal);
        if (res.status === 304 && !resuming) {
          await res.body.dump();
          this.counts.notModified++;
          return { notModified: true, bytes: 0, etag: opts.etag ?? null, lastModified: opts.lastModified ?? null, url: res.url, resumed };
        }
        const partial = resuming && res.status === 206 && header(res.headers, 'content-range')?.startsWith(`bytes ${written}-`);
        if (res.status !== 200 && !partial) {
          const text = await this.readText(res).catch(() => '');
          throw portalRefusal(this.base, res.status, null, text.slice(0, 300) || null);
        }
        if (!partial) written = 0;
        else resumed++;
        const etag = header(res.headers, 'etag');
        const lastModified = header(res.headers, 'last-modified');
        const encoding = (header(res.headers, 'content-encoding') ?? 'identity').toLowerCase();
        // Range counts the bytes as sent: only an identity body can be resumed byte-exactly.
        validator = etag ?? lastModified;
        resumable = encoding === 'identity' && validator !== null && header(res.headers, 'accept-ranges') === 'bytes';
        const lengthHeader = header(res.headers, 'content-length');
        const total = encoding === 'identity' && lengthHeader !== null ? Number(lengthHeader) + written : null;
        const maxBytes = opts.maxBytes ?? Infinity;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            written += chunk.length;
            if (written > maxBytes)
              return done(
                new PortalError({
                  code: 'portal.too_large',
                  text: `The download is larger than ${maxBytes} bytes.`,
                  params: { max: maxBytes },
                }),
              );
            opts.onProgress?.(written, total);
            done(null, chunk);
          },
        });
        const gzip: NodeJS.ReadWriteStream[] = encoding === 'gzip' || encoding === 'x-gzip' ? [createGunzip()] : [];
        const streams: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = [
          res.body,
          ...gzip,
          counter,
          createWriteStream(path, { flags: partial ? 'a' : 'w' }),
        ];
        await pipeline(streams, opts.signal ? { signal: opts.signal } : {});
        if (total !== null && statSync(path).size !== total) {
          throw Object.assign(new Error(`the download ended after ${statSync(path).size} of ${total} bytes`), { code: 'ECONNRESET' });
        }
        return { notModified: false, bytes: written, etag, lastModified, url: res.url, resumed };
      });
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
  }

  /** Runs `attempt` again after failures worth retrying, waiting as the server asks or backing off. */
  private async withRetries<T>(what: string, signal: AbortSignal | undefined, retries: number, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (signal?.aborted) throw err;
        const failure = this.asPortalError(err);
        if (failure !== err) Object.assign(failure, { cause: err });
        if (!failure.retryable || n >= retries) throw failure;
        await this.pause(what, err, n, signal);
      }
    }
  }

  /** Waits before attempt `n + 1`: as long as the portal's Retry-After asks, or an exponential backoff with jitter. */
  async pause(what: string, err: unknown, n: number, signal?: AbortSignal): Promise<void> {
    const retryAfter = (err as { retryAfter?: number | null }).retryAfter ?? null;
    const backoff = Math.min(this.maxDelayMs, this.backoffMs * 2 ** n) * (0.75 + Math.random() * 0.5);
    const delay = Math.min(this.maxDelayMs, retryAfter ?? backoff);
    this.counts.retries++;
    this.opts.onRetry?.(what, n + 1, delay, err instanceof Error ? err.message : String(err));
    await sleep(delay, signal);
  }

  private asPortalError(err: unknown): PortalError {
    if (err instanceof PortalError) return err;
    const code = errorCode(err);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return portalTimeout(this.base, this.timeoutMs / 1000);
    if (NETWORK_CODES.has(code)) return portalUnreachable(this.base, code);
    return portalUnreachable(this.base, (err as Error).message ?? String(err));
  }

  /** One request, following redirects (bounded); the token goes to the portal's own origin only. */
  private async send(
    url: string,
    method: 'GET' | 'POST',
    headers: Headers,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<RawResponse> {
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; hop <= this.maxRedirects; hop++) {
      const target = new URL(current);
      const sameOrigin = target.origin === this.origin;
      const res = await request(target, {
        method: currentMethod,
        headers: {
          ...headers,
          'user-agent': this.opts.userAgent,
          ...(this.opts.token && sameOrigin ? { authorization: this.opts.token } : {}),
        },
        ...(currentBody !== undefined ? { body: currentBody } : {}),
        dispatcher: this.opts.dispatcher ?? defaultDispatcher(),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        ...(signal ? { signal } : {}),
      });
      const location = header(res.headers, 'location');
      if ([301, 302, 303, 307, 308].includes(res.statusCode) && location) {
        await res.body.dump();
        current = new URL(location, target).toString();
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && currentMethod === 'POST')) {
          currentMethod = 'GET';
          currentBody = undefined;
        }
        continue;
      }
      if (res.statusCode === 429 || res.statusCode >= 500) {
        const text = await res.body.text().catch(() => '');
        const refusal = portalRefusal(this.base, res.statusCode, ckanTypeOf(text), ckanTextOf(text));
        throw Object.assign(refusal, { retryAfter: retryAfterMs(header(res.headers, 'retry-after')) });
      }
      return { status: res.statusCode, headers: res.headers, body: res.body, url: current };
    }
    throw portalTooManyRedirects(url, this.maxRedirects);
  }

  private async readText(res: RawResponse): Promise<string> {
    const encoding = (header(res.headers, 'content-encoding') ?? '').toLowerCase();
    if (encoding !== 'gzip' && encoding !== 'x-gzip') return res.body.text();
    const chunks: Buffer[] = [];
    const gunzip = createGunzip();
    gunzip.on('data', (c: Buffer) => chunks.push(c));
    await pipeline(res.body, gunzip);
    return Buffer.concat(chunks).toString('utf8');
  }
}

function ckanTypeOf(text: string): string | null {
  try {
    const e = (JSON.parse(text) as { error?: { __type?: unknown } }).error;
    return typeof e?.__type === 'string' ? e.__type : null;
  } catch {
    return null;
  }
}

function ckanTextOf(text: string): string | null {
  try {
    return errorText((JSON.parse(text) as { error?: Record<string, unknown> }).error, text);
  } catch {
    return text.trim().slice(0, 300) || null;
  }
}

/** CKAN's error members as one readable line: `message`, or `field: problem; …`. */
function errorText(error: Record<string, unknown> | undefined, raw: string): string | null {
  if (!error) return raw.trim().slice(0, 300) || null;
  if (typeof error.message === 'string') return error.message;
  const parts = Object.entries(error)
    .filter(([k]) => k !== '__type')
    .map(
      ([k, v]) =>
        `${k}: ${Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : JSON.stringify(v)}`,
    );
  return parts.join('; ') || null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
