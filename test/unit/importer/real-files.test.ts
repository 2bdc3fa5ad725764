import { describe, expect, it } from 'vitest';
import { cleanHeader } from '../../../src/main/importer/header';
import { sniffDialect } from '../../../src/main/importer/sniff-dialect';
import { decodeSample, detectEncoding, SAMPLE_BYTES } from '../../../src/main/importer/sniff-encoding';
import { ColumnTypeInference, type InferredColumn } from '../../../src/main/importer/type-inference';
import { parserFor, type ParsedValue } from '../../../src/main/importer/value-parsers';
import { DATA_FILES, dataFile, parseDataFile, readBytes } from './data-files';

/**
 * Type inference over every row of every data file (each distinct value fed once, as the
 * pipeline does), checked against what the data really is. `type format` when they differ.
 */
const EXPECTED: Record<string, Record<string, string>> = {
  'dpc-covid19-ita-province.csv.gz': {
    data: 'timestamp timestamp-iso',
    stato: 'text',
    codice_regione: 'text',
    denominazione_regione: 'text',
    codice_provincia: 'text',
    denominazione_provincia: 'text',
    sigla_provincia: 'text',
    lat: 'numeric numeric-dot',
    long: 'numeric numeric-dot',
    totale_casi: 'int4 integer',
    note: 'text',
    codice_nuts_1: 'text',
    codice_nuts_2: 'text',
    codice_nuts_3: 'text',
  },
  'dpc-covid19-ita-note.csv': {
    data: 'timestamp timestamp-iso',
    note: 'text',
  },
  'istat-elenco-comuni-italiani.csv': {
    'Codice Regione': 'text',
    "Codice dell'Unità territoriale sovracomunale \n(valida a fini statistici)": 'text',
    'Codice Provincia (Storico)(1)': 'text',
    'Progressivo del Comune (2)': 'text',
    'Codice Comune formato alfanumerico': 'text',
    'Denominazione (Italiana e straniera)': 'text',
    'Denominazione in italiano': 'text',
    'Denominazione altra lingua': 'text',
    'Codice Ripartizione Geografica': 'int4 integer',
    'Ripartizione geografica': 'text',
    'Denominazione Regione': 'text',
    "Denominazione dell'Unità territoriale sovracomunale \n(valida a fini statistici)": 'text',
    'Tipologia di Unità territoriale sovracomunale ': 'int4 integer',
    'Flag Comune capoluogo di provincia/città metropolitana/libero consorzio': 'int4 integer',
    'Sigla automobilistica': 'text',
    'Codice Comune formato numerico': 'int4 integer',
    'Codice Comune numerico con 110 province (dal 2010 al 2016)': 'int4 integer',
    'Codice Comune numerico con 107 province (dal 2006 al 2009)': 'text',
    'Codice Comune numerico con 103 province (dal 1995 al 2005)': 'int4 integer',
    'Codice Catastale del comune': 'text',
    'Codice NUTS1 2010': 'text',
    'Codice NUTS2 2010 (3) ': 'text',
    'Codice NUTS3 2010': 'text',
    'Codice NUTS1 2021': 'text',
    'Codice NUTS2 2021 (3) ': 'text',
    'Codice NUTS3 2021': 'text',
  },
  'mise-carburanti-prezzo_alle_8-2022-03-24.csv': {
    idImpianto: 'int4 integer',
    descCarburante: 'text',
    prezzo: 'numeric numeric-dot',
    isSelf: 'int4 integer',
    dtComu: 'timestamp timestamp-dmy',
  },
  'country-codes.csv': {
    FIFA: 'text',
    Dial: 'text',
    'ISO3166-1-Alpha-3': 'text',
    MARC: 'text',
    is_independent: 'text',
    'ISO3166-1-numeric': 'int4 integer',
    GAUL: 'int4 integer',
    FIPS: 'text',
    WMO: 'text',
    'ISO3166-1-Alpha-2': 'text',
    ITU: 'text',
    IOC: 'text',
    DS: 'text',
    'UNTERM Spanish Formal': 'text',
    'Global Code': 'int4 integer',
    'Intermediate Region Code': 'int4 integer',
    official_name_fr: 'text',
    'UNTERM French Short': 'text',
    'ISO4217-currency_name': 'text',
    'UNTERM Russian Formal': 'text',
    'UNTERM English Short': 'text',
    'ISO4217-currency_alphabetic_code': 'text',
    'Small Island Developing States (SIDS)': 'text',
    'UNTERM Spanish Short': 'text',
    'ISO4217-currency_numeric_code': 'text',
    'UNTERM Chinese Formal': 'text',
    'UNTERM French Formal': 'text',
    'UNTERM Russian Short': 'text',
    M49: 'int4 integer',
    'Sub-region Code': 'int4 integer',
    'Region Code': 'int4 integer',
    official_name_ar: 'text',
    'ISO4217-currency_minor_unit': 'text',
    'UNTERM Arabic Formal': 'text',
    'UNTERM Chinese Short': 'text',
    'Land Locked Developing Countries (LLDC)': 'text',
    'Intermediate Region Name': 'text',
    official_name_es: 'text',
    'UNTERM English Formal': 'text',
    official_name_cn: 'text',
    official_name_en: 'text',
    'ISO4217-currency_country_name': 'text',
    'Least Developed Countries (LDC)': 'text',
    'Region Name': 'text',
    'UNTERM Arabic Short': 'text',
    'Sub-region Name': 'text',
    official_name_ru: 'text',
    'Global Name': 'text',
    Capital: 'text',
    Continent: 'text',
    TLD: 'text',
    Languages: 'text',
    'Geoname ID': 'int4 integer',
    'CLDR display name': 'text',
    EDGAR: 'text',
    wikidata_id: 'text',
  },
  'world-cities.csv': {
    name: 'text',
    country: 'text',
    subcountry: 'text',
    geonameid: 'int4 integer',
  },
};

