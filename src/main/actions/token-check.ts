import type { ActionDefinition } from './types';

/**
 * `deskstore_token_check`: whether the request carried this data directory's token. Lets
 * the UI verify a pasted token without side effects (a wrong token is simply anonymous).
 */
export const tokenCheckAction: ActionDefinition = {
  name: 'deskstore_token_check',
  sideEffectFree: true,
  async run(_params, ctx) {
    return { authorized: ctx.authorized };
  },
};
