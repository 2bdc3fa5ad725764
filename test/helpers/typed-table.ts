/**
 * A DataStore table whose values are the hard ones to carry exactly between servers: spaces
 * kept, quotes and newlines, accents, "" apart from null, numeric, dates and timestamps with
 * fractions, booleans, JSON of every shape and text arrays. Mirror and push tests use it.
 */
export const TYPED_FIELDS = [
  { id: 'name', type: 'text', info: { label: 'Nome', notes: 'come scritto' } },
  { id: 'n', type: 'int4' },
  { id: 'price', type: 'numeric' },
  { id: 'day', type: 'date' },
  { id: 'at', type: 'timestamp' },
  { id: 'flag', type: 'bool' },
  { id: 'meta', type: 'json' },
  { id: 'tags', type: '_text' },
];

export const TYPED_RECORDS = [
  {
    name: '  spaced  ',
    n: 1,
    price: 2.5,
    day: '2024-01-31',
    at: '2024-01-31T10:11:12',
    flag: true,
    meta: { a: [1, 'x'] },
    tags: ['a', 'b'],
  },
  { name: 'quote "x", and\nnewline', n: 2, price: 0.1, day: '1999-12-31', at: '1999-12-31T23:59:59.5', flag: false, meta: null, tags: [] },
  { name: 'caffè Città Števerjan', n: 3, price: null, day: null, at: null, flag: null, meta: { n: null }, tags: null },
  { name: '', n: 4, price: -7, day: '2000-02-29', at: '2000-02-29T00:00:00', flag: true, meta: 'text', tags: ['é'] },
  { name: null, n: 5, price: 1e-7, day: '2020-06-01', at: '2020-06-01T12:00:00', flag: true, meta: [1, 2], tags: ['x,y'] },
];