const inferred = new Map<string, InferredColumn[]>();
function inferFile(name: string): InferredColumn[] {
  let columns = inferred.get(name);
  if (!columns) {
    const decimalComma = dataFile(name).delimiter !== ','; // what the pipeline passes
    columns = parseDataFile(name).distinct.map((values) => {
      const inference = new ColumnTypeInference({ decimalComma });
      for (const [value, count] of values) inference.observe(value, count);
      return inference.result();
    });
    inferred.set(name, columns);
  }
  return columns;
}

function column(name: string, header: string): { result: InferredColumn; values: Map<string, number> } {
  const parsed = parseDataFile(name);
  const i = parsed.header.indexOf(header);
  if (i < 0) throw new Error(`no column ${header} in ${name}`);
  return { result: inferFile(name)[i]!, values: parsed.distinct[i]! };
}

const parse = (name: string, header: string, raw: string): ParsedValue => parserFor(column(name, header).result)(raw);

describe('inferred types of every column of every data file', () => {
  for (const f of DATA_FILES) {
    it(f.name, () => {
      const parsed = parseDataFile(f.name);
      expect(parsed.rows).toBe(f.rows); // the README's row count: the reference parse is right
      const got = Object.fromEntries(
        parsed.header.map((h, i) => {
          const r = inferFile(f.name)[i]!;
          return [h, r.type === r.format ? r.type : `${r.type} ${r.format}`];
        }),
      );
      expect(got).toEqual(EXPECTED[f.name]);
      expect(Object.keys(EXPECTED[f.name]!)).toEqual(parsed.header);
    });

    it(`${f.name}: every cell converts with its column's parser`, () => {
      const parsed = parseDataFile(f.name);
      const failures: string[] = [];
      parsed.distinct.forEach((values, i) => {
        const parser = parserFor(inferFile(f.name)[i]!);
        for (const raw of values.keys()) {
          try {
            parser(raw);
          } catch (err) {
            failures.push(`${parsed.header[i]}: ${(err as Error).message}`);
          }
        }
      });
      expect(failures).toEqual([]);
    });
  }

  it('blank cells match the README counts', () => {
    const blanks = (name: string): number => inferFile(name).reduce((sum, c) => sum + c.nullCount!, 0);
    expect(blanks('dpc-covid19-ita-province.csv.gz')).toBe(674483);
    expect(blanks('country-codes.csv')).toBe(1736); // 94 of them are a lone NBSP
    expect(column('world-cities.csv', 'subcountry').result.nullCount).toBe(123);
    expect(column('dpc-covid19-ita-province.csv.gz', 'lat').result.nullCount).toBe(72240);
  });
});

