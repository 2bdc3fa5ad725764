import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/errors';
import { loadChoices, loadParamsOf } from '../../../src/main/params/load-params';
import type { ImportChoices } from '../../../src/main/importer/import-types';

describe('load parameters and import choices', () => {
  it('reads what the CLI sends to a running server back into the same choices', () => {
    const choices: ImportChoices = {
      encoding: 'windows-1252',
      delimiter: '\t',
      skipLines: 2,
      types: { codice: 'text', anno: 'int4' },
      trim: false,
      ftsLanguage: 'italian',
      repairs: { extra_cells: 'skip' },
      sheet: 'Foglio 2',
      entry: 'dati/comuni.csv',
    };
    const params = loadParamsOf(choices);
    expect(params.deskstore_delimiter).toBe('tab');
    expect(loadChoices({ ...params })).toEqual(choices);
    // as a multipart form sends them: every value text, lists and objects as JSON
    const asText = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    expect(loadChoices(asText)).toEqual(choices);
    expect(loadParamsOf({})).toEqual({});
  });

  it('refuses a bad choice with CKAN-style members', () => {
    expect(() => loadChoices({ deskstore_delimiter: 'x', deskstore_language: 'klingon' })).toThrow(ValidationError);
  });
});
