/**
 * A problem with the file or the options a user gave an import (bad CSV, unknown encoding,
 * a forced type that does not fit, a URL that cannot be fetched): the message says what to
 * fix. Its `name` survives the trip from an import worker, so the API can answer it as a
 * validation error rather than an internal one.
 */
export class ImportInputError extends Error {
  override name = 'ImportInputError';
}

export function isImportInputError(err: unknown): err is Error {
  return err instanceof Error && err.name === 'ImportInputError';
}

/** What a cancelled import rejects with (the standard abort error, so `signal` users recognise it). */
export function importCancelled(): DOMException {
  return new DOMException('The import was cancelled', 'AbortError');
}
