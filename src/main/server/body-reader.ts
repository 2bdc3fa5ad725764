/**
 * Reads a request body into one of the shapes §1.2 distinguishes: a form (urlencoded or
 * multipart, with multipart files already on disk), raw text (parsed as JSON later), or
 * nothing. Non-file bodies are capped at maxBodyBytes by raw-body.
 */
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import type { UploadedFile } from '../params/action-params';
import { BadRequestError } from '../errors';
import { BodyTooLargeError, ClientGoneError } from './body-errors';
import { parseMultipart } from './multipart';

export type RequestBody =
  | { readonly kind: 'none' }
  /** urlencoded or multipart; `fields` keeps order and repeats, as Werkzeug's MultiDict. */
  | {
      readonly kind: 'form';
      readonly fields: Array<[string, string]>;
      readonly files: Array<[string, UploadedFile]>;
      readonly createdPaths: string[];
    }
  /** Any other content type (or none): the text is parsed as JSON if it is used. */
  | { readonly kind: 'raw'; readonly text: string };

export interface BodyLimits {
  readonly uploadDir: string;
  readonly maxBodyBytes: number;
  readonly maxUploadBytes: number;
  /** The request carries no token: the anonymous cap applies and files are refused. */
  readonly anonymous?: boolean;
}

/**
 * The limits for a request without the token (docs/security.md, "bodies"): nothing an anonymous
 * client may do needs a big body (it can only read), and files only go to actions that write.
 */
export function anonymousLimits(limits: BodyLimits, maxAnonymousBodyBytes: number): BodyLimits {
  return { ...limits, maxBodyBytes: Math.min(limits.maxBodyBytes, maxAnonymousBodyBytes), maxUploadBytes: 0, anonymous: true };
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** Content-Length, when declared and well-formed (Node has already rejected nonsense). */
function declaredLength(req: IncomingMessage): number | null {
  const length = req.headers['content-length'];
  if (length === undefined || !/^\d+$/.test(length)) return null;
  return Number(length);
}

/** The largest body this request may carry, by its content type. */
function bodyLimitFor(req: IncomingMessage, limits: BodyLimits): number {
  // Multipart carries files plus fields and boundaries; the per-part caps apply while parsing.
  return mediaType(req) === 'multipart/form-data' ? limits.maxUploadBytes + limits.maxBodyBytes : limits.maxBodyBytes;
}

/** The 413 for this request's kind of body: uploads are reported against the upload cap. */
function tooLargeFor(req: IncomingMessage, limits: BodyLimits): BodyTooLargeError {
  if (limits.anonymous) return BodyTooLargeError.overLimit('Request body', limits.maxBodyBytes, true);
  return mediaType(req) === 'multipart/form-data'
    ? BodyTooLargeError.overLimit('Upload', limits.maxUploadBytes)
    : BodyTooLargeError.overLimit('Request body', limits.maxBodyBytes);
}

/** Refuses, before reading anything, a body whose declared length is over its cap. */
export function assertDeclaredSizeFits(req: IncomingMessage, limits: BodyLimits): void {
  const declared = declaredLength(req);
  if (declared !== null && declared > bodyLimitFor(req, limits)) throw tooLargeFor(req, limits);
}

export async function readRequestBody(req: IncomingMessage, limits: BodyLimits): Promise<RequestBody> {
  if (!hasBody(req)) return { kind: 'none' };
  const type = mediaType(req);
  if (type === 'multipart/form-data') {
    assertDeclaredSizeFits(req, limits);
    const parsed = await parseMultipart(req, {
      uploadDir: limits.uploadDir,
      maxUploadBytes: limits.maxUploadBytes,
      maxFieldBytes: limits.maxBodyBytes,
      filesAllowed: !limits.anonymous,
    });
    return { kind: 'form', ...parsed };
  }
  const buffer = await readCapped(req, limits);
  if (type === 'application/x-www-form-urlencoded') {
    // URLSearchParams decodes exactly as Werkzeug's form parser: `+` is a space, %XX is
    // UTF-8, `&` separates. This is what makes curl's `-d '{"a":1}'` land as a field name.
    const fields = [...new URLSearchParams(buffer.toString('utf8'))];
    return { kind: 'form', fields, files: [], createdPaths: [] };
  }
  // Python's json.loads accepts a UTF-8 byte-order mark; JSON.parse does not.
  return { kind: 'raw', text: buffer.toString('utf8').replace(/^\uFEFF/, '') };
}

async function readCapped(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const limit = limits.maxBodyBytes;
  try {
    return await getRawBody(req, { limit, length: declaredLength(req) });
  } catch (err) {
    const type = (err as { type?: unknown }).type;
    if (type === 'entity.too.large') throw BodyTooLargeError.overLimit('Request body', limit, limits.anonymous);
    if (type === 'request.aborted') throw new ClientGoneError();
    if (type === 'request.size.invalid') {
      throw new BadRequestError('Bad request - Request body shorter or longer than its Content-Length');
    }
    throw err;
  }
}
