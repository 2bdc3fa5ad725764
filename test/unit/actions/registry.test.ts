import { describe, expect, it } from 'vitest';
import { createActionRegistry } from '../../../src/main/actions/registry';
import type { ActionContext } from '../../../src/main/actions/types';
import type { ActionDeps } from '../../../src/main/actions/action-deps';
import type { EngineApi } from '../../../src/main/engine/engine-api';
import { AuthorizationError } from '../../../src/main/errors';
import { ACTION_NAMES, SIDE_EFFECT_FREE } from '../../../src/shared/wire/actions';

// The engine is never reached: the token check comes first, and reads are not run.
const deps: ActionDeps = {
  engine: {} as EngineApi,
  searchSql: async () => {
    throw new Error('not called');
  },
  siteTitle: 'test',
  version: '0',
};

const anonymous: ActionContext = { authorized: false, locale: null, siteUrl: 'http://127.0.0.1', path: '/', rawQuery: '', method: 'POST' };

describe('the action registry', () => {
  const registry = createActionRegistry(deps);

  it('answers every action of the contract and nothing else, by the name in the URL', () => {
    expect([...registry.keys()].sort()).toEqual([...ACTION_NAMES].sort());
    expect(ACTION_NAMES.length).toBeGreaterThan(40);
    for (const [name, action] of registry) expect(action.name).toBe(name);
  });

  it("takes GET and the token requirement from the contract's side_effect_free", () => {
    for (const name of ACTION_NAMES) {
      const action = registry.get(name)!;
      expect([name, action.sideEffectFree]).toEqual([name, SIDE_EFFECT_FREE[name]]);
      expect([name, action.requiresToken]).toEqual([name, !SIDE_EFFECT_FREE[name]]);
    }
    expect(SIDE_EFFECT_FREE.datastore_search).toBe(true);
    expect(SIDE_EFFECT_FREE.datastore_upsert).toBe(false);
  });

  it('refuses every write to a request without the token before the action runs', async () => {
    const writes = ACTION_NAMES.filter((name) => !SIDE_EFFECT_FREE[name]);
    expect(writes).toContain('resource_create');
    for (const name of writes) {
      await expect(registry.get(name)!.run({}, anonymous), name).rejects.toBeInstanceOf(AuthorizationError);
    }
  });

  it('looks names up as data: a prototype member is no action', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(registry.get(name)).toBeUndefined();
  });
});
