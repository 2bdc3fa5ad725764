/**
 * PostgreSQL type names as CKAN accepts and reports them (docs/ckan-contract.md §9), and how each is kept
 * in SQLite and in the column store. This table is the only place that knows the mapping.
 */

/** How a value of a type is stored (SQLite storage class plus the canonical text forms). */
export type StorageKind =
  | 'text' // TEXT as given
  | 'integer' // INTEGER
  | 'real' // REAL (float4, float8)
  | 'exact' // numeric and int8: ExactNumber (values/exact-number.ts), in SQLite as is (see numeric below)
  | 'bool' // INTEGER 0/1
  | 'date' // TEXT YYYY-MM-DD
  | 'time' // TEXT HH:MM:SS[.ffffff]
  | 'timestamp' // TEXT YYYY-MM-DDTHH:MM:SS[.ffffff]
  | 'timestamptz' // TEXT YYYY-MM-DDTHH:MM:SS[.ffffff]+00:00 (normalised to UTC)
  | 'json' // TEXT, JSON as Python's json.dumps writes it (what CKAN stores)
  | 'array'; // TEXT, a compact JSON array of element values

export interface FieldType {
  /** The name CKAN reports: `int4`, `_text`, ... */
  readonly name: string;
  readonly storage: StorageKind;
  /** For arrays, the element type. */
  readonly element?: FieldType;
  /** PostgreSQL's long name, for datastore_info's `native_type`. */
  readonly nativeName: string;
  /** SQLite column declaration (affinity). */
  readonly sqliteType: 'TEXT' | 'INTEGER' | 'REAL' | 'BLOB';
}

interface BaseType {
  name: string;
  storage: Exclude<StorageKind, 'array'>;
  native: string;
  aliases: string[];
  sqliteType?: FieldType['sqliteType'];
}

const BASE_TYPES: BaseType[] = [
  { name: 'text', storage: 'text', native: 'text', aliases: ['text'] },
  { name: 'varchar', storage: 'text', native: 'character varying', aliases: ['varchar', 'character varying'] },
  { name: 'int2', storage: 'integer', native: 'smallint', aliases: ['int2', 'smallint'] },
  { name: 'int4', storage: 'integer', native: 'integer', aliases: ['int4', 'int', 'integer'] },
  { name: 'int8', storage: 'exact', native: 'bigint', aliases: ['int8', 'bigint'], sqliteType: 'INTEGER' },
  { name: 'float4', storage: 'real', native: 'real', aliases: ['float4', 'real'] },
  { name: 'float8', storage: 'real', native: 'double precision', aliases: ['float8', 'float', 'double precision'] },
  // No affinity (BLOB): SQLite keeps each ExactNumber as given, a REAL for a number and the
  // exact TEXT (`2.50`) otherwise, with no conversion either way; SQL casts before computing.
  { name: 'numeric', storage: 'exact', native: 'numeric', aliases: ['numeric', 'decimal'], sqliteType: 'BLOB' },
  { name: 'bool', storage: 'bool', native: 'boolean', aliases: ['bool', 'boolean'] },
  { name: 'date', storage: 'date', native: 'date', aliases: ['date'] },
  { name: 'time', storage: 'time', native: 'time without time zone', aliases: ['time', 'time without time zone'] },
  { name: 'timestamp', storage: 'timestamp', native: 'timestamp without time zone', aliases: ['timestamp', 'timestamp without time zone'] },
  { name: 'timestamptz', storage: 'timestamptz', native: 'timestamp with time zone', aliases: ['timestamptz', 'timestamp with time zone'] },
  { name: 'json', storage: 'json', native: 'nested', aliases: ['json', 'jsonb', 'nested'] },
];

const SQLITE_TYPE: Record<StorageKind, FieldType['sqliteType']> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  exact: 'BLOB',
  bool: 'INTEGER',
  date: 'TEXT',
  time: 'TEXT',
  timestamp: 'TEXT',
  timestamptz: 'TEXT',
  json: 'TEXT',
  array: 'TEXT',
};

const BY_ALIAS = new Map<string, FieldType>();
for (const t of BASE_TYPES) {
  const type: FieldType = { name: t.name, storage: t.storage, nativeName: t.native, sqliteType: t.sqliteType ?? SQLITE_TYPE[t.storage] };
  for (const alias of t.aliases) BY_ALIAS.set(alias, type);
}

function arrayOf(element: FieldType): FieldType | null {
  if (element.storage === 'json') return null; // PostgreSQL has no array of the composite `nested`
  return { name: `_${element.name}`, storage: 'array', element, nativeName: `${element.nativeName}[]`, sqliteType: 'TEXT' };
}

/**
 * Resolves a type name as CKAN would accept it in `fields[].type` (`int`, `text[]`,
 * `int[2]`, `_int4`, `double precision`, any case), or null when it is not a type.
 */
export function resolveFieldType(raw: string): FieldType | null {
  const name = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  const direct = BY_ALIAS.get(name);
  if (direct) return direct;
  const bracket = /^(.+?) ?\[\d*\]$/.exec(name);
  if (bracket) {
    const element = BY_ALIAS.get(bracket[1]!);
    return element ? arrayOf(element) : null;
  }
  if (name.startsWith('_')) {
    const element = BY_ALIAS.get(name.slice(1));
    return element ? arrayOf(element) : null;
  }
  return null;
}

/** Like resolveFieldType, for names known to be valid (stored schemas). */
export function fieldTypeOf(name: string): FieldType {
  const type = resolveFieldType(name);
  if (!type) throw new Error(`unknown stored field type ${JSON.stringify(name)}`);
  return type;
}

/** Numbers of any kind (integers, floats, exact numerics). */
export function isNumericStorage(storage: StorageKind): boolean {
  return storage === 'integer' || storage === 'real' || storage === 'exact';
}

/** Stored as JS numbers only (booleans as 0/1): ordered and encoded as numbers. Not `exact`. */
export function isStoredAsNumber(storage: StorageKind): boolean {
  return storage === 'integer' || storage === 'real' || storage === 'bool';
}
