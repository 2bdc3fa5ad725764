/**
 * The error kinds an action can end with, one class per CKAN error envelope (docs/ckan-contract.md §2).
 * They are mapped to HTTP status and body in exactly one place (server/envelope.ts), and
 * cross the engine worker boundary as plain objects (toWireError / fromWireError), so every
 * layer throws the same classes.
 */
import type { Message } from '../shared/messages';
import { optional } from '../shared/optional';
import { pythonRepr } from './util/python-repr';

/** CKAN's `error` members other than `__type`: usually `{param: ["message"]}`, not always. */
export type ValidationErrorMembers = Record<string, unknown>;

/** 409 `Validation Error`: one key per failing parameter. */
export class ValidationError extends Error {
  readonly kind = 'validation' as const;
  /** The same failure worded for people (withMessage): sent as the envelope's `deskstore_message`. */
  deskstoreMessage?: Message;
  constructor(readonly members: ValidationErrorMembers) {
    super(`Validation Error: ${JSON.stringify(members)}`);
  }
}

/** 404 `Not Found Error`, message `Not found` or `Not found: <detail>`. */
export class NotFoundError extends Error {
  readonly kind = 'not_found' as const;
  deskstoreMessage?: Message;
  constructor(readonly detail?: string) {
    super(detail ? `Not found: ${detail}` : 'Not found');
  }
}

/** 403 `Authorization Error`, message `Access denied` or `Access denied: <detail>`. */
export class AuthorizationError extends Error {
  readonly kind = 'authorization' as const;
  deskstoreMessage?: Message;
  constructor(readonly detail?: string) {
    super(detail ? `Access denied: ${detail}` : 'Access denied');
  }
}

/**
 * 400 answered before any action runs, with a bare JSON string body (docs/ckan-contract.md §2.3), e.g.
 * `Bad request - Action name not known: x`. Also used for oversized bodies.
 */
export class BadRequestError extends Error {
  readonly kind = 'bad_request' as const;
  deskstoreMessage?: Message;
  constructor(
    readonly body: string,
    readonly status = 400,
  ) {
    super(body);
  }
}

/**
 * A Deskstore-side failure the user can act on but that is not a parameter problem (disk
 * full, unwritable data directory, a damaged resource file). Answered as CKAN's 409
 * `Validation Error` keyed `message`, so CKAN clients show the text instead of a bare 500.
 */
export class StorageError extends Error {
  readonly kind = 'storage' as const;
  deskstoreMessage?: Message;
  constructor(message: string) {
    super(message);
  }
}

/**
 * package_search's errors, as CKAN's API view answers them: a query Solr cannot run is 409
 * `Search Error` (`Search error: '<detail>'`), a parameter the search refuses is 400
 * `Search Query Error` (`Search Query is invalid: "Invalid search parameters: ['foo']"`): the
 * view formats `%r % e.args`, which with one argument is the repr of that argument, not of
 * a tuple (seen on CKAN 2.10.10; 2.11.5's views/api.py is the same).
 */
export class SearchError extends Error {
  readonly kind = 'search' as const;
  deskstoreMessage?: Message;
  constructor(readonly detail: string) {
    super(`Search error: ${pythonRepr(detail)}`);
  }
}

export class SearchQueryError extends Error {
  readonly kind = 'search_query' as const;
  deskstoreMessage?: Message;
  constructor(readonly detail: string) {
    super(`Search Query is invalid: ${pythonRepr(detail)}`);
  }
}

export type ActionError =
  ValidationError | NotFoundError | AuthorizationError | BadRequestError | StorageError | SearchError | SearchQueryError;

/**
 * Gives an error its wording for people: a Message (src/shared/messages.ts) the UI shows in the
 * user's language, sent beside CKAN's envelope members as the top-level `deskstore_message`
 * (CKAN clients ignore unknown top-level keys; `error` keeps CKAN's members only).
 */
export function withMessage<E extends ActionError>(err: E, message: Message): E {
  err.deskstoreMessage = message;
  return err;
}

type Worded = { message?: Message };

/** A structured-clone-safe form of an ActionError, for postMessage between threads. */
export type WireError =
  | ({ kind: 'validation'; members: ValidationErrorMembers } & Worded)
  | ({ kind: 'not_found'; detail?: string } & Worded)
  | ({ kind: 'authorization'; detail?: string } & Worded)
  | ({ kind: 'bad_request'; body: string; status: number } & Worded)
  | { kind: 'storage'; message: string; worded?: Message }
  | ({ kind: 'search' | 'search_query'; detail: string } & Worded)
  | { kind: 'internal'; message: string; stack?: string; name?: string };

export function isActionError(err: unknown): err is ActionError {
  return (
    err instanceof ValidationError ||
    err instanceof NotFoundError ||
    err instanceof AuthorizationError ||
    err instanceof BadRequestError ||
    err instanceof StorageError ||
    err instanceof SearchError ||
    err instanceof SearchQueryError
  );
}

export function toWireError(err: unknown): WireError {
  if (err instanceof ValidationError) return { kind: 'validation', members: err.members, ...optional('message', err.deskstoreMessage) };
  if (err instanceof NotFoundError)
    return { kind: 'not_found', ...optional('detail', err.detail), ...optional('message', err.deskstoreMessage) };
  if (err instanceof AuthorizationError) {
    return { kind: 'authorization', ...optional('detail', err.detail), ...optional('message', err.deskstoreMessage) };
  }
  if (err instanceof BadRequestError)
    return { kind: 'bad_request', body: err.body, status: err.status, ...optional('message', err.deskstoreMessage) };
  if (err instanceof StorageError) return { kind: 'storage', message: err.message, ...optional('worded', err.deskstoreMessage) };
  if (err instanceof SearchError || err instanceof SearchQueryError)
    return { kind: err.kind, detail: err.detail, ...optional('message', err.deskstoreMessage) };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'internal', message: e.message, name: e.name, ...optional('stack', e.stack) };
}

export function fromWireError(wire: WireError): Error {
  const worded = <E extends ActionError>(err: E, message: Message | undefined): E => (message ? withMessage(err, message) : err);
  switch (wire.kind) {
    case 'validation':
      return worded(new ValidationError(wire.members), wire.message);
    case 'not_found':
      return worded(new NotFoundError(wire.detail), wire.message);
    case 'authorization':
      return worded(new AuthorizationError(wire.detail), wire.message);
    case 'bad_request':
      return worded(new BadRequestError(wire.body, wire.status), wire.message);
    case 'storage':
      return worded(new StorageError(wire.message), wire.worded);
    case 'search':
      return worded(new SearchError(wire.detail), wire.message);
    case 'search_query':
      return worded(new SearchQueryError(wire.detail), wire.message);
    case 'internal': {
      const e = new Error(wire.message);
      if (wire.stack) e.stack = wire.stack;
      if (wire.name) e.name = wire.name; // e.g. ImportInputError: a user's problem, not a bug
      return e;
    }
  }
}

/** `{param: ["message"]}`, the common shape of a one-parameter validation failure. */
export function invalid(param: string, message: string): ValidationError {
  return new ValidationError({ [param]: [message] });
}
