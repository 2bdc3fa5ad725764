/**
 * multipart/form-data with busboy: fields are collected, file parts are streamed straight to
 * `uploadDir` (never held in memory) under a running size cap. On any failure (too large,
 * malformed, client gone) every file this request created is removed before the promise
 * rejects, so no partial upload survives.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { UploadedFile } from '../params/action-params';
import { AuthorizationError, BadRequestError } from '../errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, pathInside, uniqueFileName } from '../storage/data-paths';
import { storageFailure, whyNotWritable } from '../storage/storage-failure';
import { dirname } from 'node:path';
import { BodyTooLargeError, ClientGoneError } from './body-errors';

export interface MultipartLimits {
  readonly uploadDir: string;
  /** All file parts of the request together. */
  readonly maxUploadBytes: number;
  /** All field names and values together. */
  readonly maxFieldBytes: number;
  /** False for requests without the token: a file part is refused before a byte is stored. */
  readonly filesAllowed: boolean;
}

export interface MultipartBody {
  readonly fields: Array<[string, string]>;
  readonly files: Array<[string, UploadedFile]>;
  /** Every file written for this request, including ones not handed to the action. */
  readonly createdPaths: string[];
}

// Generous for any CKAN client (ckanapi sends one file plus a handful of fields) while
// bounding the work a hostile request can cause.
const MAX_FILES = 10;
const MAX_FIELDS = 1000;

/** A file-system failure (a read-only or full disk) is the user's to fix, not a 500. */
function asStorageFailure(err: unknown): unknown {
  return typeof (err as NodeJS.ErrnoException | null)?.syscall === 'string' ? storageFailure('Could not store the upload', err) : err;
}

export async function parseMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<MultipartBody> {
  try {
    await mkdir(limits.uploadDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    throw asStorageFailure(whyNotWritable(dirname(limits.uploadDir)) ?? err);
  }
  return new Promise<MultipartBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers and curl send UTF-8 file names raw; busboy's default would read latin1.
        defParamCharset: 'utf8',
        limits: {
          fieldNameSize: limits.maxFieldBytes,
          fieldSize: limits.maxFieldBytes,
          fields: MAX_FIELDS,
          files: MAX_FILES,
        },
      });
    } catch (err) {
      reject(new BadRequestError(`Bad request - Malformed multipart body: ${messageOf(err)}`));
      return;
    }

    const fields: Array<[string, string]> = [];
    const createdPaths: string[] = [];
    // One promise per file part, in the order of the parts: the files are reported in that
    // order, whichever finishes writing first ("the first `upload`" means the first sent).
    const writes: Array<Promise<[string, UploadedFile]>> = [];
    const fileStreams: Readable[] = [];
    let fieldBytes = 0;
    let fileBytes = 0;
    let failed = false;

    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      for (const stream of fileStreams) stream.destroy();
      // Wait until every write stream is closed (it may not even be open yet), then delete:
      // deleting earlier could race a late open and leave a file behind.
      void Promise.allSettled(writes)
        .then(() => removeFiles(createdPaths))
        .finally(() => reject(err));
    };

    parser.on('field', (name, value, info) => {
      if (failed) return;
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.nameTruncated || info.valueTruncated || fieldBytes > limits.maxFieldBytes) {
        fail(BodyTooLargeError.overLimit('Form data', limits.maxFieldBytes));
        return;
      }
      fields.push([name, value]);
    });

    parser.on('file', (name, stream, info) => {
      if (failed) {
        stream.resume();
        return;
      }
      if (!limits.filesAllowed) {
        stream.resume();
        fail(new AuthorizationError('uploading files needs the Deskstore API token in the Authorization header'));
        return;
      }
      let path: string;
      try {
        path = pathInside(limits.uploadDir, `upload-${uniqueFileName()}`);
      } catch (err) {
        stream.resume();
        fail(err);
        return;
      }
      createdPaths.push(path);
      fileStreams.push(stream);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          fileBytes += chunk.length;
          if (fileBytes > limits.maxUploadBytes) callback(BodyTooLargeError.overLimit('Upload', limits.maxUploadBytes));
          else callback(null, chunk);
        },
      });
      const out = createWriteStream(path, { flags: 'wx', mode: PRIVATE_FILE_MODE });
      const write = pipeline(stream, counter, out).then((): [string, UploadedFile] => [
        name,
        {
          kind: 'upload',
          path,
          filename: info.filename ?? '',
          size,
          mimeType: info.mimeType,
        },
      ]);
      writes.push(write);
      write.catch((err: unknown) => fail(asStorageFailure(err)));
    });

    const tooMany = () => fail(new BodyTooLargeError(`Too many parts: at most ${MAX_FILES} files and ${MAX_FIELDS} fields`));
    parser.on('filesLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on('error', (err: unknown) => fail(new BadRequestError(`Bad request - Malformed multipart body: ${messageOf(err)}`)));
    parser.on('close', () => {
      if (failed) return;
      // The parser is done; file parts may still be flushing to disk.
      void Promise.all(writes).then(
        (files) => {
          if (!failed) resolve({ fields, files, createdPaths });
        },
        (err: unknown) => fail(asStorageFailure(err)),
      );
    });
    req.on('close', () => {
      if (!req.complete) fail(new ClientGoneError());
    });
    req.pipe(parser);
  });
}

export async function removeFiles(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { force: true })));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
