/** Fake registry, temp dirs and raw HTTP helpers shared by the server tests. */
import { mkdtemp, readFile, rm, readdir } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionContext, ActionDefinition, ActionRegistry } from '../../../src/main/actions/types';
import type { ActionParams, UploadedFile } from '../../../src/main/params/action-params';
import { AuthorizationError, BadRequestError, NotFoundError, StorageError, ValidationError } from '../../../src/main/errors';
import { startHttpServer } from '../../../src/main/server/http-server';
import type { RequestLogEntry, RunningServer, ServerOptions } from '../../../src/main/server/types';
import { RawJson } from '../../../src/main/util/raw-json';

export const TOKEN = 'test-token-0123456789abcdef';

function isUpload(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'upload';
}

function define(name: string, sideEffectFree: boolean, run: ActionDefinition['run']): [string, ActionDefinition] {
  return [name, { name, sideEffectFree, run }];
}

const echo = async (params: ActionParams, ctx: ActionContext) => ({ params, context: ctx });

/** Paths of uploads seen by `upload_probe`, to check they are gone after the request. */
export interface Probe {
  uploadPaths: string[];
  /** How many times `token_probe` (an action that needs the token) ran. */
  tokenProbeRuns: number;
  /** `slow` waits for this to be called. */
  releaseSlow: () => void;
  slowStarted: Promise<void>;
}

export function createFakeRegistry(probe: Probe): ActionRegistry {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => undefined;
  probe.slowStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  probe.releaseSlow = () => release();
  return new Map([
    define('echo', true, echo),
    define('echo_post', false, echo),
    define('fail', true, async (params) => {
      switch (params.kind) {
        case 'validation':
          throw new ValidationError({ limit: ['Invalid integer'], records_row: 3 });
        case 'validation_type':
          throw new ValidationError({ __type: 'spoofed', field: ['x'] });
        case 'not_found':
          throw new NotFoundError();
        case 'not_found_detail':
          throw new NotFoundError('Resource "abc" was not found.');
        case 'authorization':
          throw new AuthorizationError();
        case 'authorization_detail':
          throw new AuthorizationError('Not authorized to call function pg_sleep');
        case 'bad_request':
          throw new BadRequestError('Bad request - something odd', 400);
        case 'storage':
          throw new StorageError('Disk full while writing resource abc');
        default:
          throw new TypeError('secret internal detail /home/user/data');
      }
    }),
    define('raw', true, async () => ({ records: new RawJson('[{"price":2.50,"n":1}]'), total: 1, skipped: undefined })),
    define('upload_probe', false, async (params) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(params)) {
        if (isUpload(value)) {
          probe.uploadPaths.push(value.path);
          const content = await readFile(value.path, 'utf8');
          out[key] = { filename: value.filename, size: value.size, mimeType: value.mimeType, content };
        } else {
          out[key] = value;
        }
      }
      return out;
    }),
    [
      'token_probe',
      {
        name: 'token_probe',
        sideEffectFree: false,
        requiresToken: true,
        run: async () => {
          probe.tokenProbeRuns++;
          return 'ran';
        },
      },
    ],
    define('slow', true, async () => {
      started();
      await gate;
      return 'done';
    }),
  ]);
}

export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly port: number;
  readonly uploadDir: string;
  readonly root: string;
  readonly probe: Probe;
  readonly logs: RequestLogEntry[];
  readonly errors: Array<{ message: string; error: unknown }>;
  stop(): Promise<void>;
}

export async function startTestServer(overrides: Partial<ServerOptions> = {}): Promise<TestServer> {
  const root = await mkdtemp(join(tmpdir(), 'deskstore-server-'));
  const uploadDir = join(root, 'uploads');
  const probe: Probe = { uploadPaths: [], tokenProbeRuns: 0, releaseSlow: () => undefined, slowStarted: Promise.resolve() };
  const logs: RequestLogEntry[] = [];
  const errors: Array<{ message: string; error: unknown }> = [];
  const server = await startHttpServer({
    registry: createFakeRegistry(probe),
    token: TOKEN,
    uploadDir,
    maxBodyBytes: 64 * 1024,
    maxUploadBytes: 256 * 1024,
    logger: {
      request: (entry) => logs.push(entry),
      warn: (message) => errors.push({ message, error: undefined }),
      error: (message, error) => errors.push({ message, error }),
    },
    ...overrides,
  });
  return {
    server,
    url: server.url,
    port: server.port,
    uploadDir,
    root,
    probe,
    logs,
    errors,
    async stop() {
      probe.releaseSlow();
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function filesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  json(): unknown;
}

export interface RawRequest {
  readonly port: number;
  readonly method?: string;
  readonly path: string;
  /** Give `host: undefined` to send no Host header at all. */
  readonly headers?: Record<string, string | undefined>;
  readonly body?: string | Buffer;
}

/** node:http request, so that Host (and everything else) is exactly what the test says. */
export function rawRequest(req: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  const given = req.headers ?? {};
  const hasHostKey = Object.prototype.hasOwnProperty.call(given, 'host');
  for (const [k, v] of Object.entries(given)) if (v !== undefined) headers[k] = v;
  if (!hasHostKey) headers.host = `127.0.0.1:${req.port}`;
  // Node's client frames a GET body only when told its length.
  const framed = Object.keys(headers).some((k) => ['content-length', 'transfer-encoding'].includes(k.toLowerCase()));
  if (req.body !== undefined && !framed) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: '127.0.0.1',
        port: req.port,
        method: req.method ?? 'GET',
        path: req.path,
        headers,
        setHost: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/** fetch + parsed body; `json` is undefined when the body is not JSON. */
export async function call(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
