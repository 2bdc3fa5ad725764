import { describe, expect, it } from 'vitest';
import { mungeFilename } from '../../../src/main/util/munge-filename';

describe('mungeFilename', () => {
  it('names uploads as CKAN 2.11 munge_filename does (outputs taken from CKAN itself)', () => {
    const cases: [string, string][] = [
      ['Elenco comuni (2024).csv', 'elenco-comuni-2024.csv'],
      ['Città ÀÉ 城市.CSV', 'citta-ae-.csv'],
      ['../../etc/passwd', 'passwd'],
      ['.bashrc', '.bashrc'],
      ['a.b.c.tar.gz', 'a.b.c.tar.gz'],
      ['x', 'x__'],
      ['--a--  b--.csv', '-a-b-.csv'],
      ['name.verylongextensionthatkeepsgoingonandon', 'name.verylongextensiontha'],
    ];
    expect(cases.map(([input]) => mungeFilename(input))).toEqual(cases.map(([, out]) => out));
  });
});
