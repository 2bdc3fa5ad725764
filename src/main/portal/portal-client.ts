import { createWriteStream, rmSync, statSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { message } from '../../shared/messages';
import { PRIVATE_FILE_MODE } from '../storage/data-paths';
import { TransferWatch, type TransferLimits } from '../util/transfer-watch';
import { checkWrittenAddress, FORBIDDEN_ADDRESS_CODE, forbiddenAddress, publicOnlyLookup } from './address-policy';
import {
  PortalError,
  portalAnswerTooLarge,
  portalRedirectRefused,
  portalRefusal,
  portalTimeout,
  portalTooManyRedirects,
  portalTooSlow,
  portalUnreachable,
} from './portal-errors';

/**
 * The one HTTP client for portals (mirror, sync, push, the UI's portal browser): timeouts and
 * deadlines, retries with backoff on network failures, 5xx and 429 (honouring Retry-After),
 * bounded redirects, gzip, HTTP(S)_PROXY/NO_PROXY (undici's EnvHttpProxyAgent), a User-Agent
 * naming Deskstore, conditional requests, Range resume, an optional token (never logged), and
 * at most one download per portal at a time. Everything read is capped after decompression
 * (an action's answer at ACTION_ANSWER_MAX_BYTES; downloads at what their caller allows, and
 * streamed to a file), and nothing but the portal's own origin may lead to a local or private
 * address (address-policy.ts). docs/portal.md §Network, docs/security.md §Portals.
 */

/** The most an action's answer may hold, decompressed: a `package_show` of 2 GB made the server 6 GB. */
export const ACTION_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/** The most of an error's body that is read (for its message). */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

/** Slowest average rate accepted once the first timeout has passed (as URL loads, jobs/download.ts). */
const MIN_BYTES_PER_SECOND = 1024;
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
  /** Resolves names (tests map their names to 127.0.0.1); default: the system's. */
  readonly lookup?: LookupFunction;
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

/**
 * The portal's own origin goes through `own`; any other origin (a redirect, a resource's URL)
 * through `other`, whose sockets may connect to public addresses only (address-policy.ts).
 * Both read HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) when made.
 */
interface Dispatchers {
  readonly own: Dispatcher;
  readonly other: Dispatcher;
}

function makeDispatchers(lookup?: LookupFunction): Dispatchers {
  return {
    own: new EnvHttpProxyAgent(lookup ? { connect: { lookup } } : {}),
    other: new EnvHttpProxyAgent({ connect: { lookup: publicOnlyLookup(lookup) } }),
  };
}

let shared: Dispatchers | null = null;

/** Closes idle keep-alive connections, so a command-line run can end at once. */
export async function closePortalConnections(): Promise<void> {
  const dispatchers = shared;
  shared = null;
  await Promise.all([dispatchers?.own.close(), dispatchers?.other.close()]);
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
  private readonly dispatchers: Dispatchers;
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
    this.dispatchers = opts.lookup ? makeDispatchers(opts.lookup) : (shared ??= makeDispatchers());
  }

  /** Closes this client's connections when it has its own (an injected lookup). */
  async close(): Promise<void> {
    if (this.dispatchers !== shared) await Promise.all([this.dispatchers.own.close(), this.dispatchers.other.close()]);
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
   * becomes a PortalError carrying the portal's own message. `parse` reads the answer's text
   * (default JSON.parse; mirror pages keep their records as source text, raw-records.ts).
   */
  async action<T>(
    name: string,
    params: Record<string, unknown> = {},
    method: 'GET' | 'POST' = 'GET',
    signal?: AbortSignal,
    parse: (text: string) => unknown = JSON.parse,
  ): Promise<T> {
    if (method === 'POST') return this.call<T>(name, JSON.stringify(params), signal, this.retries, parse);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return this.call<T>(query.size ? `${name}?${query.toString()}` : name, undefined, signal, this.retries, parse);
  }

  /**
   * A POST whose JSON body is already written (a push batch), tried once: whether a failed
   * write was committed is for the caller to find out before sending it again.
   */
  async actionBody<T>(name: string, body: string, signal?: AbortSignal): Promise<T> {
    return this.call<T>(name, body, signal, 0);
  }

  private async call<T>(
    nameAndQuery: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
    retries: number,
    parse: (text: string) => unknown = JSON.parse,
  ): Promise<T> {
    this.counts.actions++;
    const action = nameAndQuery.split('?')[0]!;
    const url = this.url(`/api/3/action/${nameAndQuery}`);
    const headers: Headers = {
      accept: 'application/json',
      'accept-encoding': 'gzip',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    };
    // An action's whole answer within the timeout: a deadline, not only a silence limit.
    return this.withWatch(signal, retries, action, { deadlineMs: this.timeoutMs }, async (watch) => {
      const res = await this.send(url, body === undefined ? 'GET' : 'POST', headers, body, watch);
      const text = await this.readText(res, watch, ACTION_ANSWER_MAX_BYTES, () =>
        portalAnswerTooLarge(this.base, action, ACTION_ANSWER_MAX_BYTES),
      );
      let envelope: CkanEnvelope | null;
      try {
        envelope = parse(text) as CkanEnvelope | null;
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
    const maxBytes = opts.maxBytes ?? Infinity;
    try {
      // A download may be long: no deadline, but no silence of the timeout and, once it has
      // passed, at least MIN_BYTES_PER_SECOND on average, so a trickle ends too.
      return await this.withWatch(opts.signal, this.retries, 'download', {}, async (watch) => {
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
        const res = await this.send(url, 'GET', headers, undefined, watch);
        if (res.status === 304 && !resuming) {
          await res.body.dump();
          this.counts.notModified++;
          return { notModified: true, bytes: 0, etag: opts.etag ?? null, lastModified: opts.lastModified ?? null, url: res.url, resumed };
        }
        const partial = resuming && res.status === 206 && header(res.headers, 'content-range')?.startsWith(`bytes ${written}-`);
        if (res.status !== 200 && !partial) {
          const text = await this.readErrorText(res, watch);
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
        if (total !== null && total > maxBytes) {
          await res.body.dump().catch(() => undefined);
          throw downloadTooLarge(maxBytes);
        }
        // Counted after decompression: a small gzip body cannot expand past the cap.
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            written += chunk.length;
            if (written > maxBytes) return done(downloadTooLarge(maxBytes));
            opts.onProgress?.(written, total);
            done(null, chunk);
          },
        });
        await pipeline(
          [
            res.body,
            wireCounter(watch),
            ...gunzipFor(encoding),
            counter,
            createWriteStream(path, { flags: partial ? 'a' : 'w', mode: PRIVATE_FILE_MODE }),
          ],
          { signal: watch.signal },
        );
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

  /**
   * `attempt` with retries, each attempt watched (util/transfer-watch.ts): headers within the
   * timeout, no silence longer than it, at least MIN_BYTES_PER_SECOND once it has passed, and
   * `deadlineMs` for the whole attempt when given. A watch that gives up fails the attempt with
   * its reason, whatever undici made of the abort.
   */
  private async withWatch<T>(
    signal: AbortSignal | undefined,
    retries: number,
    what: string,
    extra: Partial<TransferLimits>,
    attempt: (watch: TransferWatch) => Promise<T>,
  ): Promise<T> {
    const limits: TransferLimits = {
      headersMs: this.timeoutMs,
      stallMs: this.timeoutMs,
      minBytesPerSecond: MIN_BYTES_PER_SECOND,
      rateGraceMs: this.timeoutMs,
      ...extra,
    };
    const seconds = this.timeoutMs / 1000;
    return this.withRetries(what, signal, retries, async () => {
      const watch = new TransferWatch(
        limits,
        {
          headers: () => portalTimeout(this.base, seconds),
          stalled: () => portalTimeout(this.base, seconds),
          deadline: () => portalTimeout(this.base, seconds),
          slow: (rate) => portalTooSlow(this.base, rate),
        },
        signal,
      );
      try {
        return await attempt(watch);
      } catch (err) {
        // The caller's own cancel keeps its reason; a limit's reason is what the user reads.
        if (watch.reason && !signal?.aborted) throw watch.reason;
        throw err;
      } finally {
        watch.done();
      }
    });
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

  /**
   * One request, following redirects (bounded). The token goes to the portal's own origin
   * only; any other origin must be a public address (address-policy.ts, checked on the address
   * connected to); a write (POST) is never redirected to another origin.
   */
  private async send(
    url: string,
    method: 'GET' | 'POST',
    headers: Headers,
    body: string | undefined,
    watch: TransferWatch,
  ): Promise<RawResponse> {
    const from = new URL(url).origin;
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; hop <= this.maxRedirects; hop++) {
      const target = new URL(current);
      const own = target.origin === this.origin;
      if (method === 'POST' && target.origin !== from) throw portalRedirectRefused(this.base, target.toString());
      if (!own) checkWrittenAddress(target);
      let res: Dispatcher.ResponseData;
      try {
        res = await request(target, {
          method: currentMethod,
          headers: {
            ...headers,
            'user-agent': this.opts.userAgent,
            ...(this.opts.token && own ? { authorization: this.opts.token } : {}),
          },
          ...(currentBody !== undefined ? { body: currentBody } : {}),
          dispatcher: own ? this.dispatchers.own : this.dispatchers.other,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          signal: watch.signal,
        });
      } catch (err) {
        if (errorCode(err) === FORBIDDEN_ADDRESS_CODE)
          throw forbiddenAddress(target.toString(), String((err as { address?: string }).address ?? ''));
        throw err;
      }
      watch.gotHeaders();
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
      const raw: RawResponse = { status: res.statusCode, headers: res.headers, body: res.body, url: current };
      if (res.statusCode === 429 || res.statusCode >= 500) {
        const text = await this.readErrorText(raw, watch);
        const refusal = portalRefusal(this.base, res.statusCode, ckanTypeOf(text), ckanTextOf(text));
        throw Object.assign(refusal, { retryAfter: retryAfterMs(header(res.headers, 'retry-after')) });
      }
      return raw;
    }
    throw portalTooManyRedirects(url, this.maxRedirects);
  }

  /**
   * The body as text, decoded from gzip, read only up to `maxBytes` (counted decompressed):
   * past them `tooLarge()` fails the call, and nothing more is read or inflated.
   */
  private async readText(res: RawResponse, watch: TransferWatch, maxBytes: number, tooLarge: () => Error): Promise<string> {
    const chunks = await readUpTo(res, watch, maxBytes);
    if (!chunks) throw tooLarge();
    return Buffer.concat(chunks).toString('utf8');
  }

  /** An error's body, for its message: its first ERROR_BODY_MAX_BYTES at most. */
  private async readErrorText(res: RawResponse, watch: TransferWatch): Promise<string> {
    const chunks = await readUpTo(res, watch, ERROR_BODY_MAX_BYTES, true).catch(() => null);
    return chunks ? Buffer.concat(chunks).toString('utf8') : '';
  }
}

/**
 * A body (gzip decoded) read up to `maxBytes`, the rest never read nor inflated: its chunks,
 * or, when there was more, null (or its first `maxBytes` when `keepCut`).
 */
async function readUpTo(res: RawResponse, watch: TransferWatch, maxBytes: number, keepCut = false): Promise<Buffer[] | null> {
  let chunks: Buffer[] = [];
  let size = 0;
  const full = new Error('full');
  const collect = new Writable({
    write(chunk: Buffer, _enc, done) {
      const room = maxBytes - size;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (keepCut) chunks.push(chunk.subarray(0, Math.max(room, 0)));
      else chunks = []; // let go at once
      done(size > maxBytes ? full : null);
    },
  });
  const encoding = (header(res.headers, 'content-encoding') ?? '').toLowerCase();
  try {
    await pipeline([res.body, wireCounter(watch), ...gunzipFor(encoding), collect], { signal: watch.signal });
  } catch (err) {
    if (err !== full) throw err;
  }
  return size > maxBytes && !keepCut ? null : chunks;
}

/** Counts the bytes as they come off the wire, for the watch's rate and silence. */
function wireCounter(watch: TransferWatch): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      watch.progress(chunk.length);
      done(null, chunk);
    },
  });
}

const gunzipFor = (encoding: string): NodeJS.ReadWriteStream[] => (encoding === 'gzip' || encoding === 'x-gzip' ? [createGunzip()] : []);

const downloadTooLarge = (maxBytes: number): PortalError =>
  new PortalError(message('portal.too_large', `The download is larger than ${maxBytes} bytes.`, { max: maxBytes }));

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
