/**
 * The error kinds an action can end with, one class per CKAN error envelope (contract §2).
 * They are mapped to HTTP status and body in exactly one place (server/envelope.ts), and
 * cross the engine worker boundary as plain objects (toWireError / fromWireError), so every
 * layer throws the same classes.
 */
import { optional } from '../shared/optional';
import { pythonRepr } from './util/python-repr';

/** CKAN's `error` members other than `__type`: usually `{param: ["message"]}`, not always. */
export type ValidationErrorMembers = Record<string, unknown>;

/** 409 `Validation Error`: one key per failing parameter. */
export class ValidationError extends Error {
  readonly kind = 'validation' as const;
  constructor(readonly members: ValidationErrorMembers) {
    super(`Validation Error: ${JSON.stringify(members)}`);
  }
}

/** 404 `Not Found Error`, message `Not found` or `Not found: <detail>`. */
export class NotFoundError extends Error {
  readonly kind = 'not_found' as const;
  constructor(readonly detail?: string) {
    super(detail ? `Not found: ${detail}` : 'Not found');
  }
}

/** 403 `Authorization Error`, message `Access denied` or `Access denied: <detail>`. */
export class AuthorizationError extends Error {
  readonly kind = 'authorization' as const;
  constructor(readonly detail?: string) {
    super(detail ? `Access denied: ${detail}` : 'Access denied');
  }
}

/**
 * 400 answered before any action runs, with a bare JSON string body (contract §2.3), e.g.
 * `Bad request - Action name not known: x`. Also used for oversized bodies.
 */
export class BadRequestError extends Error {
  readonly kind = 'bad_request' as const;
  constructor(readonly body: string, readonly status = 400) {
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
  constructor(message: string) {
    super(message);
  }
}

/**
 * package_search's errors, as CKAN's API view answers them: a query Solr cannot run is 409
 * `Search Error` (`Search error: (<detail>,)`), a parameter the search refuses is 400
 * `Search Query Error` (`Search Query is invalid: (<detail>,)`).
 */
export class SearchError extends Error {
  readonly kind = 'search' as const;
  constructor(readonly detail: string) {
    super(`Search error: (${pythonRepr(detail)},)`);
  }
}

export class SearchQueryError extends Error {
  readonly kind = 'search_query' as const;
  constructor(readonly detail: string) {
    super(`Search Query is invalid: (${pythonRepr(detail)},)`);
  }
}

export type ActionError = ValidationError | NotFoundError | AuthorizationError | BadRequestError | StorageError | SearchError | SearchQueryError;

/** A structured-clone-safe form of an ActionError, for postMessage between threads. */
export type WireError =
  | { kind: 'validation'; members: ValidationErrorMembers }
  | { kind: 'not_found'; detail?: string }
  | { kind: 'authorization'; detail?: string }
  | { kind: 'bad_request'; body: string; status: number }
  | { kind: 'storage'; message: string }
  | { kind: 'search' | 'search_query'; detail: string }
  | { kind: 'internal'; message: string; stack?: string; name?: string };

export function isActionError(err: unknown): err is ActionError {
  return err instanceof ValidationError || err instanceof NotFoundError || err instanceof AuthorizationError
    || err instanceof BadRequestError || err instanceof StorageError || err instanceof SearchError || err instanceof SearchQueryError;
}

export function toWireError(err: unknown): WireError {
  if (err instanceof ValidationError) return { kind: 'validation', members: err.members };
  if (err instanceof NotFoundError) return { kind: 'not_found', ...optional('detail', err.detail) };
  if (err instanceof AuthorizationError) return { kind: 'authorization', ...optional('detail', err.detail) };
  if (err instanceof BadRequestError) return { kind: 'bad_request', body: err.body, status: err.status };
  if (err instanceof StorageError) return { kind: 'storage', message: err.message };
  if (err instanceof SearchError || err instanceof SearchQueryError) return { kind: err.kind, detail: err.detail };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'internal', message: e.message, name: e.name, ...optional('stack', e.stack) };
}

export function fromWireError(wire: WireError): Error {
  switch (wire.kind) {
    case 'validation': return new ValidationError(wire.members);
    case 'not_found': return new NotFoundError(wire.detail);
    case 'authorization': return new AuthorizationError(wire.detail);
    case 'bad_request': return new BadRequestError(wire.body, wire.status);
    case 'storage': return new StorageError(wire.message);
    case 'search': return new SearchError(wire.detail);
    case 'search_query': return new SearchQueryError(wire.detail);
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
