import { message, type Message } from '../../shared/messages';

/**
 * A portal could not do what was asked: unreachable, too slow, an HTTP failure, or CKAN's own
 * refusal. `message` words it for people (en/it in the UI); `portalText` is the portal's own
 * message, shown underneath it; `retryable` says whether the client may try again.
 */
export class PortalError extends Error {
  constructor(
    readonly worded: Message,
    readonly portalText: string | null = null,
    readonly retryable = false,
    /** CKAN's error `__type` when the portal answered with its envelope. */
    readonly ckanType: string | null = null,
    readonly status: number | null = null,
  ) {
    super(portalText ? `${worded.text} (${portalText})` : worded.text);
    this.name = 'PortalError';
  }
}

export function isPortalError(err: unknown): err is PortalError {
  return err instanceof PortalError;
}

export const portalUnreachable = (portal: string, detail: string): PortalError =>
  new PortalError(message('portal.unreachable', `The portal ${portal} cannot be reached (${detail}).`, { portal, detail }), null, true);

export const portalTimeout = (portal: string, seconds: number): PortalError =>
  new PortalError(message('portal.timeout', `The portal ${portal} did not answer within ${seconds} s.`, { portal, seconds }), null, true);

export const portalNotCkan = (url: string): PortalError =>
  new PortalError(message('portal.not_ckan', `No CKAN API answers at ${url} or the paths above it.`, { url }));

export const portalTooManyRedirects = (url: string, max: number): PortalError =>
  new PortalError(message('portal.too_many_redirects', `${url} redirected more than ${max} times.`, { url, max }));

/** A CKAN error envelope, or a bare HTTP failure, as a PortalError in the user's language. */
export function portalRefusal(portal: string, status: number, ckanType: string | null, portalText: string | null): PortalError {
  const retryable = status === 429 || status >= 500;
  const code =
    ckanType === 'Authorization Error'
      ? 'portal.refused_authorization'
      : ckanType === 'Not Found Error'
        ? 'portal.refused_not_found'
        : ckanType === 'Validation Error'
          ? 'portal.refused_validation'
          : 'portal.http_status';
  const text = {
    'portal.refused_authorization': `The portal ${portal} refused: not authorized (check the portal token).`,
    'portal.refused_not_found': `The portal ${portal} answered: not found.`,
    'portal.refused_validation': `The portal ${portal} refused the data.`,
    'portal.http_status': `The portal ${portal} answered HTTP ${status}.`,
  }[code];
  return new PortalError(message(code, text, { portal, status }), portalText, retryable, ckanType, status);
}

export const portalAnswerTooLarge = (portal: string, action: string, maxBytes: number): PortalError =>
  new PortalError(
    message(
      'portal.answer_too_large',
      `The portal ${portal} answered ${action} with more than ${maxBytes / 1024 / 1024} MB; nothing of it was used.`,
      { portal, action, max: `${maxBytes / 1024 / 1024} MB` },
    ),
  );

export const portalTooSlow = (portal: string, bytesPerSecond: number): PortalError =>
  new PortalError(
    message('portal.too_slow', `The portal ${portal} is sending too slowly (${bytesPerSecond} bytes/s).`, { portal, rate: bytesPerSecond }),
    null,
    true,
  );

export const portalRedirectRefused = (portal: string, url: string): PortalError =>
  new PortalError(
    message('portal.redirect_refused', `The portal ${portal} redirected a write to ${url}, another site; nothing was sent there.`, {
      portal,
      url,
    }),
  );
