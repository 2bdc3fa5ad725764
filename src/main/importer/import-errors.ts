import { message as toMessage, type Message } from '../../shared/messages';

/**
 * A problem with the file or the options a user gave an import (bad CSV, unknown encoding,
 * a forced type that does not fit, a URL that cannot be fetched, a limit): the message says
 * what to fix, as a Message the UI words in the user's language. Its `name` and `worded`
 * survive the trip from an import worker, so the API can answer it as a validation error
 * rather than an internal one.
 */
export class ImportInputError extends Error {
  override name = 'ImportInputError';
  readonly worded: Message;

  constructor(what: Message | string) {
    const worded = typeof what === 'string' ? toMessage('import.refused.other', what, { text: what }) : what;
    super(worded.text);
    this.worded = worded;
  }
}

export function isImportInputError(err: unknown): err is ImportInputError {
  return err instanceof Error && err.name === 'ImportInputError';
}

/** The Message of an import's failure, when it has one. */
export function wordingOf(err: unknown): Message | undefined {
  return isImportInputError(err) && 'worded' in err ? err.worded : undefined;
}

/**
 * What the user reads when an import fails in a way no reader worded (issue 21: stack traces
 * and `undefined entity` reached the user): a coded sentence in their language, the raw
 * detail as its parameter. A file nested too deeply for the reader's stack says so.
 */
export function wordedFailure(err: unknown): Message {
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError && /call stack/i.test(reason)) {
    return toMessage('import.refused.too_deep', 'This file nests its data too deeply to be imported.');
  }
  return toMessage('import.refused.failed', `The file could not be imported: ${reason}`, { reason });
}

/** What a cancelled import rejects with (the standard abort error, so `signal` users recognise it). */
export function importCancelled(): DOMException {
  return new DOMException('The import was cancelled', 'AbortError');
}

/** A dump with more rows than the portal's DataStore says it has: the first one past them stops it. */
export function rowsPastTotal(total: number): ImportInputError {
  return new ImportInputError(
    toMessage(
      'mirror.rows_past_total',
      `The portal's data goes on past the ${total} rows its DataStore reports; the previous version is kept.`,
      {
        total,
      },
    ),
  );
}