describe('what the data really is', () => {
  const P = 'dpc-covid19-ita-province.csv.gz';
  it('province: codes with leading zeros are text, NA is Napoli', () => {
    expect(column(P, 'codice_provincia').values.has('001')).toBe(true);
    expect(parse(P, 'codice_provincia', '066')).toBe('066');
    expect(parse(P, 'codice_regione', '01')).toBe('01');
    expect(column(P, 'sigla_provincia').values.get('NA')).toBe(1781);
    expect(parse(P, 'sigla_provincia', 'NA')).toBe('NA');
    expect(column(P, 'sigla_provincia').result.nullCount).toBe(72240);
  });
  it('province: lat numeric, data timestamp, totale_casi int4', () => {
    expect(parse(P, 'lat', '42.35122196')).toBe(42.35122196);
    expect(parse(P, 'long', '15.643452700000001')).toBe(15.643452700000001);
    expect(parse(P, 'lat', '')).toBeNull();
    expect(parse(P, 'data', '2020-02-24T18:00:00')).toBe('2020-02-24T18:00:00');
    expect(parse(P, 'totale_casi', '0')).toBe(0);
  });
  it('note: data is a timestamp, notes are text with NBSP kept', () => {
    const N = 'dpc-covid19-ita-note.csv';
    expect(parse(N, 'data', '2020-03-07T17:00:00')).toBe('2020-03-07T17:00:00');
    const withNbsp = [...column(N, 'note').values.keys()].find((v) => v.includes('\u00a0'))!;
    expect(parse(N, 'note', withNbsp)).toBe(withNbsp);
  });
  it('mise: dtComu day-first timestamp, prezzo numeric with its outliers, isSelf int4', () => {
    const M = 'mise-carburanti-prezzo_alle_8-2022-03-24.csv';
    expect(parse(M, 'dtComu', '22/03/2022 17:18:54')).toBe('2022-03-22T17:18:54');
    expect(parse(M, 'prezzo', '1.644')).toBe(1.644);
    expect(column(M, 'prezzo').values.has('0.001')).toBe(true);
    expect(parse(M, 'prezzo', '0.001')).toBe(0.001);
    expect(column(M, 'isSelf').result.reason.text).toBe('only 0/1 values: kept as int4, as CKAN types them; force bool if it is a flag');
    expect(column(M, 'idImpianto').result.distinctValues).toBe(21433);
  });
  it('ISTAT: padded codes stay text, NA stays, cp1252 names decoded', () => {
    const I = 'istat-elenco-comuni-italiani.csv';
    expect(column(I, 'Progressivo del Comune (2)').values.has(' 001 ')).toBe(true);
    expect(column(I, 'Sigla automobilistica').values.get('NA')).toBe(92);
    expect(column(I, 'Denominazione in italiano').values.has('San Floriano del Collio')).toBe(true);
    expect(column(I, 'Denominazione (Italiana e straniera)').values.has('San Floriano del Collio-Števerjan')).toBe(true);
    expect(column(I, 'Codice Comune numerico con 107 province (dal 2006 al 2009)').result.reason.text).toBe(
      'codes with leading zeros such as "094001": kept as text so the zeros are not lost',
    );
  });
  it('country-codes: Dial text, currency numeric code text (22 leading zeros), NA values', () => {
    const C = 'country-codes.csv';
    expect(column(C, 'Dial').result.reason.text).toBe('"1-684" is not a number, date or boolean, unlike integers such as "93"');
    const codes = column(C, 'ISO4217-currency_numeric_code').values;
    expect([...codes].filter(([v]) => v.startsWith('0')).reduce((n, [, c]) => n + c, 0)).toBe(22);
    expect(parse(C, 'ISO4217-currency_numeric_code', '036')).toBe('036');
    expect(column(C, 'ISO4217-currency_minor_unit').result.reason.text).toBe(
      '"2,2" has a comma, which is not a decimal separator in a comma-delimited file',
    );
    expect(column(C, 'ISO3166-1-Alpha-2').values.get('NA')).toBe(1);
    expect(column(C, 'Continent').values.get('NA')).toBe(41);
  });
  it('world-cities: geonameid int4', () => {
    expect(parse('world-cities.csv', 'geonameid', '3040051')).toBe(3040051);
  });
});

describe('the building blocks chained as the pipeline chains them', () => {
  for (const f of DATA_FILES) {
    it(f.name, () => {
      const bytes = readBytes(f.name);
      const sample = bytes.subarray(0, SAMPLE_BYTES);
      const isWholeFile = bytes.length <= SAMPLE_BYTES;
      const { encoding } = detectEncoding(sample, isWholeFile);
      const dialect = sniffDialect(decodeSample(sample, encoding, isWholeFile));
      expect([encoding, dialect.delimiter, dialect.skipLines]).toEqual([f.encoding, f.delimiter, f.skipLines]);
      const { columns } = cleanHeader(parseDataFile(f.name).header);
      expect(columns[0]!.id).toBe(
        {
          'dpc-covid19-ita-province.csv.gz': 'data',
          'dpc-covid19-ita-note.csv': 'data',
          'istat-elenco-comuni-italiani.csv': 'Codice Regione',
          'mise-carburanti-prezzo_alle_8-2022-03-24.csv': 'idImpianto',
          'country-codes.csv': 'FIFA',
          'world-cities.csv': 'name',
        }[f.name],
      );
    });
  }
});
