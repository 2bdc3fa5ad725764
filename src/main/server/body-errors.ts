/** Failures while reading a request body, shared by the body reader and the multipart parser. */
import { BadRequestError } from '../errors';

/**
 * 413 with CKAN's pre-action error shape (a bare JSON string, docs/ckan-contract.md §2.3): CKAN itself
 * never gets to answer an oversized body (its front server or Werkzeug does, in HTML), so
 * the closest thing a CKAN client already handles is the bare-string form with the
 * standard status for "too large".
 */
export class BodyTooLargeError extends BadRequestError {
  constructor(detail: string) {
    super(`Bad request - ${detail}`, 413);
  }

  static overLimit(what: string, limit: number, anonymous = false): BodyTooLargeError {
    return new BodyTooLargeError(`${what} too large: the limit is ${limit} bytes${anonymous ? ' without the API token' : ''}`);
  }
}

/** The client closed the connection mid-body; there is nobody to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('client closed the connection before the request body was complete');
  }
}
