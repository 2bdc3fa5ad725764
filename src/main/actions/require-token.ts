import { AuthorizationError } from '../errors';
import type { ActionContext } from './types';

/**
 * Reads are open like a public CKAN resource; anything that changes data needs this data
 * directory's token (CKAN answers anonymous writes with 403 `Access denied`).
 */
export function requireToken(ctx: ActionContext, action: string): void {
  if (!ctx.authorized) {
    throw new AuthorizationError(`${action} needs the Deskstore API token in the Authorization header`);
  }
}
