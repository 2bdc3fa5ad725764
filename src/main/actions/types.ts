import type { Locale } from '../../shared/locales';
import type { ActionName, ActionResult, Actions } from '../../shared/wire/actions';
import type { ActionParams } from '../params/action-params';
import type { RawJson } from '../util/raw-json';

export interface ActionContext {
  /** The request carried this data directory's token (sysadmin); anonymous otherwise. */
  readonly authorized: boolean;
  /** Locale prefix of the request path, when there was one. */
  readonly locale: Locale | null;
  /** `http://127.0.0.1:PORT`, for absolute URLs in results (resource url, help). */
  readonly siteUrl: string;
  /** Request path without the locale prefix, and the raw query string (`_links`, §3.7). */
  readonly path: string;
  readonly rawQuery: string;
  readonly method: 'GET' | 'POST';
}

type KeysOf<T> = T extends unknown ? keyof T : never;

/**
 * What an action's handler receives: the parameter names its contract declares
 * (src/shared/wire/actions.ts), each still the untrusted value the request carried (a query
 * string gives text, a JSON body anything), for the action's schema to read. Reading a name
 * the contract does not declare is a compile error.
 */
export type ActionInput<K extends ActionName> = { readonly [P in KeysOf<Actions[K]['params']>]?: unknown };

/** What a handler answers: the contract's result, rows possibly still serialised JSON (or csv/tsv text). */
export type ServedResult<K extends ActionName> = ActionResult<K, RawJson | string>;

export type ActionHandler<K extends ActionName> = (params: ActionInput<K>, ctx: ActionContext) => Promise<ServedResult<K>>;

/**
 * Handlers for some actions, as a module of actions/ supplies them: keyed by action name, so
 * a misnamed one is an excess property; every action together makes `ActionHandlers`.
 */
export type HandlersFor<K extends ActionName> = { readonly [N in K]: ActionHandler<N> };

/** One handler per action of the contract: a missing or misnamed action does not compile. */
export type ActionHandlers = HandlersFor<ActionName>;

/** An action as the server looks it up by the name in the URL. */
export interface ActionDefinition {
  readonly name: string;
  /** CKAN's side_effect_free: may be called with GET (SIDE_EFFECT_FREE in the contract). */
  readonly sideEffectFree: boolean;
  /**
   * Only token holders may call it. The server refuses others from the headers alone, before
   * reading the body; the action checks again, since a `callback` key in the body makes a
   * request anonymous.
   */
  readonly requiresToken?: boolean;
  run(params: ActionParams, ctx: ActionContext): Promise<unknown>;
}

export type ActionRegistry = ReadonlyMap<string, ActionDefinition>;
