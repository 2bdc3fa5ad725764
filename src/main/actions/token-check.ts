import type { HandlersFor } from './types';

/**
 * `deskstore_token_check`: whether the request carried this data directory's token. Lets
 * the UI verify a pasted token without side effects (a wrong token is simply anonymous).
 */
export const tokenCheckAction: HandlersFor<'deskstore_token_check'> = {
  async deskstore_token_check(_params, ctx) {
    return { authorized: ctx.authorized };
  },
};
